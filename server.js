// Starts the shop: `node server.js` serves the production build, `node server.js --dev` runs
// Vite in middleware mode for development. Everything else lives in server/app.ts.
// WEB_CONCURRENCY=N (or `auto`: one per core) runs N copies of the shop with node:cluster
// (docs/decisions/0013-every-core.md): this file is then the primary, which only forks, watches
// and stops them, and each worker runs the rest of this file as a single server would.
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

// Settings come from the environment, or from a .env file beside this one (ENV_FILE= to skip it).
const envFile = process.env.ENV_FILE ?? ".env";
if (envFile && existsSync(envFile)) process.loadEnvFile(envFile);

const development = process.argv.includes("--dev");
process.env.NODE_ENV ??= development ? "development" : "production";

const SHUTDOWN_GRACE_MS = 10_000;
// The exchange of the shop's counters between a worker and the primary (runPrimary).
const METRICS_ASK = "tienda-metricas:pedir";
const METRICS_ANSWER = "tienda-metricas:respuesta";
const METRICS_COLLECT = "tienda-metricas:reunir";
const METRICS_LOCAL = "tienda-metricas:locales";
const METRICS_COLLECT_MS = 1_000;

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** WEB_CONCURRENCY: how many processes serve the shop (unset: 1; `auto`: one per core). */
function webConcurrency(value) {
  const text = (value ?? "").trim().toLowerCase();
  if (text === "") return 1;
  if (text === "auto") return availableParallelism();
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1 || count > 64) {
    fail(
      "Configuración inválida:\n  WEB_CONCURRENCY: debe ser un número entero de 1 a 64, o `auto` (uno por núcleo)",
    );
  }
  return count;
}

const processes = development ? 1 : webConcurrency(process.env.WEB_CONCURRENCY);
if (cluster.isPrimary && processes > 1) {
  // Each worker accepts its connections itself from the shared socket, rather than the primary
  // accepting every one and passing it on (node:cluster's default on Linux): that hand-over cost
  // the shop about as much CPU as answering a drop-day checkout refusal (bench:drop). A busy
  // worker does not accept, so under load the other takes the connections; when idle one worker
  // may answer most requests, which costs nothing. NODE_CLUSTER_SCHED_POLICY=rr restores the turn.
  if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
  await runPrimary(processes);
} else {
  await runShop();
}

