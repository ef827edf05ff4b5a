import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { copySqliteTemplate } from "../support/databases";
import { accessLines, LINE_WRITTEN, type LogLine, logLines } from "../support/log-lines";
import { type RunningServer, startServer } from "../support/server-process";

// The server's log as it really prints it (app/config/log.server.ts): one JSON object per line,
// every line written while handling a request carries that request's id, which its answer names
// in X-Request-Id; LOG_REQUESTS adds one access line per request, and without it there is none.

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-logs-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REFUSED_LOGIN = "Inicio de sesión rechazado (credenciales)";

async function start(name: string, env: Record<string, string>): Promise<RunningServer> {
  copySqliteTemplate(path.join(tmp, name, "shop.db"));
  // TRUST_PROXY: each sign-in below comes from an address of its own, so none is limited.
  return startServer({ DATA_DIR: path.join(tmp, name), DEMO_DATA: "false", TRUST_PROXY: "true", ...env });
}

/** A wrong password posted as the sign-in form does: the shop logs a warning for it (app/auth). */
function wrongPassword(server: RunningServer, address: string, requestId?: string): Promise<Response> {
  return fetch(`${server.url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: server.url,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": address,
      ...(requestId ? { "x-request-id": requestId } : {}),
    },
    body: new URLSearchParams({ email: "nadie@example.com", password: "no es esta" }),
  });
}

/** A form posted from another site: refused at the edge (server/), with a warning. */
function crossSiteForm(server: RunningServer): Promise<Response> {
  return fetch(`${server.url}/admin/orders`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
    body: "a=b",
  });
}

/**
 * 3,000 answers of /nosotros (HEAD: the page's headers alone, from the page cache), fifty at a
 * time: about 660 KB of access lines, far past what a pipe (a few hundred KB at most) holds when
 * nobody reads it. The statuses, in order.
 */
async function manyAnswers(server: RunningServer): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${server.url}/nosotros`, { method: "HEAD" }).then((r) => r.status),
      ),
    );
    statuses.push(...answers);
  }
  return statuses;
}

/** The server told to stop (`stopped`) is gone within `ms` of `started` (by default, this call). */
async function expectGoneWithin(stopped: Promise<unknown>, ms: number, started = Date.now()): Promise<void> {
  const gone = await Promise.race([stopped.then(() => true), sleep(ms).then(() => false)]);
  expect(gone).toBe(true);
  expect(Date.now() - started).toBeLessThan(ms);
}

/** The lines of one request, once its access line (or, without them, `until`) is written. */
async function linesOf(server: RunningServer, reqId: string, until?: (l: LogLine) => boolean) {
  const own = () => logLines(server.output()).filter((line) => line.reqId === reqId);
  await vi.waitFor(
    () => expect(own().some(until ?? ((l) => l.msg === "Solicitud"))).toBe(true),
    LINE_WRITTEN,
  );
  return own();
}

