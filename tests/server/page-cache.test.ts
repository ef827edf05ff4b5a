import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import zlib from "node:zlib";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { formValues, settingsFromEnvironment } from "~/settings/settings";
import { PAGE_TTL_MS, REFRESH_AHEAD_MS } from "../../server/page-cache";
import { inlineScriptHashes } from "../../server/script-hashes";
import { signInAdmin } from "../support/admin-http";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";
import { settingsFormBody } from "../support/settings-form";

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-page-cache-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const HOUR = 3_600_000;
const METRICS_TOKEN = "token-de-metricas-de-prueba";

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET (or HEAD) with node:http, so compressed bodies arrive as sent (fetch would decode them). */
function raw(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describeEachDatabase("the page cache", (harness) => {
  let server: RunningServer;
  let database: Database;
  let cookie = "";
  let piece: Awaited<ReturnType<typeof runningPiece>>;

  beforeAll(async () => {
    database = await harness.fresh();
    piece = await runningPiece(database, { stock: 5, priceCents: 450_000, name: "Anillo Caché" });
    server = await startServer({
      METRICS_TOKEN,
      // Every freshness rule holds with the pages rendered on their own thread (the default).
      PAGE_RENDER_THREAD: "true",
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (pathname: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${pathname}`, { redirect: "manual", headers });
  const productPath = () => `/drop/${piece.dropId}/product/${piece.id}`;

  /**
   * Polls a page until `check` holds on its body: how many ms after the call the last request that
   * still got the old page was *sent* (0 when none did). The rule is on what a request sent then
   * receives (one arriving after an entry's second waits for the new render), so a slow answer on a
   * busy machine, stale or fresh, is not staleness: only an old page sent for a late request is.
   */
  async function staleUntil(
    pathname: string,
    check: (html: string) => boolean,
    limitMs: number,
  ): Promise<number> {
    const started = Date.now();
    let lastStale = 0;
    while (Date.now() - started < limitMs) {
      const sentAt = Date.now();
      if (check(await (await get(pathname)).text())) return lastStale;
      lastStale = sentAt - started;
      await sleep(20);
    }
    throw new Error(`${pathname} did not change within ${limitMs} ms`);
  }

  it("serves anonymous public pages from the cache: the next request is a hit with the same body", async () => {
    const pages = [
      "/",
      "/colecciones",
      `/coleccion/${piece.dropId}`,
      `/coleccion/${piece.dropId}?categoria=Anillo`,
      productPath(),
      "/nosotros",
      "/aviso-de-privacidad",
      "/envios.data",
      "/sitemap.xml",
      "/robots.txt",
      "/_.data",
      `/coleccion/${piece.dropId}.data`,
      `${productPath()}.data`,
    ];
    for (const page of pages) {
      const first = await get(page);
      const second = await get(page);
      expect(first.status, page).toBe(200);
      expect(first.headers.get("x-cache"), page).toBe("MISS");
      expect(second.headers.get("x-cache"), page).toBe("HIT");
      expect(await second.text(), page).toBe(await first.text());
      expect(second.headers.get("vary"), page).toBe("Accept-Encoding");
    }
    // Each filter is its own page.
    const filtered = await get(`/coleccion/${piece.dropId}?categoria=Collar`);
    expect(filtered.headers.get("x-cache")).toBe("MISS");
    expect(await filtered.text()).toContain("No hay productos disponibles con los filtros seleccionados.");
    // So is each order; tracking tags and reordered parameters share their view's entry.
    const view = await get(`/coleccion/${piece.dropId}?categoria=Anillo&orden=precio-desc`);
    expect(view.headers.get("x-cache")).toBe("MISS");
    const tagged = await get(`/coleccion/${piece.dropId}?orden=precio-desc&fbclid=x1&categoria=Anillo`);
    expect(tagged.headers.get("x-cache")).toBe("HIT");
    expect(await tagged.text()).toBe(await view.text());
  });

  it("sends a shared-cache policy and a CSP made of the hashes of the stored page's inline scripts", async () => {
    const res = await get(`${productPath()}?csp=1`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=1");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).not.toContain("nonce");
    expect(csp).toContain("object-src 'none'");
    const html = await res.text();
    const hashes = inlineScriptHashes(html);
    expect(hashes.length).toBeGreaterThan(0);
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc.trim().split(/\s+/).slice(1).sort()).toEqual(["'self'", ...hashes].sort());
    expect(html).not.toMatch(/\snonce=/);
    // Sitemap and robots keep their own public policy (no stock nor price in them).
    expect((await get("/sitemap.xml")).headers.get("cache-control")).toBe("public, max-age=600");
    // Pages not cached keep today's headers: a fresh nonce each time.
    const success = await get("/success");
    expect(success.headers.get("x-cache")).toBeNull();
    expect(success.headers.get("content-security-policy")).toMatch(/'nonce-[^']+'/);
  });

  it("never caches an administrator's requests nor the admin area", async () => {
    for (let i = 0; i < 2; i++) {
      const home = await get("/", { cookie });
      expect(home.headers.get("x-cache")).toBe("BYPASS");
      expect(home.headers.get("cache-control")).toBe("private, no-store");
      expect(await home.text()).toContain("Cerrar sesión");
      const secure = await get("/colecciones", { cookie: `__Host-${cookie}` });
      expect(secure.headers.get("x-cache")).toBe("BYPASS");
    }
    // The administrator's page never reaches anonymous visitors.
    const anonymous = await get("/");
    expect(await anonymous.text()).not.toContain("Cerrar sesión");
    for (let i = 0; i < 2; i++) {
      const admin = await get("/admin/drops", { cookie });
      expect(admin.status).toBe(200);
      expect(admin.headers.get("x-cache")).toBeNull();
      expect(admin.headers.get("cache-control")).toBe("private, no-store");
      const data = await get("/admin/drops.data", { cookie });
      expect(data.headers.get("x-cache")).toBeNull();
      expect((await get("/login")).headers.get("x-cache")).toBeNull();
      expect((await get("/api/cart?ids=x")).headers.get("x-cache")).toBeNull();
    }
  });

  it("shows a sale (stock) and a price change within a second", async () => {
    const page = productPath();
    await get(page);
    expect((await get(page)).headers.get("x-cache")).toBe("HIT");
    expect(await (await get(page)).text()).toContain("Stock: 5 piezas");
    await database.db.updateTable("products").set({ stock: 2 }).where("id", "=", piece.id).execute();
    expect(await staleUntil(page, (html) => html.includes("Quedan 2"), 3_000)).toBeLessThan(1_100);
    await database.db
      .updateTable("products")
      .set({ price_cents: 470_000 })
      .where("id", "=", piece.id)
      .execute();
    expect(await staleUntil(page, (html) => html.includes("$4,700.00"), 3_000)).toBeLessThan(1_100);
  });

  it("opens an upcoming drop within a second of its start", async () => {
    // Far enough ahead that a cache keeping pages longer than 1 s would be caught showing it closed.
    const startAt = new Date(Date.now() + 4_000);
    const dropId = await createDrop(database.db, {
      name: "Abre pronto",
      status: "proximamente",
      startAt,
      endAt: new Date(Date.now() + HOUR),
      products: [
        {
          name: "Collar Alba",
          categoria: "Collar",
          material: "Oro blanco",
          priceCents: 90_000,
          stock: 3,
          imageId: null,
        },
      ],
    });
    const productId = (await getDrop(database.db, dropId))?.products[0]?.id ?? "";
    const page = `/drop/${dropId}/product/${productId}`;
    expect(await (await get(page)).text()).toContain("Disponible próximamente");
    while (Date.now() < startAt.getTime() - 300) {
      await get(page); // keeps the cache warm right up to the start
      await sleep(50);
    }
    const polled = Date.now();
    const lastClosed =
      polled + (await staleUntil(page, (html) => !html.includes("Disponible próximamente"), 5_000));
    // No request sent more than the cache's 1 s after the start got the page still closed.
    expect(lastClosed - startAt.getTime()).toBeLessThan(1_100);
  });

  it("shows an admin change at once on the server that made it", async () => {
    const dropId = await createDrop(database.db, {
      name: "Se borra ya",
      status: "activa",
      startAt: new Date(Date.now() - HOUR),
      endAt: new Date(Date.now() + HOUR),
      products: [],
    });
    // A fresh render (MISS) just now: without the clear, this copy would be served for a second.
    let warmedAt = 0;
    for (let i = 0; i < 50 && !warmedAt; i++) {
      const sent = Date.now();
      const res = await get("/colecciones");
      const html = await res.text();
      if (res.headers.get("x-cache") === "MISS" && html.includes("Se borra ya")) warmedAt = sent;
      else await sleep(100);
    }
    expect(warmedAt).toBeGreaterThan(0);
    expect((await get("/colecciones")).headers.get("x-cache")).toBe("HIT");
    const deleted = await fetch(`${server.url}/admin/drops/edit-drop/${dropId}.data`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "eliminar" }),
    });
    expect(deleted.status).toBeLessThan(400);
    const after = await get("/colecciones");
    expect(Date.now() - warmedAt, "the test was too slow to show anything").toBeLessThan(1_000);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(await after.text()).not.toContain("Se borra ya");
  });

  it("a failed admin post (refused as signed out) clears nothing", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const page = `${productPath()}?sin-cambio=${attempt}`;
      const stored = Date.now();
      await get(page);
      const refused = await fetch(`${server.url}/admin/drops/edit-drop/${piece.dropId}.data`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "eliminar" }),
      });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      const cache = (await get(page)).headers.get("x-cache");
      // Past the entry's second (a slow machine) a new render is the rule, not a clearing: again.
      if (cache !== "HIT" && Date.now() - stored >= PAGE_TTL_MS) continue;
      expect(cache).toBe("HIT");
      return;
    }
    throw new Error("the post never came back within one entry's life");
  });

  it("renders a cold page once for 200 requests at once", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      // A product page's query is kept as asked (a collection page's would be reduced to its view).
      const page = `${productPath()}?frio=${newId(8)}`;
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const res = await raw(`${server.url}${page}`);
          return { cache: String(res.headers["x-cache"]), status: res.status, body: res.body.toString() };
        }),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      // An entry lives 1 s from its render's start and is renewed in its last 200 ms: a second
      // render when the 200 answers took that long (a slow machine) is the rule, not a second
      // flight; then the later answers carry the renewed page. Then try again.
      const misses = answers.filter((a) => a.cache === "MISS").length;
      const bodies = new Set(answers.map((a) => a.body)).size;
      if ((misses > 1 || bodies > 1) && Date.now() - started >= PAGE_TTL_MS - REFRESH_AHEAD_MS) continue;
      expect(misses).toBe(1);
      expect(answers.filter((a) => a.cache === "HIT")).toHaveLength(199);
      expect(bodies).toBe(1);
      return;
    }
    throw new Error("200 answers never came within one entry's life");
  });

  it("serves gzip and brotli, stored once, that decode to the same page", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const url = `${server.url}${productPath()}?enc=${attempt}`;
      const plain = await raw(url, { "accept-encoding": "identity" });
      const gz = await raw(url, { "accept-encoding": "gzip" });
      const br = await raw(url, { "accept-encoding": "gzip, deflate, br" });
      const head = await raw(url, { "accept-encoding": "br" }, "HEAD");
      // All from the one stored render (on a very slow machine it may have expired: try again).
      if ([gz, br, head].some((r) => r.headers["x-cache"] !== "HIT")) continue;
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(zlib.gunzipSync(gz.body).toString()).toBe(plain.body.toString());
      expect(zlib.brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
      expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
      expect(head.body.length).toBe(0);
      expect(Number(head.headers["content-length"])).toBe(br.body.length);
      expect(plain.body.toString()).toContain("Anillo Caché");
      return;
    }
    throw new Error("never got three hits from one stored render");
  });

  /** Pages the render thread drew so far (/metrics). */
  async function threadRenders(): Promise<number> {
    const res = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const line = (await res.text())
      .split("\n")
      .find((l) => l.startsWith('tienda_paginas_dibujadas_total{hilo="aparte"}'));
    return Number(line?.split(" ")[1] ?? 0);
  }

  it("a busy page is rendered on a thread of its own and is as fresh: a price within a second, Configuración at once", async () => {
    const page = productPath();
    // Asked for without a pause, as on drop day: its renewals start the render thread, which from
    // then on draws every page of the cache.
    await expect
      .poll(
        async () => {
          const until = Date.now() + 400;
          while (Date.now() < until) await (await get(page)).arrayBuffer();
          return threadRenders();
        },
        { timeout: 20_000, interval: 0 },
      )
      .toBeGreaterThan(0);
    const before = await threadRenders();

    await database.db
      .updateTable("products")
      .set({ price_cents: 480_000 })
      .where("id", "=", piece.id)
      .execute();
    expect(await staleUntil(page, (html) => html.includes("$4,800.00"), 3_000)).toBeLessThan(1_100);

    // The owner renames the shop: the next page shows it (the thread reads the new settings first).
    await (await get("/")).arrayBuffer();
    const saved = await fetch(`${server.url}/admin/settings`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: settingsFormBody(formValues(settingsFromEnvironment(loadConfig({}).shop)), {
        name: "Oro del Hilo Aparte",
      }),
    });
    expect(saved.status).toBe(302);
    const home = await get("/");
    expect(home.headers.get("x-cache")).toBe("MISS");
    expect(await home.text()).toContain("Oro del Hilo Aparte");
    expect(await (await get(page)).text()).toContain("Oro del Hilo Aparte");
    expect(await threadRenders()).toBeGreaterThan(before);
  });
});
