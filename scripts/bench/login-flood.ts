// npm run bench:login — what a password-guessing flood does to the shoppers' pages. Starts the built
// shop (SQLite, the demo's running drop, TRUST_PROXY on) on 127.0.0.1 and times GET / (a page,
// gzip) and one product image, each on its own connection and asked for again as soon as it
// arrives: first with nothing else going on, then while BENCH_ATTACKERS (default 100) client
// addresses (each its own X-Forwarded-For) post wrong passwords for made-up e-mails to /login, the
// form as a browser without JavaScript sends it. Each address tries once every
// BENCH_ATTEMPT_INTERVAL_MS (default 1000: 100 guesses a second in all), or as soon as its last
// answer came if that took longer; 0 makes every address send its next guess at once (a flood that
// measures the HTTP server itself rather than the password hashing). Prints p50/p99 of both phases,
// their ratio, and the answers /login gave. Target: p99 under the flood within 2x of idle. Exits 0
// when the target is missed (figures, not a test); exits 1 when something fails (a 5xx, a server
// that does not start, a run longer than 60 s). BENCH_SECONDS (default 8) per phase.
import events from "node:events";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createDrop } from "~/catalogue/catalogue.server";
import { migrateToLatest, openDatabase } from "~/db/database.server";
import { DEMO_DROPS } from "~/demo/catalogue";
import { dropCoverSvg, jewelSvg } from "~/demo/jewel-art";
import { newId } from "~/lib/ids";
import { createLocalStorage } from "~/media/local-storage.server";
import { storeImage } from "~/media/media.server";
import { assertBuilt, type RunningServer, startServer } from "../../tests/support/server-process";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 100);
/** Each address tries again this long after its last try began (or at once, if answered later). */
const INTERVAL_MS = Number(process.env.BENCH_ATTEMPT_INTERVAL_MS ?? 1000);
const TARGET_RATIO = 2;
const DEADLINE_MS = 60_000;
/** How long past the end of a phase its last requests may take before they are given up. */
const GRACE_MS = 4_000;

