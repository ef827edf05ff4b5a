import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  type Migration,
  type MigrationResultSet,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  sql,
} from "kysely";
import pg from "pg";
import type { DatabaseTarget } from "~/config/env.server";
import { log, outsideRequests } from "~/config/log.server";
import { StartupError } from "~/config/startup-error";
import { migrations } from "./migrations";
import type { KyselyDatabase } from "./schema";
import {
  lockSqliteMigrations,
  MIGRATION_LOCK_WAIT_MS,
  migrateSqlite,
  migrator,
} from "./sqlite-migrations.server";
import { beginWithoutBlocking, WRITE_LOCK_WAIT_MS } from "./sqlite-write-lock";
import { withStatementCache } from "./statement-cache";

export type Db = Kysely<KyselyDatabase>;

export interface Database {
  db: Db;
  dialect: "sqlite" | "postgres";
  /** The SQLite file, when the dialect is SQLite. */
  file?: string;
  /** Cheap round trip for /healthz. */
  ping(): Promise<void>;
  /**
   * SQLite: prepares these statements now, before the moment that needs them first (a drop's
   * opening), kept in the statement cache as if they had run. PostgreSQL prepares nothing ahead.
   */
  keepPrepared?(sqlTexts: readonly string[]): void;
  /**
   * SQLite: the same connection as `db`, for migrateToLatest alone. Its adapter says DDL is
   * transactional (SQLite's is), so Kysely's Migrator runs the pending migrations in one
   * transaction, as on PostgreSQL, instead of each statement on its own.
   */
  migrationDb?: Db;
  close(): Promise<void>;
}

// COUNT(*) and other int8 results come back as strings by default; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

/** Where a PostgreSQL URL points, without its password, for messages. */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "(DATABASE_URL ilegible)";
  }
}

export async function openDatabase(
  target: DatabaseTarget,
  options: {
    poolMax?: number;
    /**
     * PostgreSQL: open every pooled connection now and keep them (the app server). Opening one
     * costs a few milliseconds of both processes' CPU (password check, a new backend); on drop day
     * the pool fills in the rush's first instant, when those milliseconds are the shoppers'.
     */
    warm?: boolean;
    /** PostgreSQL: how long a query may wait for its answer before it fails (tests shorten it). */
    queryTimeoutMs?: number;
  } = {},
): Promise<Database> {
  return target.kind === "sqlite"
    ? openSqlite(target.file)
    : openPostgres(
        target.url,
        options.poolMax ?? 10,
        options.warm ?? false,
        options.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
      );
}

/**
 * A query with no answer after this fails instead of waiting for ever: a connection whose server
 * vanished without a word (a failover, a network cut) never errors by itself, and a job waiting
 * on it (releasing holds, refunds, mail) would never run again on that process. Long enough for
 * any of the shop's own statements, migrations included.
 */
const QUERY_TIMEOUT_MS = 120_000;

/**
 * Opens `size` connections of the pool at once and gives them back (with `min` set to the pool's
 * size they stay open). Best effort: a server that cannot open them all now opens them later.
 */
export async function fillPool(pool: pg.Pool, size: number): Promise<void> {
  const clients = await Promise.allSettled(Array.from({ length: size }, () => pool.connect()));
  for (const c of clients) if (c.status === "fulfilled") c.value.release();
  const failed = clients.find((c) => c.status === "rejected");
  if (failed) {
    log.error(
      { error: String((failed.reason as Error)?.message ?? failed.reason) },
      "PostgreSQL: no se pudieron abrir todas las conexiones de antemano; se abrirán al necesitarse.",
    );
  }
}

