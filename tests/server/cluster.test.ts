import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it, vi } from "vitest";
import { failedStart, type RunningServer, startServer } from "../support/server-process";

// The first start draws the demo catalogue's images: allow for a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-cluster-"));
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/**
 * Which worker answered each of `n` requests, sent at once, each on a new connection. Workers
 * accept connections themselves (decision 13): an idle one may take a lone request, or even a
 * small crowd of cheap ones, alone.
 */
async function workersAnswering(url: string, n: number, path = "/healthz"): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const res = await fetch(`${url}${path}`, { headers: { connection: "close" } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return res.headers.get("x-shop-worker") ?? "none";
    }),
  );
}

/** The workers seen answering rounds of `n` requests at once, until both were seen (10 rounds at most). */
async function workersSeen(url: string, n: number, path = "/healthz"): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let round = 0; round < 10 && seen.size < 2; round++) {
    for (const worker of await workersAnswering(url, n, path)) seen.add(worker);
  }
  return seen;
}

/** Pid of worker `n` as the primary last announced it. */
function pidOf(out: string, n: number): number {
  const lines = [
    ...out.matchAll(new RegExp(`Proceso ${n} (?:de \\d+ listo|de nuevo en servicio) \\(pid (\\d+)\\)`, "g")),
  ];
  return Number(lines.at(-1)?.[1]);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe("WEB_CONCURRENCY=2: two processes serve one port", () => {
  let pids: number[] = [];

  it("starts worker 1 alone (migrations, demo catalogue, demo admin once), then worker 2; says it is ready once", async () => {
    server = await startServer({
      DATA_DIR: path.join(tmp, "data"),
      WEB_CONCURRENCY: "2",
      SESSION_SECRET: "",
    });
    const out = server.output();
    const count = (text: string) => out.split(text).length - 1;
    expect(count("Tienda lista en")).toBe(1);
    expect(out).toContain("(2 procesos)");
    expect(count("Migraciones aplicadas")).toBe(1);
    expect(count("Catálogo de demostración listo")).toBe(1);
    expect(count("Administrador de demostración creado")).toBe(1);
    // Worker 2 was started after worker 1 listened: nothing was migrated or seeded twice.
    expect(out.indexOf("Proceso 1 de 2 listo")).toBeLessThan(out.indexOf("Proceso 2 de 2 listo"));
    pids = [pidOf(out, 1), pidOf(out, 2)];
    for (const pid of pids) expect(alive(pid)).toBe(true);
    expect(new Set([server.child.pid, ...pids]).size).toBe(3);
  });

  it("both workers answer requests", async () => {
    const url = server?.url ?? "";
    expect(await workersSeen(url, 40)).toEqual(new Set(["1", "2"]));
    // And both render real pages, not only the health check.
    expect(await workersSeen(url, 24, "/")).toEqual(new Set(["1", "2"]));
  });

  it("a worker killed with SIGKILL: the shop keeps answering and a new worker takes its place", async () => {
    const running = server as RunningServer;
    const [first, second] = pids as [number, number];
    process.kill(first, "SIGKILL");
    await until(
      () => running.output().includes("El proceso 1 terminó (SIGKILL)"),
      "the primary to see the death",
    );
    // Every request is answered meanwhile (by worker 2, until worker 1 is back).
    for (const answer of await workersAnswering(running.url, 10)) expect(["1", "2"]).toContain(answer);
    await until(() => running.output().includes("Proceso 1 de nuevo en servicio"), "the replacement");
    const replacement = pidOf(running.output(), 1);
    expect(replacement).not.toBe(first);
    expect(alive(first)).toBe(false);
    expect(alive(second)).toBe(true);
    expect(await workersSeen(running.url, 40)).toEqual(new Set(["1", "2"]));
    pids = [replacement, second];
  });

  it("SIGTERM stops every worker gracefully and the primary exits 0", async () => {
    const running = server as RunningServer;
    const code = await running.stop();
    server = undefined;
    expect(code).toBe(0);
    // Each worker ran the single server's graceful stop.
    expect(running.output().split("SIGTERM: cerrando").length - 1).toBe(2);
    await until(() => pids.every((pid) => !alive(pid)), "the workers to be gone", 5_000);
  });
});

describe("start-up failures in cluster mode", () => {
  it("a bad WEB_CONCURRENCY: one clear line, exit 1", async () => {
    const { code, stderr } = await failedStart({
      DATA_DIR: path.join(tmp, "bad"),
      WEB_CONCURRENCY: "muchos",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("WEB_CONCURRENCY: debe ser un número entero de 1 a 64, o `auto`");
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it("a worker that cannot start: its one line, no restarts, exit 1", async () => {
    const file = path.join(tmp, "a-file");
    fs.writeFileSync(file, "");
    const { code, stderr, stdout } = await failedStart({
      DATA_DIR: path.join(file, "data"),
      WEB_CONCURRENCY: "2",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("No se puede escribir en la carpeta de datos (DATA_DIR)");
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stdout).not.toContain("Tienda lista");
  });
});
