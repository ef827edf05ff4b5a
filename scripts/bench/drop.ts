// npm run bench:drop — drop day: N shoppers (BENCH_SHOPPERS, default 500) press 'Pagar' at once for
// a piece with M units (BENCH_UNITS, default 10), through the real HTTP endpoint on 127.0.0.1.
// Prints successes, refusals, oversold count and latency: on SQLite (one app server) and on
// PostgreSQL with two app servers (BENCH_DATABASE_URL or TEST_DATABASE_URL: a role that may
// create databases; skipped without it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type Database, migrateToLatest, openDatabase } from "~/db/database.server";
import { newId } from "~/lib/ids";
// The same one-piece running drop and the same server start-up the tests use.
import { runningPiece } from "../../tests/support/catalogue";
import { assertBuilt, type RunningServer, startServer } from "../../tests/support/server-process";

const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 500);
const UNITS = Number(process.env.BENCH_UNITS ?? 10);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

try {
  assertBuilt();
} catch {
  console.error("No build: run `npm run build` first (npm run bench:drop does).");
  process.exit(1);
}

const appServers: RunningServer[] = [];
process.on("exit", () => {
  for (const s of appServers) s.child.kill("SIGTERM");
});

/** Starts an app server without demo data; its errors still reach this terminal. */
async function startAppServer(env: Record<string, string>): Promise<string> {
  const server = await startServer({ DEMO_DATA: "false", ...env });
  server.child.stderr?.pipe(process.stderr);
  appServers.push(server);
  return server.url;
}

async function stopAppServers() {
  await Promise.all(appServers.splice(0).map((s) => s.stop()));
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function stampede(label: string, servers: string[], database: Database) {
  const piece = await runningPiece(database, { name: "Anillo del día", priceCents: 450_000, stock: UNITS });
  const { dropId, id: productId } = piece;
  const body = JSON.stringify({ cart: [{ product: { id: productId }, dropId, quantity: 1 }] });
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: SHOPPERS }, async (_, i) => {
      const t0 = performance.now();
      try {
        const res = await fetch(`${servers[i % servers.length]}/api/checkout`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        await res.arrayBuffer();
        return { status: res.status, ms: performance.now() - t0 };
      } catch {
        return { status: 0, ms: performance.now() - t0 };
      }
    }),
  );
  const wall = performance.now() - started;
  const ok = results.filter((r) => r.status === 200).length;
  const refused = results.filter((r) => r.status === 409).length;
  const other = results.length - ok - refused;
  const stock = (await piece.stock()) ?? Number.NaN;
  const holds = await database.db
    .selectFrom("order_lines")
    .select((eb) => eb.fn.sum<number>("quantity").as("n"))
    .where("product_id", "=", productId)
    .executeTakeFirst();
  const oversold = Math.max(0, Number(holds?.n ?? 0) - UNITS, -stock);
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  console.log(`\n${label}: ${SHOPPERS} shoppers, ${UNITS} units, ${servers.length} app server(s)`);
  console.log(
    `  successes ${ok}   refusals (409) ${refused}   other ${other}   oversold ${oversold}   stock left ${stock}`,
  );
  console.log(
    `  latency p50 ${percentile(ms, 50).toFixed(0)} ms   p99 ${percentile(ms, 99).toFixed(0)} ms   all done in ${wall.toFixed(0)} ms`,
  );
  return oversold === 0 && ok === UNITS && other === 0;
}

let allGood = true;

// SQLite: the embedded default, one app server.
{
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-drop-"));
  const file = path.join(dataDir, "shop.db");
  const database = await openDatabase({ kind: "sqlite", file });
  await migrateToLatest(database);
  const url = await startAppServer({ DATA_DIR: dataDir });
  allGood = (await stampede("SQLite", [url], database)) && allGood;
  await database.close();
  await stopAppServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// PostgreSQL: two app servers sharing one database.
if (!PG_URL) {
  console.log("\nPostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL).");
} else {
  const name = `bench_drop_${newId(8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() });
  await migrateToLatest(database);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-drop-pg-"));
  // SESSION_SECRET, which PostgreSQL requires, comes with the tests' environment.
  const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString(), DEMO_PAYMENTS: "true" };
  const urls = await Promise.all([startAppServer(env), startAppServer(env)]);
  allGood = (await stampede("PostgreSQL", urls, database)) && allGood;
  await database.close();
  await stopAppServers();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(allGood ? "\nNo piece was sold twice." : "\nSOMETHING WENT WRONG: see the figures above.");
process.exit(allGood ? 0 : 1);