function openSqlite(file: string): Database {
  let handle: SQLite.Database;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    handle = new SQLite(file);
    // WAL lets readers run while a writer commits; busy_timeout makes concurrent writers wait
    // instead of failing with SQLITE_BUSY.
    handle.pragma("journal_mode = WAL");
    handle.pragma("synchronous = NORMAL");
    handle.pragma(`busy_timeout = ${WRITE_LOCK_WAIT_MS}`);
    handle.pragma("foreign_keys = ON");
  } catch (error) {
    throw new StartupError(`No se puede abrir la base de datos SQLite ${file}: ${(error as Error).message}`);
  }
  const statements = withStatementCache(handle);
  const begin = beginWithoutBlocking(handle, WRITE_LOCK_WAIT_MS);
  const db = new Kysely<KyselyDatabase>({
    dialect: new ImmediateSqliteDialect({ database: statements }, { begin }),
  });
  // Never destroyed: destroying it would close the connection, which `close` does.
  const migrationDb = new Kysely<KyselyDatabase>({
    dialect: new ImmediateSqliteDialect({ database: statements }, { begin, transactionalDdl: true }),
  });
  return {
    db,
    dialect: "sqlite",
    file,
    migrationDb,
    keepPrepared(sqlTexts) {
      for (const text of sqlTexts) statements.keep(text);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * SQLite transactions here always write, so they take the write lock when they begin
 * (BEGIN IMMEDIATE), waiting for it on the event loop (sqlite-write-lock.ts). A plain BEGIN reads
 * first and then fails at once with "database is locked" when another process (a second app
 * server, the admin command, a test) wrote in between, because SQLite cannot upgrade a stale read
 * to a write.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #transactionalDdl: boolean;
  readonly #begin: (connection: DatabaseConnection) => Promise<void>;

  constructor(
    config: SqliteDialectConfig,
    options: { begin: (connection: DatabaseConnection) => Promise<void>; transactionalDdl?: boolean },
  ) {
    super(config);
    this.#begin = options.begin;
    this.#transactionalDdl = options.transactionalDdl ?? false;
  }

  override createAdapter(): DialectAdapter {
    return this.#transactionalDdl ? new TransactionalDdlSqliteAdapter() : super.createAdapter();
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = this.#begin;
    return driver;
  }
}

/**
 * SQLite rolls back schema changes with the rest of a transaction, but Kysely's SqliteAdapter says
 * it does not, so its Migrator would run each migration outside one. Only migrateToLatest uses this.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

async function openPostgres(
  url: string,
  poolMax: number,
  warm: boolean,
  queryTimeoutMs: number,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    // Warm: connections are kept rather than closed after 10 s idle (pg's default).
    min: warm ? poolMax : 0,
    connectionTimeoutMillis: 5000,
    query_timeout: queryTimeoutMs,
    // The operating system then notices a connection whose server is gone, and the pool drops it.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client that loses its connection must not crash the process.
  // (A connection opened while a request waited for one is no part of that request afterwards.)
  pool.on("error", (error) =>
    outsideRequests(() => log.error({ error: error.message }, "PostgreSQL: conexión inactiva perdida")),
  );
  const db = new Kysely<KyselyDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy().catch(() => {});
    const reason = (error as Error).message || (error as { code?: string }).code || String(error);
    throw new StartupError(`No se puede conectar a PostgreSQL en ${describePostgresUrl(url)}: ${reason}`);
  }
  if (warm) await fillPool(pool, poolMax);
  return {
    db,
    dialect: "postgres",
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * Applies pending migrations; safe when several processes start at once. On both databases the
 * pending migrations and their records in kysely_migration commit together or not at all, so a
 * process stopped half-way (kill -9, out of memory) leaves the database as it was.
 * `options` are for tests: another list of migrations, a shorter wait for the SQLite lock.
 */
export async function migrateToLatest(
  database: Database,
  options: { migrations?: Record<string, Migration>; lockWaitMs?: number } = {},
): Promise<string[]> {
  const list = options.migrations ?? migrations;
  // PostgreSQL: Kysely runs them in one transaction and takes an advisory lock inside it.
  if (!database.file || !database.migrationDb)
    return applied(await migrator(database.db, list).migrateToLatest());
  const migrationDb = database.migrationDb;
  const unlock = await lockSqliteMigrations(database.file, options.lockWaitMs ?? MIGRATION_LOCK_WAIT_MS);
  try {
    // Holds `db`'s connection (the same one) so nothing else in this process runs on it meanwhile.
    return applied(await database.db.connection().execute(() => migrateSqlite(migrationDb, list)));
  } finally {
    unlock();
  }
}

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "?";
    throw new StartupError(`La migración ${failed} falló: ${(error as Error).message ?? String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Timestamps come back as Date (PostgreSQL) or ISO text (SQLite). */
export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** How timestamps are written on both dialects. */
export function toTimestamp(date: Date): string {
  return date.toISOString();
}

/** Whether a write failed on a unique index (SQLite or PostgreSQL), optionally a given one. */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  // PostgreSQL names the index; SQLite names its columns ("orders.checkout_browser").
  if (e.code === "23505") return index === undefined || e.constraint === index;
  return e.code === "SQLITE_CONSTRAINT_UNIQUE";
}
