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

/**
 * Whether a table has a column. SQLite runs a migration's statements outside a transaction, so one
 * stopped between its change and Kysely's record of it is run again at the next start: its steps
 * must find what is already done.
 */
// biome-ignore lint/suspicious/noExplicitAny: see isPostgres
export async function hasColumn(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((t) => t.name === table && t.columns.some((c) => c.name === column));
}