describe("with LOG_REQUESTS", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start("on", { LOG_REQUESTS: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("every line the server prints is one JSON object with its level, time, process and message", async () => {
    await (await fetch(`${server.url}/nosotros`)).text();
    // The access line is written a fraction of a second after its answer (gathered in memory).
    await vi.waitFor(
      () => expect(logLines(server.output()).some((l) => l.msg === "Solicitud")).toBe(true),
      LINE_WRITTEN,
    );
    const lines = logLines(server.output());
    expect(lines.filter((line) => line.plain)).toEqual([]);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(["info", "warn", "error"]).toContain(line.level);
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(line.pid).toBe(server.child.pid);
      expect(line.msg).toBeTypeOf("string");
    }
    expect(lines.map((line) => line.msg)).toContain(`Tienda lista en ${server.url}`);
  });

  it("a warning written while handling a request (app/) carries its id, the access line's and the answer's", async () => {
    const res = await wrongPassword(server, "198.51.100.1");
    expect(res.status).toBe(401);
    const reqId = res.headers.get("x-request-id") ?? "";
    expect(reqId).toMatch(UUID);
    const lines = await linesOf(server, reqId);
    expect(lines).toEqual([
      expect.objectContaining({ level: "warn", msg: REFUSED_LOGIN, address: "198.51.100.1" }),
      expect.objectContaining({
        level: "info",
        msg: "Solicitud",
        method: "POST",
        path: "/login",
        status: 401,
        address: "198.51.100.1",
      }),
    ]);
    const access = lines[1] as LogLine;
    expect(access.ms).toBeGreaterThan(0);
  });

  it("so does a refusal at the edge (server/), before any route", async () => {
    const res = await crossSiteForm(server);
    expect(res.status).toBe(403);
    await res.text();
    const reqId = res.headers.get("x-request-id") ?? "";
    expect(reqId).toMatch(UUID);
    expect(await linesOf(server, reqId)).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "Solicitud rechazada",
        status: 403,
        url: "/admin/orders",
      }),
      expect.objectContaining({ msg: "Solicitud", method: "POST", path: "/admin/orders", status: 403 }),
    ]);
    // The same refusal again within the second is counted, and the count (written a second
    // later, for however many requests) carries no request's id.
    const again = await crossSiteForm(server);
    await again.text();
    const counted = (line: LogLine) => line.msg === "Solicitud rechazada: más en el último segundo";
    await vi.waitFor(() => expect(logLines(server.output()).some(counted)).toBe(true), { timeout: 5_000 });
    const count = logLines(server.output()).filter(counted);
    expect(count).toEqual([expect.objectContaining({ status: 403, url: "/admin/orders", more: 1 })]);
    expect(count[0]).not.toHaveProperty("reqId");
    expect(await linesOf(server, again.headers.get("x-request-id") ?? "")).toEqual([
      expect.objectContaining({ msg: "Solicitud", status: 403 }),
    ]);
  });

  it("requests handled at the same moment keep their own ids", async () => {
    const ids = ["prueba-a", "prueba-b", "prueba-c", "prueba-d"];
    const answers = await Promise.all(ids.map((id, i) => wrongPassword(server, `198.51.100.${20 + i}`, id)));
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(401);
      // A sane id from a load balancer or the client is kept.
      expect(res.headers.get("x-request-id")).toBe(ids[i]);
    }
    for (const [i, id] of ids.entries()) {
      const lines = await linesOf(server, id);
      expect(lines.map((line) => [line.msg, line.address])).toEqual([
        [REFUSED_LOGIN, `198.51.100.${20 + i}`],
        ["Solicitud", `198.51.100.${20 + i}`],
      ]);
    }
  });

  it("an id that does not look sane is replaced by a new one", async () => {
    for (const asked of ["con espacio", "x".repeat(65), 'comillas"{}', ""]) {
      const res = await fetch(`${server.url}/nosotros`, { headers: { "x-request-id": asked } });
      await res.text();
      expect(res.headers.get("x-request-id"), asked).toMatch(UUID);
    }
  });

  it("the access line names the path as asked, without its query, also under a mounted folder", async () => {
    for (const target of ["/media/drops/no-existe.webp", "/colecciones?orden=precio-asc&token=secreto"]) {
      const res = await fetch(`${server.url}${target}`);
      await res.arrayBuffer();
      const [line] = await linesOf(server, res.headers.get("x-request-id") ?? "");
      expect(line, target).toMatchObject({
        msg: "Solicitud",
        path: target.split("?")[0],
        status: res.status,
      });
      expect(JSON.stringify(line)).not.toContain("secreto");
    }
  });

  it("a page-cache hit answered before Express has an id and its access line too", async () => {
    let hit: Response | undefined;
    for (let i = 0; i < 20 && !hit; i++) {
      const res = await fetch(`${server.url}/nosotros`);
      await res.arrayBuffer();
      if (res.headers.get("x-cache") === "HIT") hit = res;
    }
    const reqId = hit?.headers.get("x-request-id") ?? "";
    expect(reqId).toMatch(UUID);
    expect(await linesOf(server, reqId)).toEqual([
      expect.objectContaining({
        msg: "Solicitud",
        method: "GET",
        path: "/nosotros",
        status: 200,
        bytes: Number(hit?.headers.get("content-length")),
      }),
    ]);
  });
});

