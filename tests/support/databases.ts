import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe } from "vitest";
import { type Database, migrateToLatest, openDatabase } from "~/db/database.server";
import { newId } from "~/lib/ids";

/**
 * Data-layer suites run once per database: `describeEachDatabase("…", (harness) => { … })`.
 * PostgreSQL comes from TEST_DATABASE_URL (a role that may CREATE DATABASE); each suite gets a
 * fresh database of its own. In CI PostgreSQL is mandatory: a missing URL fails instead of skipping.
 */
export interface DatabaseHarness {
  dialect: "sqlite" | "postgres";
  /** A new, migrated, empty database. Closed and removed after the suite. */
  fresh(): Promise<Database>;
  /** The connection target of the last fresh() database, for tests that start a server on it. */
  lastUrl(): string;
}

const pgUrl = process.env.TEST_DATABASE_URL;

export function sqliteHarness(cleanups: (() => Promise<void>)[]): DatabaseHarness {
  let last = "";
  return {
    dialect: "sqlite",
    async fresh() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
      last = path.join(dir, "shop.db");
      const database = await openDatabase({ kind: "sqlite", file: last });
      await migrateToLatest(database);
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
    async fresh() {
      const name = `shop_test_${newId(10)}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      last = url.toString();
      const database = await openDatabase({ kind: "postgres", url: last }, { poolMax: 20 });
      await migrateToLatest(database);
      cleanups.push(async () => {
        await database.close();
        const drop = new pg.Client({ connectionString: adminUrl });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
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
