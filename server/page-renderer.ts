import { Worker } from "node:worker_threads";
import { log } from "~/config/log.server";
import { recordPageRender } from "~/observability/metrics.server";
import type { RenderReason } from "./page-cache";

/*
 * Where the page cache's pages are rendered (decision 12). A render (the loaders' reads, then
 * React) takes 10–20 ms of CPU; on the thread that answers requests, every answer waiting behind
 * it waits that long, once a second per busy page: that was the cached pages' p99. So a thread of
 * its own (server/render-worker.ts) renders them: started with the server (`start`, before it
 * listens), or, if it was not, or after it failed, once a page is busy again (the cache renews it
 * ahead of its expiry). Until it is ready, and whenever it fails, renders run here as before.
 */

/** What the render thread is given: the module that exports `runRenderWorker`, and the settings. */
export interface RenderWorkerData {
  entry: string;
  env: NodeJS.ProcessEnv | undefined;
}

export type RenderAsked =
  | { kind: "render"; id: number; url: string; origin: string }
  /** The settings in force changed (saved here or seen by the poll): read them before rendering again. */
  | { kind: "settings"; version: number }
  | { kind: "close" };

export type RenderWorkerSaid =
  | { kind: "ready" }
  | {
      kind: "rendered";
      id: number;
      status: number;
      statusText: string;
      headers: [string, string][];
      body: ArrayBuffer;
    }
  | { kind: "failed"; id: number; message: string };

export interface PageRenderer {
  render(url: string, origin: string, reason: RenderReason): Promise<Response>;
  /** Starts the render thread now; resolves once it renders (or failed to start, or took too long). */
  start(): Promise<void>;
  /** Tells the render thread the settings' new version, which its next render must show. */
  settingsChanged(version: number): void;
  /** Whether renders go to the render thread now (tests and the benchmark). */
  threaded(): boolean;
  close(): Promise<void>;
}

export interface PageRendererOptions {
  /** The built server module (exports `runRenderWorker`); without it every render runs here. */
  entry: string | undefined;
  env: NodeJS.ProcessEnv | undefined;
  /** The same render on this thread. */
  here(url: string, origin: string): Promise<Response>;
  /** A render the thread has not answered by then is made here instead (and the thread replaced). */
  timeoutMs?: number;
  /** After the thread failed, how long renders stay here before it is started again. */
  restartAfterMs?: number;
}

const TIMEOUT_MS = 10_000;
/** The render thread's old-generation heap: a second copy of the server build and React, and renders. */
const THREAD_HEAP_MB = 256;
/** How long `start` waits for the thread to be ready: past it the server goes on rendering in line. */
const START_WAIT_MS = 15_000;
const RESTART_AFTER_MS = 30_000;
const CLOSE_WAIT_MS = 2_000;
/** Statuses whose Response may carry no body. */
const NO_BODY = new Set([204, 205, 304]);

// Runs in the new thread: loads the built server and hands over (eval'd as CommonJS).
const BOOT = `const { workerData } = require("node:worker_threads");
import(workerData.entry).then((m) => m.runRenderWorker(workerData)).catch((error) => {
  console.error(error);
  process.exit(1);
});`;

interface Waiting {
  resolve(response: Response): void;
  retryHere(): void;
  timer: NodeJS.Timeout;
}

export function createPageRenderer(options: PageRendererOptions): PageRenderer {
  const here = (url: string, origin: string) => {
    recordPageRender("principal");
    return options.here(url, origin);
  };
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const restartAfterMs = options.restartAfterMs ?? RESTART_AFTER_MS;
  let worker: Worker | undefined;
  let ready = false;
  let failedAt = Number.NEGATIVE_INFINITY;
  let closed = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  /** Who waits for the thread to be ready (`start`). */
  const onReady: (() => void)[] = [];
  const settle = () => {
    for (const resolve of onReady.splice(0)) resolve();
  };

  /** The thread is gone or stuck: what it had is rendered here, and it is started again later. */
  const drop = (why: string, error?: unknown) => {
    if (!worker) return;
    const gone = worker;
    worker = undefined;
    ready = false;
    failedAt = performance.now();
    gone.removeAllListeners();
    gone.on("error", () => {});
    gone.terminate().catch(() => {});
    if (!closed) log.warn({ err: error }, `Hilo de páginas detenido (${why}): se dibujan en el principal`);
    settle();
    for (const [id, wait] of waiting) {
      waiting.delete(id);
      clearTimeout(wait.timer);
      wait.retryHere();
    }
  };

  const start = (entry: string) => {
    const data: RenderWorkerData = { entry, env: options.env };
    // Its own heap, bounded: past it the thread dies and renders run in line (`drop`).
    const thread = new Worker(BOOT, {
      eval: true,
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    worker = thread;
    thread.on("message", (said: RenderWorkerSaid) => {
      if (said.kind === "ready") {
        ready = true;
        settle();
        return;
      }
      const wait = waiting.get(said.id);
      if (!wait) return;
      waiting.delete(said.id);
      clearTimeout(wait.timer);
      if (said.kind === "failed") {
        log.warn(
          { error: said.message },
          "Una página no se pudo dibujar en su hilo: se dibuja en el principal",
        );
        wait.retryHere();
        return;
      }
      recordPageRender("aparte");
      const body = NO_BODY.has(said.status) || said.body.byteLength === 0 ? null : said.body;
      wait.resolve(
        new Response(body, { status: said.status, statusText: said.statusText, headers: said.headers }),
      );
    });
    thread.on("error", (error) => drop("error", error));
    thread.on("exit", (code) => drop(`salió con ${code}`));
    // It must never keep a stopping process alive.
    thread.unref();
  };

  return {
    render(url, origin, reason) {
      if (!worker && !closed && reason === "ahead" && options.entry) {
        if (performance.now() - failedAt >= restartAfterMs) start(options.entry);
      }
      const thread = worker;
      if (!thread || !ready) return here(url, origin);
      const id = nextId++;
      return new Promise<Response>((resolve, reject) => {
        const retryHere = () => here(url, origin).then(resolve, reject);
        const timer = setTimeout(() => {
          waiting.delete(id);
          retryHere();
          drop(`sin respuesta en ${timeoutMs} ms`);
        }, timeoutMs);
        timer.unref();
        waiting.set(id, { resolve, retryHere, timer });
        thread.postMessage({ kind: "render", id, url, origin } satisfies RenderAsked);
      });
    },
    start() {
      if (!options.entry || closed) return Promise.resolve();
      if (!worker) start(options.entry);
      if (ready) return Promise.resolve();
      return new Promise<void>((resolve) => {
        // Not unref'd: before the server listens, this wait is what keeps the process running.
        const timer = setTimeout(resolve, START_WAIT_MS);
        onReady.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    settingsChanged(version) {
      worker?.postMessage({ kind: "settings", version } satisfies RenderAsked);
    },
    threaded: () => ready,
    async close() {
      closed = true;
      const thread = worker;
      if (!thread) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => thread.terminate().finally(resolve), CLOSE_WAIT_MS);
        thread.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        thread.postMessage({ kind: "close" } satisfies RenderAsked);
      });
    },
  };
}