try {
  assertBuilt();
} catch {
  console.error("No build: run `npm run build` first (npm run bench:login does).");
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-login-"));
let server: RunningServer | undefined;
process.on("exit", () => {
  server?.child.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
});
setTimeout(() => {
  console.error(`The benchmark took more than ${DEADLINE_MS / 1000} s: stopped.`);
  process.exit(1);
}, DEADLINE_MS).unref();

/** A failure of the benchmark itself (as opposed to a missed target): exit 1. */
class BenchError extends Error {}

interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** One HTTP request to the shop, timed until the last byte of the body. */
function request(
  agent: http.Agent,
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { agent, method: options.method ?? "GET", headers: options.headers, signal: options.signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("latin1"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Figures {
  p50: number;
  p99: number;
  count: number;
}

function figures(ms: number[]): Figures {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), count: sorted.length };
}

/**
 * A shopper's browser: the page on one connection and the image on another, each asked for again
 * as soon as it arrives, for `seconds`. A request still unanswered GRACE_MS after that is given
 * up and counted with the time it had waited.
 */
async function probe(origin: string, imagePath: string, seconds: number) {
  const end = performance.now() + seconds * 1000;
  const signal = AbortSignal.timeout(seconds * 1000 + GRACE_MS);
  let unanswered = 0;
  async function times(pathname: string): Promise<number[]> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(pathname, origin);
    const ms: number[] = [];
    while (performance.now() < end) {
      const sent = performance.now();
      try {
        const answer = await request(agent, url, { headers: { "accept-encoding": "gzip" }, signal });
        if (answer.status !== 200) throw new BenchError(`GET ${pathname}: ${answer.status}`);
        ms.push(answer.ms);
      } catch (error) {
        if (!signal.aborted) throw error;
        ms.push(performance.now() - sent);
        unanswered++;
        break;
      }
    }
    agent.destroy();
    return ms;
  }
  const [page, image] = await Promise.all([times("/"), times(imagePath)]);
  return { page: figures(page), image: figures(image), unanswered };
}

/** ATTACKERS addresses posting wrong passwords to /login, each at most once per INTERVAL_MS. */
function flood(origin: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: ATTACKERS });
  const statuses = new Map<number, number>();
  const stopped = new AbortController();
  events.setMaxListeners(ATTACKERS + 10, stopped.signal);
  const started = performance.now();
  let running = true;
  let sent = 0;
  let unanswered = 0;
  let failed = 0;
  const loops = Array.from({ length: ATTACKERS }, async (_, i) => {
    // 198.18.0.0/15 is set aside for benchmarks (RFC 2544): no real client has these addresses.
    const address = `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    // Spread over the first interval, as a crowd of separate machines would be.
    await new Promise((resolve) => setTimeout(resolve, (i / ATTACKERS) * INTERVAL_MS));
    while (running) {
      const next = performance.now() + INTERVAL_MS;
      sent++;
      const body = new URLSearchParams({
        email: `intruso-${i}-${sent}@example.com`,
        password: `adivinanza-${sent}`,
      }).toString();
      const answer = await request(agent, new URL("/login", origin), {
        signal: stopped.signal,
        method: "POST",
        headers: {
          origin,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(Buffer.byteLength(body)),
          "x-forwarded-for": address,
        },
        body,
      }).catch(() => {
        // Given up when the flood stopped, or the connection failed (counted; a server that went
        // away shows in the shopper's requests too).
        if (!stopped.signal.aborted) failed++;
        return null;
      });
      if (answer) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      else if (stopped.signal.aborted) unanswered++;
      const wait = next - performance.now();
      if (running && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  });
  return {
    /** Stops the attackers; what is still unanswered after a moment is given up. */
    async stop() {
      running = false;
      setTimeout(() => stopped.abort(), 1_000);
      const seconds = (performance.now() - started) / 1000;
      await Promise.all(loops);
      agent.destroy();
      return { statuses, sent, unanswered, failed, seconds };
    },
  };
}

/**
 * The demo's running drop with one picture per piece (the whole demo catalogue takes longer to draw
 * than this benchmark may run), written where the shop started on DATA_DIR will find it.
 */
async function seedRunningDrop() {
  const database = await openDatabase({ kind: "sqlite", file: path.join(dataDir, "shop.db") });
  try {
    await migrateToLatest(database);
    const storage = createLocalStorage(path.join(dataDir, "media"));
    const demo = DEMO_DROPS.find((drop) => drop.role === "running");
    if (!demo) throw new BenchError("the demo catalogue has no running drop");
    const id = newId();
    const draw = (svg: string) => storeImage(storage, { dropId: id, body: Buffer.from(svg) });
    const [cover, ...pictures] = await Promise.all([
      draw(dropCoverSvg(demo.cover, 1600, 900)),
      ...demo.products.map((p) =>
        draw(
          jewelSvg(
            { categoria: p.categoria, material: p.material, variant: p.artVariant, view: 0 },
            960,
            960,
          ),
        ),
      ),
    ]);
    if (!cover) throw new BenchError("no cover");
    await database.db
      .insertInto("media")
      .values([cover, ...pictures])
      .execute();
    const now = Date.now();
    await createDrop(database.db, {
      id,
      name: demo.name,
      smallDescription: demo.smallDescription,
      fullDescription: demo.fullDescription,
      description: demo.description,
      status: demo.status,
      startAt: new Date(now + demo.startOffsetHours * 3_600_000),
      endAt: new Date(now + demo.endOffsetHours * 3_600_000),
      imageId: cover.id,
      products: demo.products.map((p, i) => ({
        name: p.name,
        description: p.description,
        categoria: p.categoria,
        material: p.material,
        priceCents: p.priceCents,
        stock: p.stock,
        imageId: pictures[i]?.id ?? null,
      })),
    });
  } finally {
    await database.close();
  }
}

const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;

try {
  console.log(
    `${os.availableParallelism()} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the start; starting the shop…`,
  );
  const started = performance.now();
  await seedRunningDrop();
  server = await startServer(
    // The shop's own hashing: what a flood of real hashes does to the pages is what is measured.
    {
      DATA_DIR: dataDir,
      DEMO_DATA: "false",
      TRUST_PROXY: "true",
      SESSION_SECRET: "",
      QUICK_PASSWORD_HASHES: "false",
    },
    30_000,
  );
  const origin = server.url;
  console.log(`shop ready in ${((performance.now() - started) / 1000).toFixed(1)} s at ${origin}`);

  const home = await request(new http.Agent(), new URL("/", origin));
  const imagePath = home.body.match(/\/media\/drops\/[^"'\s,]+\.webp/)?.[0];
  if (home.status !== 200 || !imagePath) throw new BenchError("the home page shows no product image");

  // Warm-up: the first renders and file reads are not what is measured (nor the login page's).
  await request(new http.Agent(), new URL("/login", origin));
  await probe(origin, imagePath, 1);
  const idle = await probe(origin, imagePath, SECONDS);
  const attack = flood(origin);
  // The flood gets a moment to reach its pace before the shopper's requests are timed.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const flooded = await probe(origin, imagePath, SECONDS);
  const { statuses, sent, unanswered, failed, seconds } = await attack.stop();

  console.log(`\nA shopper's requests (${SECONDS} s per phase), image ${imagePath}`);
  console.log("                 idle p50     idle p99    flood p50    flood p99   p99 ratio");
  let within = true;
  for (const name of ["page", "image"] as const) {
    const ratio = flooded[name].p99 / idle[name].p99;
    within &&= ratio <= TARGET_RATIO;
    console.log(
      `  ${(name === "page" ? "GET /" : "image").padEnd(8)} ${ms(idle[name].p50)}   ${ms(idle[name].p99)}   ${ms(flooded[name].p50)}   ${ms(flooded[name].p99)}   ${ratio.toFixed(2).padStart(6)}x   (${idle[name].count} / ${flooded[name].count} requests)`,
    );
  }
  if (flooded.unanswered > 0)
    console.log(
      `  (${flooded.unanswered} still unanswered ${GRACE_MS / 1000} s after the phase ended: counted as that long)`,
    );
  const answers = [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`);
  if (unanswered > 0) answers.push(`unanswered when the flood stopped: ${unanswered}`);
  if (failed > 0) answers.push(`connection failed: ${failed}`);
  console.log(
    `\n/login under the flood: ${ATTACKERS} addresses, one try each every ${INTERVAL_MS} ms at most; ${sent} tries in ${seconds.toFixed(1)} s (${(sent / seconds).toFixed(0)}/s) — ${answers.join(", ")}`,
  );
  console.log(`target: p99 under the flood within ${TARGET_RATIO}x of idle — ${within ? "PASS" : "MISSED"}`);
  const serverErrors = [...statuses.keys()].filter((status) => status >= 500);
  if (serverErrors.length > 0) throw new BenchError(`/login answered ${serverErrors.join(", ")}`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof BenchError ? error.message : error);
  if (server) console.error(server.output().split("\n").slice(-20).join("\n"));
  process.exit(1);
}
