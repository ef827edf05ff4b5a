import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import type { Database } from "~/db/database.server";
import { confirmPayment } from "~/orders/payment.server";
import { signInAdmin } from "../support/admin-http";
import { runningPiece } from "../support/catalogue";
import { sqliteHarness } from "../support/databases";
import { hold } from "../support/orders";
import { visibleText } from "../support/page-text";
import { type RunningServer, startServer } from "../support/server-process";

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-reports-"));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const EVIL = "https://evil.example";

// Reading a report changes nothing, so one database is enough here; the figures themselves are
// checked on both databases in tests/db/reports.db.test.ts.
describe("Reportes through HTTP", () => {
  let server: RunningServer;
  let database: Database;
  let cookie = "";
  let dropId = "";

  beforeAll(async () => {
    const harness = sqliteHarness(cleanups);
    database = await harness.fresh();
    dropId = (await runningPiece(database, { stock: 3, name: '=HYPERLINK("x")' })).dropId;
    server = await startServer({
      DATA_DIR: path.join(tmp, "data"),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (pathname: string, headers: Record<string, string> = { cookie }) =>
    fetch(`${server.url}${pathname}`, { redirect: "manual", headers });

  it("signed out: the CSV answers 401 (not the sign-in page), the page sends to /login", async () => {
    for (const pathname of ["/admin/reports.csv", `/admin/reports.csv?coleccion=${dropId}`]) {
      const res = await get(pathname, {});
      expect(res.status, pathname).toBe(401);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(((await res.json()) as { message: string }).message).toBe(
        "Tu sesión terminó. Inicia sesión de nuevo.",
      );
    }
    const page = await get("/admin/reports?mes=2026-10", {});
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/admin/reports?mes=2026-10")}`,
    );
    const post = await fetch(`${server.url}/admin/reports.csv`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url },
    });
    expect(post.status).toBe(401);
  });

  it("from another site, even with a session: 403", async () => {
    const foreign: Record<string, string>[] = [
      { cookie, origin: EVIL },
      { cookie, "sec-fetch-site": "cross-site" },
    ];
    for (const headers of foreign) {
      const res = await fetch(`${server.url}/admin/reports.csv`, {
        method: "POST",
        redirect: "manual",
        headers,
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    // From the shop itself the address still takes no form.
    const own = await fetch(`${server.url}/admin/reports.csv`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url },
    });
    expect(own.status).toBe(405);
  });

  it("signed in: the page and its CSV; a bad filter is a Spanish 400, an unknown drop a 404", async () => {
    const page = await get(`/admin/reports?coleccion=${dropId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(await page.text()).toContain("Piezas de la colección");

    const csv = await get(`/admin/reports.csv?coleccion=${dropId}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(
      /^attachment; filename="reporte-coleccion-[\d-]+\.csv"$/,
    );
    expect(csv.headers.get("cache-control")).toContain("no-store");
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain('"Ventas netas (MXN)","0.00"');
    // A piece named like a formula reaches the spreadsheet as text.
    expect(text).toContain('"Mareas","\'=HYPERLINK(""x"")","0","0.00","3","0 %","Sin agotar"');

    const badMonth = await get("/admin/reports.csv?mes=octubre");
    expect(badMonth.status).toBe(400);
    expect(await badMonth.text()).toBe("Mes no válido: usa el formato AAAA-MM (por ejemplo 2026-10).");
    const badPage = await get("/admin/reports?mes=2026-13");
    expect(badPage.status).toBe(400);
    expect(await badPage.text()).toContain("Mes no válido");
    expect((await get("/admin/reports.csv?coleccion=nohaytal")).status).toBe(404);
    expect((await get("/admin/reports?coleccion=nohaytal")).status).toBe(404);
  });

  it("a sized ring's sizes under its row: sold and left of each, on the page and in the CSV", async () => {
    const sized = await createDrop(database.db, {
      name: "Anillos por talla",
      status: "activa",
      startAt: new Date(Date.now() - 3_600_000),
      endAt: new Date(Date.now() + 3_600_000),
      products: [
        {
          name: "Anillo Marea",
          categoria: "Anillo",
          material: "Oro amarillo",
          priceCents: 450_000,
          stock: 0,
          imageId: null,
          option: {
            name: "Talla",
            values: [
              { value: "7", stock: 2 },
              { value: "8", stock: 1 },
            ],
          },
        },
      ],
    });
    const ring = (await getDrop(database.db, sized))?.products[0];
    const seven = ring?.option?.values.find((v) => v.value === "7")?.id ?? "";
    const order = await hold(database.db, {
      lines: [{ productId: ring?.id ?? "", dropId: sized, quantity: 1, optionId: seven }],
      provider: "demo",
    });
    await confirmPayment(database.db, {
      orderId: order.id,
      customerName: "Ana",
      customerEmail: "ana@example.mx",
    });

    const text = visibleText(await (await get(`/admin/reports?coleccion=${sized}`)).text());
    // Under the ring (1 sold of 3): size 7, 1 sold of 2 offered (50 %), 1 left; size 8, none sold, 1 left.
    // (The size row names its piece for a screen reader, unseen.)
    expect(text).toContain(
      "Anillo Marea 1 3 33.3 % $4,500.00 Sin agotar Anillo Marea , Talla 7 1 2 50 % $4,500.00 Quedan 1",
    );
    expect(text).toContain("Anillo Marea , Talla 8 0 1 0 % $0.00 Quedan 1");
    expect(text).toContain("Talla 7: 1 vendida · quedan 1; Talla 8: 0 vendidas · quedan 1");
    const csv = await (await get(`/admin/reports.csv?coleccion=${sized}`)).text();
    expect(csv).toContain('"Anillos por talla","Anillo Marea","1","4500.00","2","50 %","","Talla 7","1"');
  });

  /** The text of every script a page's HTML loads (entry, route modules, their preloads). */
  async function scriptsOf(pathname: string, headers: Record<string, string> = {}): Promise<string[]> {
    const html = await (await get(pathname, headers)).text();
    const urls = [...new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? [])];
    expect(urls.length, pathname).toBeGreaterThan(0);
    return Promise.all(urls.map(async (url) => (await get(url, {})).text()));
  }

  it("uPlot stays in the admin bundle: no public page's JavaScript carries it, the report page loads it", async () => {
    for (const pathname of ["/", "/colecciones", `/coleccion/${dropId}`, "/nosotros"]) {
      for (const script of await scriptsOf(pathname))
        expect(script.toLowerCase(), pathname).not.toContain("uplot");
    }
    const admin = await scriptsOf("/admin/reports", { cookie });
    expect(admin.some((script) => script.includes("uPlot.esm"))).toBe(true);
  });
});
