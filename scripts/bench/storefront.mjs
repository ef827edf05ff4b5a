// npm run bench:storefront — what the public pages cost.
//   1. JavaScript each page loads (the modules its HTML preloads or imports), gzip-compressed.
//   2. Requests per second and latency (p50, p99) of each public page under load from 127.0.0.1
//      (wrk, Debian's package), against a fresh shop with the demo catalogue, and the same for a
//      bare node:http server measured in the same run: each page's req/s as a share of bare.
// Budget: home and the product page each load at most 120 KB of JavaScript, gzip, and home never
// loads the reports' chart library (uPlot). Exits 1 when over budget.
// Targets (printed, not enforced): every page at least 30 % of bare's req/s with p99 under 50 ms.
// Run on SQLite with one app server (WEB_CONCURRENCY, default 1), then on PostgreSQL with two
// (WEB_CONCURRENCY=2, a fresh database; BENCH_DATABASE_URL or TEST_DATABASE_URL: a role that may
// create databases; skipped without it).
// Settings: BENCH_SECONDS (default 5 per page), BENCH_CONNECTIONS (default 50).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import pg from "pg";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WEB_CONCURRENCY = process.env.WEB_CONCURRENCY ?? "1";
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const TARGET_SHARE = 0.3;
const TARGET_P99_MS = 50;
const PRODUCT_JS_BUDGET_KB = 120;
const HOME_JS_BUDGET_KB = 120;

if (!fs.existsSync("build/server/index.js")) {
  console.error("No build: run `npm run build` first (npm run bench:storefront does).");
  process.exit(1);
}

// The yardstick: node:http answering a fixed small page, in a process of its own like the shop.
const BARE_PAGE = `<!doctype html><html lang="es-MX"><title>Oro de Luna</title>${"<p>Joyería artesanal.</p>".repeat(60)}</html>`;
const bare = spawn(
  process.execPath,
  [
    "-e",
    `const page = ${JSON.stringify(BARE_PAGE)};
require("node:http").createServer((req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(page);
}).listen(0, "127.0.0.1", function () { console.log("http://127.0.0.1:" + this.address().port); });`,
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const bareOrigin = await new Promise((resolve, reject) => {
  bare.stdout.once("data", (chunk) => resolve(String(chunk).trim()));
  bare.on("exit", () => reject(new Error("the bare node:http server exited")));
});
const cleanups = [() => bare.kill("SIGTERM")];
process.on("exit", () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A fresh shop with the demo catalogue; resolves once it listens. */
async function startShop(env) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-storefront-"));
  const server = spawn(process.execPath, ["server.js"], {
    env: {
      PATH: process.env.PATH,
      ENV_FILE: "",
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dataDir,
      LOG_REQUESTS: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = () => {
    server.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  cleanups.push(stop);
  const origin = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const match = out.match(/Tienda lista en (http:\/\/[^\s"]+)/);
      if (match) resolve(match[1]);
    });
    server.on("exit", () => reject(new Error(`server exited:\n${out}`)));
  });
  return { origin, stop };
}

async function html(origin, pathname) {
  const res = await fetch(origin + pathname);
  if (!res.ok) throw new Error(`${pathname}: ${res.status}`);
  return res.text();
}

/** Real pages from the demo: the running drop's collection and its first product. */
async function pagesOf(origin) {
  const home = await html(origin, "/");
  const collection = home.match(/href="(\/coleccion\/[^"]+)"/)?.[1];
  const product = (await html(origin, collection)).match(/href="(\/drop\/[^"]+\/product\/[^"]+)"/)?.[1];
  return {
    home: "/",
    colecciones: "/colecciones",
    coleccion: collection,
    producto: product,
    nosotros: "/nosotros",
  };
}

const sqlite = await startShop({ WEB_CONCURRENCY });
const origin = sqlite.origin;
const pages = await pagesOf(origin);

const assetCache = new Map();
async function gzipSizeOf(src) {
  if (!assetCache.has(src)) {
    const body = Buffer.from(await (await fetch(origin + src)).arrayBuffer());
    assetCache.set(src, gzipSync(body, { level: 9 }).length);
  }
  return assetCache.get(src);
}

console.log(`\nJavaScript per page (gzip) — ${origin}`);
const js = {};
const files = {};
for (const [name, pathname] of Object.entries(pages)) {
  const page = await html(origin, pathname);
  const scripts = new Set([
    ...[...page.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]),
    ...[...page.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1]),
    ...[...page.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]),
  ]);
  let total = 0;
  for (const src of scripts) total += await gzipSizeOf(src);
  js[name] = total / 1024;
  files[name] = [...scripts];
  console.log(
    `  ${name.padEnd(12)} ${js[name].toFixed(1).padStart(6)} KB in ${scripts.size} files   ${pathname}`,
  );
}
// The chart library is the reports' alone: a module of home naming it would fetch it there.
let homeCharts = false;
for (const src of files.home) {
  const body = await (await fetch(origin + src)).text();
  if (/uplot/i.test(src) || /uPlot/.test(body)) homeCharts = true;
}
const productOver = js.producto > PRODUCT_JS_BUDGET_KB;
const homeOver = js.home > HOME_JS_BUDGET_KB || homeCharts;
const overBudget = productOver || homeOver;
console.log(
  `  product page budget ${PRODUCT_JS_BUDGET_KB} KB: ${productOver ? "OVER BUDGET" : "within budget"}`,
);
console.log(
  `  home JavaScript: ${js.home.toFixed(1)} KB gzip (budget ${HOME_JS_BUDGET_KB} KB): ${
    homeOver ? (homeCharts ? "OVER BUDGET (loads uPlot)" : "OVER BUDGET") : "within budget"
  }`,
);

/** wrk's latency ("850.00us", "12.34ms", "1.02s") in milliseconds. */
function toMs(text) {
  const match = text?.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!match) return Number.NaN;
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2]];
  return Number(match[1]) * scale;
}

