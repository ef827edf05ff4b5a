// npm run bench:storefront — what the public pages cost.
//   1. JavaScript each page loads (the modules its HTML preloads or imports), gzip-compressed.
//   2. Requests per second and latency (p50, p99) of each public page under load from 127.0.0.1
//      (wrk, Debian's package), against a fresh shop with the demo catalogue, and the same for a
//      bare node:http server measured in the same run: each page's req/s as a share of bare.
// Budget: the product page loads at most 120 KB of JavaScript, gzip. Exits 1 when over budget.
// Targets (printed, not enforced): every page at least 30 % of bare's req/s with p99 under 50 ms.
// Settings: BENCH_SECONDS (default 5 per page), BENCH_CONNECTIONS (default 50), WEB_CONCURRENCY
// (default 1: the shop's own setting, for its processes).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WEB_CONCURRENCY = process.env.WEB_CONCURRENCY ?? "1";
const TARGET_SHARE = 0.3;
const TARGET_P99_MS = 50;
const PRODUCT_JS_BUDGET_KB = 120;

if (!fs.existsSync("build/server/index.js")) {
  console.error("No build: run `npm run build` first (npm run bench:storefront does).");
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-storefront-"));
const server = spawn(process.execPath, ["server.js"], {
  env: {
    PATH: process.env.PATH,
    ENV_FILE: "",
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: dataDir,
    LOG_REQUESTS: "false",
    WEB_CONCURRENCY,
  },
  stdio: ["ignore", "pipe", "inherit"],
});
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
const stop = () => {
  bare.kill("SIGTERM");
  server.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.on("exit", stop);

const origin = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (chunk) => {
    out += chunk;
    const match = out.match(/Tienda lista en (http:\/\/\S+)/);
    if (match) resolve(match[1]);
  });
  server.on("exit", () => reject(new Error(`server exited:\n${out}`)));
});

async function html(pathname) {
  const res = await fetch(origin + pathname);
  if (!res.ok) throw new Error(`${pathname}: ${res.status}`);
  return res.text();
}

// Pick real pages from the demo: the running drop's collection and its first product.
const home = await html("/");
const collection = home.match(/href="(\/coleccion\/[^"]+)"/)?.[1];
const product = (await html(collection)).match(/href="(\/drop\/[^"]+\/product\/[^"]+)"/)?.[1];
const pages = {
  home: "/",
  colecciones: "/colecciones",
  coleccion: collection,
  producto: product,
  nosotros: "/nosotros",
};

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
for (const [name, pathname] of Object.entries(pages)) {
  const page = await html(pathname);
  const scripts = new Set([
    ...[...page.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]),
    ...[...page.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1]),
    ...[...page.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]),
  ]);
  let total = 0;
  for (const src of scripts) total += await gzipSizeOf(src);
  js[name] = total / 1024;
  console.log(
    `  ${name.padEnd(12)} ${js[name].toFixed(1).padStart(6)} KB in ${scripts.size} files   ${pathname}`,
  );
}
const overBudget = js.producto > PRODUCT_JS_BUDGET_KB;
console.log(
  `  product page budget ${PRODUCT_JS_BUDGET_KB} KB: ${overBudget ? "OVER BUDGET" : "within budget"}`,
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
if (wrk.error) {
  console.log("\nwrk is not installed (apt-get install wrk): skipping the load figures.");
} else {
  const bareOrigin = await new Promise((resolve, reject) => {
    bare.stdout.once("data", (chunk) => resolve(String(chunk).trim()));
    bare.on("exit", () => reject(new Error("the bare node:http server exited")));
  });
  const [load1, load5] = os.loadavg();
  console.log(
    `\nLoad from 127.0.0.1: wrk, ${CONNECTIONS} connections, ${SECONDS} s per page, 2 threads; shop WEB_CONCURRENCY=${WEB_CONCURRENCY}`,
  );
  console.log(
    `  (server and load generator share this machine's ${os.availableParallelism()} cores; load average ${load1.toFixed(2)}, ${load5.toFixed(2)} before the runs)`,
  );
  const base = load(bareOrigin);
  console.log(
    `  ${"bare node:http".padEnd(16)} ${base.rps.toFixed(0).padStart(7)} req/s   p50 ${ms(base.p50)}   p99 ${ms(base.p99)}`,
  );
  let allMet = true;
  for (const [name, pathname] of Object.entries(pages)) {
    const page = load(origin + pathname);
    const share = page.rps / base.rps;
    const met = share >= TARGET_SHARE && page.p99 < TARGET_P99_MS;
    allMet &&= met;
    const problems = `${page.errors ? `   non-2xx ${page.errors}` : ""}${page.socketErrors ? `   socket errors ${page.socketErrors}` : ""}`;
    console.log(
      `  ${name.padEnd(16)} ${page.rps.toFixed(0).padStart(7)} req/s   p50 ${ms(page.p50)}   p99 ${ms(page.p99)}   ${(share * 100).toFixed(1).padStart(5)} % of bare${met ? "" : "  (below target)"}${problems}`,
    );
  }
  console.log(
    `  target: every page ≥ ${TARGET_SHARE * 100} % of bare with p99 < ${TARGET_P99_MS} ms: ${allMet ? "met" : "NOT met"}; load average now ${os.loadavg()[0].toFixed(2)}`,
  );
}

stop();
process.exit(overBudget ? 1 : 0);