describe("with LOG_REQUESTS=false", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start("off", { LOG_REQUESTS: "false" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("no access lines; the other lines still carry the request's id", async () => {
    for (let i = 0; i < 3; i++) await (await fetch(`${server.url}/nosotros`)).text();
    const refused = await crossSiteForm(server);
    await refused.text();
    const res = await wrongPassword(server, "198.51.100.40");
    expect(res.status).toBe(401);
    const reqId = res.headers.get("x-request-id") ?? "";
    expect(reqId).toMatch(UUID);
    const lines = await linesOf(server, reqId, (line) => line.msg === REFUSED_LOGIN);
    expect(lines).toEqual([expect.objectContaining({ level: "warn", msg: REFUSED_LOGIN })]);
    const edge = refused.headers.get("x-request-id") ?? "";
    expect(edge).toMatch(UUID);
    expect(logLines(server.output()).filter((line) => line.reqId === edge)).toEqual([
      expect.objectContaining({ msg: "Solicitud rechazada" }),
    ]);
    await sleep(200);
    expect(accessLines(server.output())).toEqual([]);
    expect(logLines(server.output()).filter((line) => line.plain)).toEqual([]);
  });
});

describe("when the log's reader stalls", () => {
  it("the shop goes on answering, keeps at most LOG_BUFFER_BYTES of lines, and says how many it left out once the output moves again", async () => {
    // A log collector that stops reading without closing its pipe. Its smallest buffer: 64 KB.
    const server = await start("stalled", { LOG_REQUESTS: "true", LOG_BUFFER_BYTES: "65536" });
    try {
      server.child.stdout?.pause();
      // Past the pipe and the buffer's 64 KB: the output is stalled and the rest is left out.
      const statuses = await manyAnswers(server);
      expect(statuses.filter((status) => status === 200)).toHaveLength(3_000);
      // A line of the other log while the output is stalled (a refused sign-in's warning) does
      // not stop the shop either: it answers at once, and the line is written once it moves.
      const refused = await wrongPassword(server, "203.0.113.50", "durante-el-atasco");
      expect(refused.status).toBe(401);
      const started = Date.now();
      const during = await fetch(`${server.url}/nosotros`, { signal: AbortSignal.timeout(5_000) });
      await during.arrayBuffer();
      expect(during.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_000);

      server.child.stdout?.resume();
      await linesOf(server, "durante-el-atasco", (l) => l.msg === REFUSED_LOGIN);
      // Said once the output moves, perhaps in more than one line (lines still on their way when
      // it moved again may be left out after the first): their sum is what was left out.
      const reports = () =>
        logLines(server.output()).filter(
          (l) => l.msg === "Se dejaron líneas de acceso: la salida del registro no las tomaba",
        );
      const left = () => reports().reduce((sum, l) => sum + Number(l.lines), 0);
      await vi.waitFor(() => expect(left()).toBeGreaterThan(1_000), { timeout: 10_000 });
      expect(reports()[0]).toMatchObject({ level: "warn", maxBytes: 65_536 });
      // Every request is either written whole or counted as left out, none half-written, none
      // twice: the 3,000, the refused sign-in and the page during the stall.
      await vi.waitFor(() => expect(accessLines(server.output()).length + left()).toBe(3_002), {
        timeout: 5_000,
      });
      expect(logLines(server.output()).filter((line) => line.plain)).toEqual([]);
      // The output moves again: the next lines are written.
      const after = await fetch(`${server.url}/nosotros`, {
        headers: { "x-request-id": "despues-del-atasco" },
      });
      await after.arrayBuffer();
      await linesOf(server, "despues-del-atasco");
    } finally {
      await server.kill();
    }
  });
});

describe("when the log's reader stalls for good", () => {
  it("the server still stops on SIGTERM, within seconds, giving up the lines it cannot write", async () => {
    // A collector stuck for good: its pipe full, never read again and never closed.
    const server = await start("stuck", { LOG_REQUESTS: "true" });
    try {
      server.child.stdout?.pause();
      await manyAnswers(server);
      await expectGoneWithin(server.stop(), 8_000);
    } finally {
      server.child.stdout?.destroy();
      await server.kill();
    }
  });
});

describe("when nobody reads the log any more", () => {
  it("the server still stops on SIGTERM, giving up the lines it can no longer write", async () => {
    // A log collector that died: the server's standard output leads nowhere (a closed pipe).
    const server = await start("unread", { LOG_REQUESTS: "true" });
    try {
      // The collector stalls (its pipe fills), then is gone as the server is told to stop:
      // access lines are still pending in the server's buffer.
      server.child.stdout?.pause();
      await manyAnswers(server);
      const started = Date.now();
      const stopped = server.stop();
      // Closed once the shop has stopped listening and is on its way out (the lines still
      // pending are written at its exit): the moment a shop that retried for ever hung.
      await vi.waitFor(
        async () => {
          await expect(fetch(`${server.url}/nosotros`)).rejects.toThrow();
        },
        { timeout: 5_000, interval: 20 },
      );
      server.child.stdout?.destroy();
      await expectGoneWithin(stopped, 8_000, started);
    } finally {
      await server.kill();
    }
  });
});