function load(url) {
  const run = spawnSync(
    "wrk",
    ["-t2", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency", "-H", "Accept-Encoding: gzip", url],
    { encoding: "utf8", timeout: (SECONDS + 30) * 1000 },
  );
  return {
    rps: Number(run.stdout?.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? Number.NaN),
    p50: toMs(run.stdout?.match(/50%\s+([\d.]+\w+)/)?.[1]),
    p99: toMs(run.stdout?.match(/99%\s+([\d.]+\w+)/)?.[1]),
    errors: Number(run.stdout?.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    socketErrors: run.stdout?.match(/Socket errors: ([^\n]+)/)?.[1],
  };
}

const ms = (n) => `${n.toFixed(1)} ms`.padStart(10);

const wrk = spawnSync("wrk", ["--version"], { encoding: "utf8" });

/** Each page of `shop` under load, with bare node:http measured just before as the yardstick. */
function measure(label, shopOrigin, shopPages) {
  const [load1, load5] = os.loadavg();
  console.log(`\n${label}: wrk, ${CONNECTIONS} connections, ${SECONDS} s per page, 2 threads`);
  console.log(
    `  (server and load generator share this machine's ${os.availableParallelism()} cores; load average ${load1.toFixed(2)}, ${load5.toFixed(2)} before the runs)`,
  );
  const base = load(bareOrigin);
  console.log(
    `  ${"bare node:http".padEnd(16)} ${base.rps.toFixed(0).padStart(7)} req/s   p50 ${ms(base.p50)}   p99 ${ms(base.p99)}`,
  );
  let allMet = true;
  for (const [name, pathname] of Object.entries(shopPages)) {
    const page = load(shopOrigin + pathname);
    const share = page.rps / base.rps;
    const met = share >= TARGET_SHARE && page.p99 < TARGET_P99_MS && !page.errors && !page.socketErrors;
    allMet &&= met;
    const problems = `${page.errors ? `   non-2xx ${page.errors}` : ""}${page.socketErrors ? `   socket errors ${page.socketErrors}` : ""}`;
    console.log(
      `  ${name.padEnd(16)} ${page.rps.toFixed(0).padStart(7)} req/s   p50 ${ms(page.p50)}   p99 ${ms(page.p99)}   ${(share * 100).toFixed(1).padStart(5)} % of bare${met ? "" : "  (below target)"}${problems}`,
    );
  }
  console.log(
    `  target: every page ≥ ${TARGET_SHARE * 100} % of bare with p99 < ${TARGET_P99_MS} ms, no errors: ${allMet ? "met" : "NOT met"}; load average now ${os.loadavg()[0].toFixed(2)}`,
  );
}

if (wrk.error) {
  console.log("\nwrk is not installed (apt-get install wrk): skipping the load figures.");
} else {
  measure(`SQLite, WEB_CONCURRENCY=${WEB_CONCURRENCY}`, origin, pages);
  sqlite.stop();
  if (!PG_URL) {
    console.log("\nPostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL).");
  } else {
    // A database of its own, dropped at the end.
    const name = `bench_storefront_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    try {
      const shop = await startShop({
        WEB_CONCURRENCY: "2",
        DATABASE_URL: url.toString(),
        DEMO_DATA: "true",
        DEMO_PAYMENTS: "true",
        SESSION_SECRET: "bench-session-secret-0123456789abcdef",
      });
      measure("PostgreSQL, WEB_CONCURRENCY=2", shop.origin, await pagesOf(shop.origin));
      shop.stop();
      // Its workers close their connections as they stop.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
}

process.exit(overBudget ? 1 : 0);
