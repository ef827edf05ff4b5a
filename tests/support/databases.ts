import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PostgresAdapter, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, inject } from "vitest";
import { type Database, type Db, migrateToLatest, openDatabase } from "~/db/database.server";
import { newId } from "~/lib/ids";

/**
 * Data-layer suites run once per database: `describeEachDatabase("…", (harness) => { … })`.
 * PostgreSQL comes from TEST_DATABASE_URL (a role that may CREATE DATABASE); each suite gets a
 * fresh database of its own. In CI PostgreSQL is mandatory: a missing URL fails instead of skipping.
 *
 * A fresh database is a copy of the run's migrated template (database-templates.ts, the Vitest
 * globalSetup), not migrated again; `fresh({ migrate: true })` runs every migration on an empty one.
 */
export interface FreshOptions {
  /** Run the migrations on an empty database instead of copying the migrated template. */
  migrate?: boolean;
  /** An empty database, not migrated: the test runs the migrations it wants. */
  empty?: boolean;
}

export interface DatabaseHarness {
  dialect: "sqlite" | "postgres";
  /** A new, migrated, empty database. Closed and removed after the suite. */
  fresh(options?: FreshOptions): Promise<Database>;
  /** The connection target of the last fresh() database, for tests that start a server on it. */
  lastUrl(): string;
}

const pgUrl = process.env.TEST_DATABASE_URL;

/** The run's migrated template of one engine, or "" outside a run that made one. */
function template(key: "sqliteTemplate" | "postgresTemplate"): string {
  try {
    return inject(key) ?? "";
  } catch {
    return "";
  }
}

/**
 * Puts a copy of the migrated SQLite template at `file` (a server's DATA_DIR/shop.db): the server's
 * start-up migrations check then finds nothing to apply. Without a template it leaves `file` alone
 * and the server migrates it itself.
 */
export function copySqliteTemplate(file: string): void {
  const source = template("sqliteTemplate");
  if (!source) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(source, file);
}

export function sqliteHarness(cleanups: (() => Promise<void>)[]): DatabaseHarness {
  let last = "";
  return {
    dialect: "sqlite",
    async fresh(options = {}) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
      last = path.join(dir, "shop.db");
      const source = options.migrate || options.empty ? "" : template("sqliteTemplate");
      if (source) fs.copyFileSync(source, last);
      const database = await openDatabase({ kind: "sqlite", file: last });
      if (!source && !options.empty) await migrateToLatest(database);
      cleanups.push(async () => {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      return database;
    },
    lastUrl: () => last,
  };
}

export function postgresHarness(adminUrl: string, cleanups: (() => Promise<void>)[]): DatabaseHarness {
  let last = "";
  return {
    dialect: "postgres",
    async fresh(options = {}) {
      const name = `shop_test_${newId(10)}`;
      const source = options.migrate || options.empty ? "" : template("postgresTemplate");
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(source ? `CREATE DATABASE ${name} TEMPLATE ${source}` : `CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      last = url.toString();
      const database = await openDatabase({ kind: "postgres", url: last }, { poolMax: 20 });
      if (!source && !options.empty) await migrateToLatest(database);
      cleanups.push(async () => {
        await database.close();
        const drop = new pg.Client({ connectionString: adminUrl });
        await drop.connect();
        try {
          // FORCE ends the test's own connections left open. It may not end PostgreSQL's own
          // (an autovacuum worker on the database, a superuser's process: "must be a member of
          // pg_signal_backend"), which finish by themselves: tried again a few times.
          for (let attempt = 1; ; attempt++) {
            try {
              await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
              break;
            } catch (error) {
              if (attempt >= 20 || !/pg_signal_backend/.test(String(error))) throw error;
              await new Promise((resolve) => setTimeout(resolve, 250));
            }
          }
        } finally {
          await drop.end();
        }
      });
      return database;
    },
    lastUrl: () => last,
  };
}

export function describeEachDatabase(title: string, suite: (harness: DatabaseHarness) => void): void {
  describe.each(["sqlite", "postgres"] as const)(`${title} [%s]`, (dialect) => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });
    if (dialect === "postgres") {
      // Without TEST_DATABASE_URL the PostgreSQL half is reported as skipped (never in CI: see ci-guard.ts).
      describe.skipIf(!pgUrl)("PostgreSQL", () => suite(postgresHarness(pgUrl ?? "", cleanups)));
    } else {
      suite(sqliteHarness(cleanups));
    }
  });
}

/**
 * Until `count` sessions of this database wait on a lock (PostgreSQL): what a test started beside
 * a transaction it holds open has reached that transaction's locks. On SQLite a writer waits for
 * the write lock inside this process, where nothing shows it: it is given a moment instead, and
 * the test must hold either way (there the writers simply take turns).
 */
export async function untilWaitingOnLocks(db: Db, count = 1): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return;
  }
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if ((rows[0]?.n ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} sessions ever waited on a lock`);
}

/** `db` counting the statements run through it (`count()`): for tests of how much a read costs. */
export function countingStatements(db: Db): { db: Db; count(): number } {
  let statements = 0;
  const counted = db.withPlugin({
    transformQuery: (args) => {
      statements++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { db: counted, count: () => statements };
}
