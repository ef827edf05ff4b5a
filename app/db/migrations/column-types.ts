import { type Kysely, PostgresAdapter, type Transaction } from "kysely";

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
 * Whether a table has a column. SQLite once ran a migration's statements outside a transaction, so
 * one stopped between its change and Kysely's record of it ran again at the next start: the
 * migrations written then check what is already done (harmless now that they run in one).
 */
// biome-ignore lint/suspicious/noExplicitAny: see isPostgres
export async function hasColumn(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((t) => t.name === table && t.columns.some((c) => c.name === column));
}

/**
 * Runs `fn` in a transaction: `db`'s own when it is one (migrateToLatest runs the pending migrations
 * in one on both databases; Kysely cannot nest them), a new one otherwise (a migration run alone,
 * as a test's Migrator does).
 */
export async function inTransaction<DB, T>(
  db: Kysely<DB>,
  fn: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? fn(db as Transaction<DB>) : db.transaction().execute(fn);
}
