import { type Kysely, PostgresAdapter } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: used by migrations, which are schema-agnostic
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A point in time: timestamptz on PostgreSQL, ISO-8601 UTC text on SQLite (sorts correctly). */
// biome-ignore lint/suspicious/noExplicitAny: see isPostgres
export function timestampType(db: Kysely<any>): "timestamptz" | "text" {
  return isPostgres(db) ? "timestamptz" : "text";
}
