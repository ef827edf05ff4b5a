import SQLite from "better-sqlite3";
import { type Kysely, type Migration, type MigrationResultSet, Migrator, sql } from "kysely";
import { log } from "~/config/log.server";
import { StartupError } from "~/config/startup-error";

// biome-ignore lint/suspicious/noExplicitAny: migrations are schema-agnostic
type AnyDb = Kysely<any>;

/*
 * SQLite's side of migrateToLatest (database.server.ts): the lock that serialises processes, and
 * the pending migrations run atomically, as PostgreSQL runs them (decision 2).
 */

/** How long a start waits for another process's migrations: a big shop's upgrade may take minutes. */
export const MIGRATION_LOCK_WAIT_MS = 60 * 60_000;

/**
 * Kysely's migration lock does nothing on SQLite, yet a server and `npm run db:migrate` may start
 * together. An exclusive transaction on a small companion file serialises them across processes;
 * the operating system releases it if the process dies. Tried again every half second instead of
 * waited for in SQLite's busy handler, which would hold the event loop (and a stop signal) meanwhile.
 */
export async function lockSqliteMigrations(file: string, waitMs: number): Promise<() => void> {
  const lockFile = `${file}-migrations.lock`;
  let lock: SQLite.Database;
  try {
    // No busy timeout (better-sqlite3's default is 5 s): the loop below waits.
    lock = new SQLite(lockFile, { timeout: 0 });
  } catch (error) {
    throw new StartupError(`No se puede abrir ${lockFile}: ${(error as Error).message}`);
  }
  const deadline = Date.now() + waitMs;
  let waiting = false;
  for (;;) {
    try {
      lock.exec("BEGIN EXCLUSIVE");
      return () => {
        lock.exec("COMMIT");
        lock.close();
      };
    } catch (error) {
      const busy = (error as { code?: string }).code === "SQLITE_BUSY";
      if (!busy || Date.now() >= deadline) {
        lock.close();
        throw new StartupError(
          busy
            ? `Otro proceso lleva más de ${duration(waitMs)} migrando la base de datos ${file} (tiene tomado ${lockFile}): espera a que termine, o detenlo, y vuelve a arrancar.`
            : `No se puede tomar ${lockFile}: ${(error as Error).message}`,
        );
      }
      if (!waiting)
        log.info({ file }, "Otro proceso está migrando la base de datos: se espera a que termine.");
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, Math.max(0, deadline - Date.now()))));
    }
  }
}

function duration(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${Math.ceil(ms / 1000)} s`;
}

/**
 * Runs the pending migrations in one transaction on a connection whose adapter says DDL is
 * transactional, with foreign keys off around it and checked after each migration.
 */
export async function migrateSqlite(db: AnyDb, list: Record<string, Migration>): Promise<MigrationResultSet> {
  // Off before the migrations' transaction (inside one the pragma does nothing): a migration that
  // rebuilds a table drops it, and with foreign keys on that would delete every row pointing at it
  // with ON DELETE CASCADE (an order's lines, e-mails, refunds…). Each migration is checked instead.
  await sql`pragma foreign_keys = off`.execute(db);
  let result: MigrationResultSet;
  try {
    const before = await brokenForeignKeys(db);
    const checked = Object.fromEntries(
      Object.entries(list).map(([name, migration]): [string, Migration] => [
        name,
        {
          ...migration,
          async up(trx) {
            await migration.up(trx);
            await checkForeignKeys(trx, before);
          },
        },
      ]),
    );
    result = await migrator(db, checked).migrateToLatest();
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
  // Still off would mean a transaction left open: the shop must not run without its foreign keys.
  const { rows } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  if (rows[0]?.foreign_keys !== 1)
    throw new StartupError(
      "SQLite: las claves foráneas no se pudieron volver a activar tras las migraciones.",
    );
  return result;
}

export function migrator(db: AnyDb, list: Record<string, Migration>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => list } });
}

/** SQLite: rows whose foreign key points at no row, counted by table and the table it points at. */
async function brokenForeignKeys(db: AnyDb): Promise<Map<string, number>> {
  const { rows } = await sql<{ table: string; parent: string }>`pragma foreign_key_check`.execute(db);
  const counts = new Map<string, number>();
  for (const { table, parent } of rows)
    counts.set(`${table}→${parent}`, (counts.get(`${table}→${parent}`) ?? 0) + 1);
  return counts;
}

/**
 * Fails the migration that left rows pointing at no row (foreign keys are off while they run). Rows
 * broken before it (a row deleted by hand) are not its doing, and would otherwise stop every start.
 */
async function checkForeignKeys(db: AnyDb, before: Map<string, number>): Promise<void> {
  const broken = [...(await brokenForeignKeys(db))]
    .map(([pair, count]) => [pair, count - (before.get(pair) ?? 0)] as const)
    .filter(([, count]) => count > 0);
  if (broken.length > 0) {
    const list = broken.map(([pair, count]) => `${pair} (${count})`).join(", ");
    throw new Error(`dejó filas que apuntan a filas que no existen: ${list}`);
  }
}
