import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateToLatest, openDatabase } from "~/db/database.server";
import { newId } from "~/lib/ids";

/**
 * Vitest globalSetup: migrates one database per engine once per run. Every test database is a copy
 * of it (a file copy on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL: see databases.ts), so the
 * migrations run once instead of once per suite. The migrations' own tests still run them on empty
 * databases (`fresh({ migrate: true })`). No connection to the PostgreSQL template stays open: a
 * template with a session on it cannot be copied.
 */
declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated SQLite file to copy; "" when the run has none. */
    sqliteTemplate: string;
    /** The name of a migrated PostgreSQL database to copy; "" without TEST_DATABASE_URL. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-template-"));
  const file = path.join(dir, "shop.db");
  const sqlite = await openDatabase({ kind: "sqlite", file });
  await migrateToLatest(sqlite).finally(() => sqlite.close());
  fs.rmSync(`${file}-migrations.lock`, { force: true });
  project.provide("sqliteTemplate", file);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let postgresTemplate = "";
  if (adminUrl) {
    postgresTemplate = `shop_template_${newId(10).toLowerCase()}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${postgresTemplate}`);
    const url = new URL(adminUrl);
    url.pathname = `/${postgresTemplate}`;
    const database = await openDatabase({ kind: "postgres", url: url.toString() }, { poolMax: 1 });
    await migrateToLatest(database).finally(() => database.close());
  }
  project.provide("postgresTemplate", postgresTemplate);

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (adminUrl && postgresTemplate) {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`);
    }
  };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
