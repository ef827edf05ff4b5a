import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createPageRenderer, type PageRenderer } from "./page-renderer";

/** How long a test waits for the thread to start or end: on a busy machine, more than vi.waitFor's own 1 s. */
const THREAD_STARTED = { timeout: 10_000, interval: 20 };

// A real thread running a stand-in for the built server (which exports `runRenderWorker`): it
// answers the same messages, with a body that says where and with which settings it rendered.
// RENDER_MODE in the env it is given makes it fail, die or stay silent.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "page-renderer-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const entry = path.join(dir, "stand-in.mjs");
fs.writeFileSync(
  entry,
  `import { parentPort } from "node:worker_threads";
export async function runRenderWorker(data) {
  const mode = data.env.RENDER_MODE;
  let version = 0;
  parentPort.on("message", (message) => {
    if (message.kind === "settings") { version = message.version; return; }
    if (message.kind === "close") { parentPort.close(); return; }
    if (mode === "silent") return;
    if (mode === "die") process.exit(3);
    if (mode === "fail") {
      parentPort.postMessage({ kind: "failed", id: message.id, message: "no se pudo" });
      return;
    }
    const body = new TextEncoder().encode("hilo " + message.url + " v" + version).buffer;
    const headers = [["content-type", "text/plain"], ["set-cookie", "a=1"], ["set-cookie", "b=2"]];
    parentPort.postMessage({ kind: "rendered", id: message.id, status: 200, statusText: "OK", headers, body }, [body]);
  });
  parentPort.postMessage({ kind: "ready" });
}
`,
);

let renderer: PageRenderer | undefined;
afterEach(async () => {
  await renderer?.close();
  renderer = undefined;
});

function start(mode: string, options: { timeoutMs?: number; restartAfterMs?: number } = {}) {
  const here = vi.fn(async (url: string) => new Response(`aquí ${url}`));
  renderer = createPageRenderer({
    entry: pathToFileURL(entry).href,
    env: { RENDER_MODE: mode },
    here,
    ...options,
  });
  return { renderer, here };
}

const text = async (response: Promise<Response>) => (await response).text();

describe("the page renderer", () => {
  it("renders in line until a busy page starts its thread, then on the thread", async () => {
    const { renderer, here } = start("ok");
    // A miss alone starts nothing: an idle shop never pays for the thread.
    expect(await text(renderer.render("http://t/a", "http://t", "miss"))).toBe("aquí http://t/a");
    expect(renderer.threaded()).toBe(false);
    // A page renewed ahead of its expiry is busy: the thread starts; meanwhile renders stay here.
    expect(await text(renderer.render("http://t/a", "http://t", "ahead"))).toBe("aquí http://t/a");
    await vi.waitFor(() => expect(renderer.threaded()).toBe(true), THREAD_STARTED);
    const response = await renderer.render("http://t/b", "http://t", "miss");
    expect(await response.text()).toBe("hilo http://t/b v0");
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(here).toHaveBeenCalledTimes(2);
  });

  it("started with the server: ready when `start` resolves, and every render goes to it", async () => {
    const { renderer, here } = start("ok");
    await renderer.start();
    expect(renderer.threaded()).toBe(true);
    expect(await text(renderer.render("http://t/c", "http://t", "miss"))).toBe("hilo http://t/c v0");
    expect(here).not.toHaveBeenCalled();
  });

  it("tells the thread of new settings before its next render", async () => {
    const { renderer } = start("ok");
    await renderer.render("http://t/", "http://t", "ahead");
    await vi.waitFor(() => expect(renderer.threaded()).toBe(true), THREAD_STARTED);
    renderer.settingsChanged(7);
    expect(await text(renderer.render("http://t/", "http://t", "miss"))).toBe("hilo http://t/ v7");
  });

  it("renders here what the thread could not", async () => {
    const { renderer, here } = start("fail");
    await renderer.render("http://t/", "http://t", "ahead");
    await vi.waitFor(() => expect(renderer.threaded()).toBe(true), THREAD_STARTED);
    expect(await text(renderer.render("http://t/x", "http://t", "miss"))).toBe("aquí http://t/x");
    expect(here).toHaveBeenCalledTimes(2);
    // It still takes the next one.
    expect(renderer.threaded()).toBe(true);
  });

  it("a thread that dies: what it had is rendered here, and it starts again only after a while", async () => {
    const { renderer, here } = start("die", { restartAfterMs: 60_000 });
    await renderer.render("http://t/", "http://t", "ahead");
    await vi.waitFor(() => expect(renderer.threaded()).toBe(true), THREAD_STARTED);
    expect(await text(renderer.render("http://t/y", "http://t", "miss"))).toBe("aquí http://t/y");
    await vi.waitFor(() => expect(renderer.threaded()).toBe(false), THREAD_STARTED);
    // Busy again right away: not restarted (a thread that keeps dying must not be started each second).
    expect(await text(renderer.render("http://t/z", "http://t", "ahead"))).toBe("aquí http://t/z");
    expect(renderer.threaded()).toBe(false);
    expect(here).toHaveBeenCalledTimes(3);
  });

  it("a thread that does not answer in time: rendered here, and the thread replaced", async () => {
    const { renderer } = start("silent", { timeoutMs: 200, restartAfterMs: 0 });
    await renderer.render("http://t/", "http://t", "ahead");
    await vi.waitFor(() => expect(renderer.threaded()).toBe(true), THREAD_STARTED);
    const started = Date.now();
    expect(await text(renderer.render("http://t/w", "http://t", "miss"))).toBe("aquí http://t/w");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(renderer.threaded()).toBe(false);
    // Allowed again at once here (restartAfterMs 0): the next busy render starts a new one.
    await renderer.render("http://t/", "http://t", "ahead");
    await vi.waitFor(() => expect(renderer.threaded()).toBe(true), THREAD_STARTED);
  });

  it("without a built entry (development, in-process shops) every render stays here", async () => {
    const here = vi.fn(async () => new Response("aquí"));
    renderer = createPageRenderer({ entry: undefined, env: undefined, here });
    await renderer.render("http://t/", "http://t", "ahead");
    await renderer.render("http://t/", "http://t", "ahead");
    expect(renderer.threaded()).toBe(false);
    expect(here).toHaveBeenCalledTimes(2);
  });
});