/** One server: builds the shop and listens (alone, or as one worker of the cluster). */
async function runShop() {
  // In a cluster: which worker this is (1…N; a replacement keeps the number of the one it replaces).
  const worker = cluster.isWorker ? process.env.SHOP_WORKER : undefined;
  // A stop asked for while starting (e.g. during the first seed) ends at once: start-up writes
  // nothing half-done, so there is nothing to finish.
  let server;
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => (server ? shutdown(signal) : process.exit(0)));
  }

  async function loadShopModule() {
    if (!development) {
      try {
        return { shopModule: await import("./build/server/index.js"), vite: undefined };
      } catch (error) {
        if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("build/server")) {
          fail("No hay compilación: ejecuta `npm run build` (o `npm start`, que compila y arranca).");
        }
        throw error;
      }
    }
    const { createServer } = await import("vite");
    const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
    return { shopModule: await vite.ssrLoadModule("./server/app.ts"), vite };
  }

  const { shopModule, vite } = await loadShopModule();
  // The shop's JSON log (app/config/log.server.ts); only fail() above writes plain lines.
  const { log } = shopModule;
  let shop;
  try {
    shop = await shopModule.createShop({
      clientDir: development ? undefined : fileURLToPath(new URL("./build/client", import.meta.url)),
      // Busy pages are rendered on a thread that loads this same build (server/page-renderer.ts).
      renderWorkerEntry: development ? undefined : new URL("./build/server/index.js", import.meta.url).href,
    });
  } catch (error) {
    // Start-up problems (bad setting, unreachable database, unwritable folder) are the operator's
    // to fix: one clear line, no stack trace.
    if (error?.name === "StartupError") fail(error.message);
    throw error;
  }

  const express = (await import("express")).default;
  const root = express();
  root.disable("x-powered-by");
  // While stopping, every response tells its client to reconnect elsewhere, so keep-alive
  // connections (a load balancer's) end with their current request. Decided when the response is
  // written, not when the request arrived: a request may be in progress when the signal comes.
  root.use((_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (...args) {
      if (stopping && !this.headersSent) this.setHeader("Connection", "close");
      // Which worker answered: how an operator (and tests/server/cluster.test.ts) sees that every
      // process serves. A number from 1 to WEB_CONCURRENCY, nothing about the machine.
      if (worker && !this.headersSent) this.setHeader("X-Shop-Worker", worker);
      return writeHead.apply(this, args);
    };
    next();
  });
  if (vite) root.use(vite.middlewares);
  root.use(shop.app);

  await shop.warmUp();

  const { host, port } = shop.config;
  // Every request goes in through shop.serve: it gives the request its id, and answers page-cache
  // hits before Express, with the same two headers the wrapper above adds to every other answer.
  const workerHeaders = worker ? ["X-Shop-Worker", worker] : [];
  const closingHeaders = ["Connection", "close", ...workerHeaders];
  // A request without a Host header is answered by the shop itself (a Spanish 400), not by Node.
  server = createServer({ requireHostHeader: false }, (req, res) => {
    shop.serve(req, res, stopping ? closingHeaders : workerHeaders, () => root(req, res));
  });
  shopModule.answerParserErrors(server);
  // Every open connection and when it came, for the stop (see shutdown).
  const openSockets = new Map();
  server.on("connection", (socket) => {
    openSockets.set(socket, Date.now());
    socket.once("close", () => openSockets.delete(socket));
  });
  server.listen(port, host, () => {
    const address = server.address();
    const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
    // A worker tells the primary, which says it once for the whole cluster.
    if (worker && process.connected)
      process.send({ type: "listening", url: `http://${shown}:${address.port}` });
    else log.info(`Tienda lista en http://${shown}:${address.port}`);
  });
  server.on("error", (error) => {
    if (error.code === "EADDRINUSE") fail(`El puerto ${port} ya está en uso. Usa otro con PORT=…`);
    if (error.code === "EACCES") fail(`Sin permiso para escuchar en el puerto ${port}. Usa otro con PORT=…`);
    throw error;
  });
  // Keep-alive connections from a load balancer must outlive its idle timeout.
  server.keepAliveTimeout = 65_000;
  // A worker whose primary is gone (killed with SIGKILL) gets no more connections: it finishes
  // what it has and stops instead of holding the database forever.
  if (worker) process.on("disconnect", () => shutdown("Sin proceso principal"));

  function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: cerrando; se terminan las peticiones en curso…`);
    const force = setTimeout(() => {
      log.error("Cierre forzado: aún había peticiones después de 10 s.");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      clearInterval(sweep);
      // Said, so a stop that runs out of time tells which part held it (connections, or the shop).
      log.info("Peticiones terminadas: cerrando la tienda…");
      await shop.close().catch((error) => log.error({ err: error }, "Error al cerrar la tienda"));
      await vite?.close();
      process.exit(0);
    });
    // Connections that finish their request become idle: close them as they do. One that never
    // sent a byte (a balancer's spare, a client that connected and left it open) carries no
    // request and is not "idle" to Node: it held the stop for its whole grace and the exit was 1.
    // Closed too once it has been silent a second (a request may be on its way in that instant).
    const closeUnused = () => {
      server.closeIdleConnections();
      const now = Date.now();
      for (const [socket, since] of openSockets)
        if (socket.bytesRead === 0 && now - since > 1_000) socket.destroy();
    };
    closeUnused();
    const sweep = setInterval(closeUnused, 200);
  }
}

/**
 * The primary of a cluster: forks `count` workers, each of which builds the shop and listens on
 * the shared port (each accepts connections itself: see above). Worker 1 starts alone — it runs
 * the migrations and, on a first start, draws and loads the demo catalogue — and the others start
 * once it listens, on a database that is ready. A worker that dies is replaced; SIGTERM/SIGINT
 * stop every worker gracefully and the primary exits 0 when all of them did.
 */
async function runPrimary(count) {
  // JSON lines like the workers' (app/config/log.server.ts, which lives in the build the primary
  // never loads). A LOG_LEVEL the workers refuse stops them with its message; here it is ignored.
  const { pino } = await import("pino");
  const level = process.env.LOG_LEVEL ?? "";
  const log = pino({
    level: ["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(level) ? level : "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
  const SHUTDOWN_ALL_MS = SHUTDOWN_GRACE_MS + 5_000;
  const workers = new Map(); // worker number -> its cluster.Worker
  const listening = new Set(); // numbers of the workers that said they listen
  const restarts = new Map(); // worker number -> { delayMs, startedAt } of its latest fork
  let started = false; // every worker of the first start listens
  let stopping = false;
  let exitCode = 0;
  let url;

  function fork(number) {
    const child = cluster.fork({ SHOP_WORKER: String(number) });
    workers.set(number, child);
    restarts.set(number, { ...(restarts.get(number) ?? { delayMs: 0 }), startedAt: Date.now() });
    child.on("message", (message) => {
      if (message?.type === METRICS_ASK) {
        void answerMetrics(child, message.id);
        return;
      }
      if (message?.type !== "listening") return;
      url ??= message.url;
      listening.add(number);
      if (stopping) return;
      if (started) {
        log.info(`Proceso ${number} de nuevo en servicio (pid ${child.process.pid}).`);
        return;
      }
      log.info(`Proceso ${number} de ${count} listo (pid ${child.process.pid}).`);
      if (number === 1) for (let n = 2; n <= count; n++) fork(n);
      if (listening.size === count) {
        started = true;
        log.info(`Tienda lista en ${url} (${count} procesos)`);
      }
    });
    child.on("exit", (code, signal) => {
      if (workers.get(number) === child) {
        workers.delete(number);
        listening.delete(number);
      }
      if (stopping) {
        if (code !== 0) exitCode = 1;
        if (workers.size === 0) process.exit(exitCode);
        return;
      }
      if (!started) {
        // A worker that cannot start (a bad setting, an unreachable database, a busy port) has
        // printed why; the others would fail the same way.
        stopAll("SIGTERM", code === 0 ? 1 : (code ?? 1));
        return;
      }
      // Replaced at once, unless its previous replacement died young: then after a growing pause,
      // so a shop whose database is down does not spin.
      const last = restarts.get(number);
      const young = Date.now() - last.startedAt < 10_000;
      const delayMs = young ? Math.min(30_000, Math.max(1_000, last.delayMs * 2)) : 0;
      restarts.set(number, { ...last, delayMs });
      log.error(
        `El proceso ${number} terminó (${signal ?? `código ${code}`}); se inicia otro${delayMs ? ` en ${delayMs / 1000} s` : ""}.`,
      );
      setTimeout(() => stopping || fork(number), delayMs);
    });
  }

  function stopAll(signal, code = 0) {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (workers.size === 0) process.exit(exitCode);
    // Each worker runs the single server's graceful stop; this only waits for them.
    for (const child of workers.values()) child.process.kill(signal);
    setTimeout(() => {
      log.error("Cierre forzado: algún proceso no terminó a tiempo.");
      for (const child of workers.values()) child.process.kill("SIGKILL");
      process.exit(1);
    }, SHUTDOWN_ALL_MS).unref();
  }

  /*
   * The shop's counters (app/observability/metrics.server.ts, decision 28) are kept by each worker.
   * A worker asked for them (/metrics, the live opening page) asks here; this gathers every
   * worker's own numbers, adds them up with prom-client's AggregatorRegistry and answers the sum.
   * A worker that does not answer within a second (being replaced) is left out of that sum.
   */
  let collecting = 0;
  const collections = new Map(); // collection id -> { numbers: [], waiting, done }
  async function answerMetrics(asker, id) {
    const answer = (message) => {
      if (asker.isConnected()) asker.send({ type: METRICS_ANSWER, id, ...message }, () => {});
    };
    try {
      const { AggregatorRegistry } = await import("prom-client");
      const collection = ++collecting;
      const numbers = await new Promise((resolve) => {
        const entry = { numbers: [], waiting: 0, done: () => resolve(entry.numbers) };
        collections.set(collection, entry);
        for (const child of workers.values()) {
          if (!child.isConnected()) continue;
          // A worker that cannot be told (it is going away) just does not answer.
          child.send({ type: METRICS_COLLECT, id: collection }, () => {});
          entry.waiting++;
        }
        if (entry.waiting === 0) entry.done();
        setTimeout(entry.done, METRICS_COLLECT_MS).unref();
      });
      collections.delete(collection);
      answer({ metrics: await AggregatorRegistry.aggregate(numbers).getMetricsAsJSON() });
    } catch (error) {
      answer({ error: String(error?.message ?? error) });
    }
  }
  cluster.on("message", (_child, message) => {
    if (message?.type !== METRICS_LOCAL) return;
    const entry = collections.get(message.id);
    if (!entry) return;
    if (Array.isArray(message.metrics)) entry.numbers.push(message.metrics);
    if (--entry.waiting === 0) entry.done();
  });

  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => stopAll("SIGTERM"));
  fork(1);
}
