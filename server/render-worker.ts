import { parentPort } from "node:worker_threads";
import { loadConfig } from "~/config/env.server";
import { log } from "~/config/log.server";
import { startServices } from "~/services.server";
import { anonymousContext } from "~/web/request-context.server";
import type { RenderAsked, RenderWorkerData, RenderWorkerSaid } from "./page-renderer";
import { shopPages } from "./router-build";

/*
 * The page renderer's thread (server/page-renderer.ts starts it): renders the page cache's pages
 * off the thread that answers requests (decision 12). It has services of its own that only read
 * (`startServices(…, "page renderer")`) and the same React Router build, and renders exactly as
 * the server would for the cache: a fresh Request with the address only, in the anonymous context.
 */

/** Settings newer than this thread's are read before the next render starts. */
const SETTINGS_TRIES = 50;
const SETTINGS_RETRY_MS = 20;

export async function runRenderWorker(data: RenderWorkerData): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error("runRenderWorker runs in a worker thread");
  const config = loadConfig(data.env);
  log.level = config.logLevel;
  const services = await startServices(config, (line) => log.info(line), "page renderer");
  const fetchPage = shopPages(config.publicUrl, "production");
  const render = async (url: string, origin: string) =>
    fetchPage(new Request(url, { method: "GET" }), anonymousContext(services, origin));

  // Renders wait for a settings change the server told of before them (messages come in order).
  let settled: Promise<void> = Promise.resolve();
  const catchUp = async (version: number) => {
    for (let i = 0; i < SETTINGS_TRIES && services.settings.version() < version; i++) {
      // A refresh already under way (the poll) answers false without reading: read again shortly.
      if (!(await services.settings.refresh())) await new Promise((r) => setTimeout(r, SETTINGS_RETRY_MS));
    }
  };

  port.on("message", (message: RenderAsked) => {
    if (message.kind === "settings") {
      settled = settled.then(() => catchUp(message.version)).catch(() => {});
      return;
    }
    if (message.kind === "close") {
      services.stop().finally(() => port.close());
      return;
    }
    const { id, url, origin } = message;
    settled
      .then(() => render(url, origin))
      .then(async (response) => {
        const body = await response.arrayBuffer();
        const said: RenderWorkerSaid = {
          kind: "rendered",
          id,
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers.entries()],
          body,
        };
        port.postMessage(said, [body]);
      })
      .catch((error: unknown) => {
        port.postMessage({ kind: "failed", id, message: String(error) } satisfies RenderWorkerSaid);
      });
  });

  // Its first render is slow (nothing compiled yet): done here, before it takes any.
  const origin = config.publicUrl ?? "http://localhost";
  await (await render(`${new URL(origin).origin}/`, origin)).arrayBuffer().catch(() => {});
  port.postMessage({ kind: "ready" } satisfies RenderWorkerSaid);
}
