import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { demoPayment, runningPiece } from "../support/catalogue";
import { sqliteHarness } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";

// /metrics (server/metrics-route.ts) and the counters behind it (app/observability): a metrics
// system with the token reads them, nobody else does; with two processes they are the shop's sum.
vi.setConfig({ testTimeout: 120_000 });

const TOKEN = "metricas-de-prueba-0123456789abcdef";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-metrics-"));
const cleanups: (() => Promise<void>)[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const cleanup of cleanups) await cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function shopOn(database: { lastUrl(): string }, name: string, env: Record<string, string> = {}) {
  const server = await startServer({
    DATA_DIR: path.join(tmp, name),
    DATABASE_URL: database.lastUrl(),
    DEMO_DATA: "false",
    DEMO_PAYMENTS: "true",
    ...env,
  });
  servers.push(server);
  return server;
}

/** The value of one sample (`name{labels} value`) in Prometheus' text, 0 when it is not there. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return 0;
}

async function scrape(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}`, connection: "close" },
  });
  expect(res.status).toBe(200);
  return res.text();
}

function checkout(server: RunningServer, piece: { id: string; dropId: string }) {
  return fetch(`${server.url}/api/checkout`, {
    method: "POST",
    // A new connection each: with two processes, either may take it.
    headers: { "content-type": "application/json", connection: "close" },
    body: JSON.stringify({ cart: [{ product: { id: piece.id }, dropId: piece.dropId, quantity: 1 }] }),
  });
}

describe("/metrics", () => {
  const harness = sqliteHarness(cleanups);

  it("does not exist without METRICS_TOKEN", async () => {
    await harness.fresh();
    const server = await shopOn(harness, "sin-token");
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    await server.stop();
  });

  describe("with a token configured", () => {
    let server: RunningServer;
    let database: Database;
    beforeAll(async () => {
      database = await harness.fresh();
      server = await shopOn(harness, "con-token", { METRICS_TOKEN: TOKEN });
    });

    it("refuses anonymous requests and a wrong token with a Spanish 401 that asks for a bearer token", async () => {
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, "Bearer corto", `Basic ${TOKEN}`, TOKEN]) {
        const res = await fetch(`${server.url}/metrics`, {
          headers: authorization ? { authorization } : {},
        });
        expect(res.status, String(authorization)).toBe(401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(res.headers.get("cache-control")).toBe("no-store");
        const text = await res.text();
        expect(text).toContain("Hace falta el token de métricas");
        expect(text).not.toContain("tienda_");
      }
    });

    it("serves the counters to the token, in Prometheus' text format, never cached", async () => {
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const text = await res.text();
      expect(text).toContain("# TYPE tienda_respuesta_segundos histogram");
      expect(text).toContain("# TYPE tienda_checkouts_iniciados_total counter");
    });

    it("counts a drop's checkouts started, held, refused by reason and paid, and the answers' times", async () => {
      const piece = await runningPiece(database, { stock: 1 });
      const first = await checkout(server, piece);
      expect(first.status).toBe(200);
      const { url } = (await first.json()) as { url: string };
      const second = await checkout(server, piece);
      expect(second.status).toBe(409);
      await second.arrayBuffer();

      let text = await scrape(server);
      const drop = { drop: piece.dropId };
      expect(sample(text, "tienda_checkouts_iniciados_total", drop)).toBe(2);
      expect(sample(text, "tienda_checkouts_apartados_total", drop)).toBe(1);
      expect(sample(text, "tienda_checkouts_rechazados_total", { ...drop, reason: "sin_stock" })).toBe(1);
      expect(sample(text, "tienda_pedidos_pagados_total", drop)).toBe(0);
      expect(sample(text, "tienda_respuesta_segundos_count", { kind: "checkout" })).toBeGreaterThanOrEqual(2);

      const paid = await fetch(`${server.url}${url}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams(demoPayment("Ana Pérez", "ana@example.mx")).toString(),
        redirect: "manual",
      });
      expect(paid.status).toBe(302);
      text = await scrape(server);
      expect(sample(text, "tienda_pedidos_pagados_total", drop)).toBe(1);
    });
  });

  it("counts checkouts refused before their cart is read: by the proof of work, by the request limits", async () => {
    const database = await harness.fresh();
    const server = await shopOn(harness, "reto", {
      METRICS_TOKEN: TOKEN,
      CHECKOUT_CHALLENGE: "true",
      REQUEST_LIMITS: "true",
    });
    const piece = await runningPiece(database, { stock: 3 });
    const body = JSON.stringify({ cart: [{ product: { id: piece.id }, dropId: piece.dropId, quantity: 1 }] });
    const post = (cookie?: string) =>
      fetch(`${server.url}/api/checkout`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
        body,
      });
    // A browser with its cookie and no proof: the front door read its cart, but only from its body;
    // its drop, never read by the shop in this process yet, is counted under none (an invented id
    // would take a label of its own).
    const cart = await fetch(`${server.url}/api/cart`);
    await cart.arrayBuffer();
    const browser = (cart.headers.getSetCookie().find((c) => c.startsWith("navegador=")) ?? "").split(";")[0];
    const unproven = await post(browser);
    expect(unproven.status).toBe(400);
    // Without a cookie, past the cookieless allowance of the address: a 429 before any body is read.
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await post()).status);
    const limited = statuses.filter((s) => s === 429).length;
    expect(limited).toBeGreaterThan(0);

    const text = await scrape(server);
    expect(
      sample(text, "tienda_checkouts_rechazados_total", { drop: piece.dropId, reason: "verificacion" }),
    ).toBe(0);
    expect(sample(text, "tienda_checkouts_rechazados_total", { drop: "ninguna", reason: "limite" })).toBe(
      limited,
    );
    expect(
      sample(text, "tienda_checkouts_rechazados_total", { drop: "ninguna", reason: "verificacion" }),
    ).toBe(statuses.length - limited + 1);
    // A scrape is no checkout and counts against no limit: many in a row are all answered.
    for (let i = 0; i < 30; i++) await scrape(server);
  });

  it("with two processes, serves the whole shop's sum whichever process is asked", async () => {
    const database = await harness.fresh();
    const server = await shopOn(harness, "dos-procesos", { METRICS_TOKEN: TOKEN, WEB_CONCURRENCY: "2" });
    const piece = await runningPiece(database, { stock: 5 });
    // Rounds of checkouts at once, each on its own connection, until both processes answered some.
    const workers = new Map<string, number>();
    let sent = 0;
    for (let round = 0; round < 10 && (workers.size < 2 || round < 2); round++) {
      const answers = await Promise.all(Array.from({ length: 12 }, () => checkout(server, piece)));
      for (const res of answers) {
        await res.arrayBuffer();
        const worker = res.headers.get("x-shop-worker") ?? "ninguno";
        workers.set(worker, (workers.get(worker) ?? 0) + 1);
        sent++;
      }
    }
    expect([...workers.keys()].sort()).toEqual(["1", "2"]);
    // Each scrape, on a new connection, may be answered by either process: always the same sum.
    const seenBy = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}`, connection: "close" },
      });
      expect(res.status).toBe(200);
      seenBy.add(res.headers.get("x-shop-worker") ?? "");
      const text = await res.text();
      const drop = { drop: piece.dropId };
      expect(sample(text, "tienda_checkouts_iniciados_total", drop)).toBe(sent);
      expect(sample(text, "tienda_checkouts_apartados_total", drop)).toBe(5);
      expect(sample(text, "tienda_checkouts_rechazados_total", { ...drop, reason: "sin_stock" })).toBe(
        sent - 5,
      );
    }
    expect(seenBy.size).toBeGreaterThanOrEqual(1);
  });
});
