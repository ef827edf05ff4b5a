// npm run bench:storefront — what the public pages cost.
//   1. JavaScript each page loads (the modules its HTML preloads or imports), gzip-compressed.
//   2. Requests per second and latency for the home, collection and product pages under load
//      from 127.0.0.1 (wrk, Debian's package), against a fresh shop with the demo catalogue.
// Budget: the product page loads at most 120 KB of JavaScript, gzip. Exits 1 when over budget.
// Settings: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 32).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
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
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const stop = () => {
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

const wrk = spawnSync("wrk", ["--version"], { encoding: "utf8" });
if (wrk.error) {
  console.log("\nwrk is not installed (apt-get install wrk): skipping the load figures.");
} else {
  console.log(`\nLoad from 127.0.0.1: wrk, ${CONNECTIONS} connections, ${SECONDS} s per page, 2 threads`);
  console.log("  (server and load generator share this machine's cores)");
  for (const name of ["home", "coleccion", "producto"]) {
    const run = spawnSync(
      "wrk",
      [
        "-t2",
        `-c${CONNECTIONS}`,
        `-d${SECONDS}s`,
        "--latency",
        "-H",
        "Accept-Encoding: gzip",
        origin + pages[name],
      ],
      { encoding: "utf8" },
    );
    const rps = run.stdout.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? "?";
    const p50 = run.stdout.match(/50%\s+([\d.]+\w+)/)?.[1] ?? "?";
    const p99 = run.stdout.match(/99%\s+([\d.]+\w+)/)?.[1] ?? "?";
    const errors = run.stdout.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? "0";
    console.log(
      `  ${name.padEnd(12)} ${String(rps).padStart(8)} req/s   p50 ${p50.padStart(8)}   p99 ${p99.padStart(8)}   non-2xx ${errors}`,
    );
  }
}

stop();
process.exit(overBudget ? 1 : 0);
