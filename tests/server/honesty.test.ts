import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { shopBrowser } from "../support/browser";
import { demoPayment, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * What the shop tells a shopper about her order and about pieces others hold: /success shows the
 * order only to the browser that paid; a piece held by an unpaid checkout reads 'Apartado'.
 */

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-honesty-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const HELD = "Apartado — puede volver a estar disponible";

describeEachDatabase("honest pages through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  /** Two browsers' cookies, from the shop. */
  let ANA: string;
  let LUZ: string;

  beforeAll(async () => {
    database = await harness.fresh();
    server = await startServer({
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    ANA = await shopBrowser(server.url);
    LUZ = await shopBrowser(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (pathname: string, cookie = "") =>
    fetch(`${server.url}${pathname}`, { redirect: "manual", headers: { cookie } });
  const checkout = async (piece: { id: string; dropId: string }, cookie: string) => {
    const res = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ cart: [{ product: { id: piece.id }, dropId: piece.dropId, quantity: 1 }] }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { url: string }).url;
  };
  const pay = (payUrl: string, cookie: string) =>
    fetch(`${server.url}${payUrl}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie },
      body: new URLSearchParams(demoPayment("Ana Pérez", "ana@example.mx")).toString(),
      redirect: "manual",
    });
  /** Polls a page (cached up to 1 s) until its body passes `check`. */
  async function eventually(pathname: string, check: (html: string) => boolean): Promise<string> {
    const started = Date.now();
    let html = "";
    while (Date.now() - started < 2_500) {
      html = await (await get(pathname)).text();
      if (check(html)) return html;
      await new Promise((r) => setTimeout(r, 50));
    }
    return html;
  }

  it("/success shows the order only in the browser that paid, from its signed link", async () => {
    const piece = await runningPiece(database, { stock: 3, priceCents: 450_000 });
    const payUrl = await checkout(piece, ANA);
    const orderId = payUrl.split("/").pop() ?? "";
    const paid = await pay(payUrl, ANA);
    expect(paid.status).toBe(302);
    const link = paid.headers.get("location") ?? "";
    expect(link).toMatch(new RegExp(`^/success\\?pedido=${orderId}&firma=[\\w-]{43}$`));

    const hers = await get(link, ANA);
    expect(hers.status).toBe(200);
    expect(hers.headers.get("cache-control")).toBe("private, no-store");
    expect(hers.headers.get("x-cache")).toBeNull();
    const html = await hers.text();
    expect(html).toContain("¡Gracias por tu compra!");
    expect(html).toContain(orderId);
    expect(html).toContain("Anillo Marea<!-- --> × <!-- -->1");
    expect(html).toContain("$4,500.00");
    expect(html).toContain("Enviamos la confirmación a ana@example.mx.");

    // The same link in another browser, without a cookie, or with its signature changed; the
    // bare order id; the /cancel signature of the same order: the thanks, without any detail.
    const cancelSigned = await fetch(`${server.url}${payUrl}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie: ANA },
      body: "intent=cancel",
      redirect: "manual",
    });
    const cancelFirma = new URL(`${server.url}${cancelSigned.headers.get("location")}`).searchParams.get(
      "firma",
    );
    const others = [
      [link, LUZ],
      [link, ""],
      // Its first character changed (to another one: a signature may well start with "A").
      [link.replace(/firma=(.)/, (_, c: string) => `firma=${c === "A" ? "B" : "A"}`), ANA],
      [`/success?pedido=${orderId}`, ANA],
      [`/success?pedido=${orderId}&firma=${cancelFirma ?? "x"}`, ANA],
      ["/success", ANA],
      ["/success?pedido=%00&firma=x", ANA],
    ] as const;
    // Paid from a request without the browser cookie: nobody can be told apart, so no details.
    const anonymous = await pay(await checkout(piece, ANA), "");
    expect(anonymous.headers.get("location")).toBe("/success");
    for (const [pathname, cookie] of others) {
      const res = await get(pathname, cookie);
      expect(res.status, pathname).toBe(200);
      const page = await res.text();
      expect(page, `${pathname} ${cookie}`).toContain("¡Gracias por tu compra!");
      expect(page, `${pathname} ${cookie}`).not.toContain(orderId);
      expect(page, `${pathname} ${cookie}`).not.toContain("ana@example.mx");
    }
  });

  it("a piece held by another shopper's checkout reads 'Apartado'; sold, 'Producto agotado'", async () => {
    const piece = await runningPiece(database, { stock: 1, name: "Arete Espuma" });
    const productPath = `/drop/${piece.dropId}/product/${piece.id}`;
    const collectionPath = `/coleccion/${piece.dropId}`;
    expect(await (await get(productPath)).text()).toContain("Queda 1");

    const payUrl = await checkout(piece, LUZ);
    expect(await piece.stock()).toBe(0);
    // The cached pages catch up within a second, for everyone alike.
    expect(await eventually(productPath, (h) => h.includes(HELD))).toContain(HELD);
    expect(await eventually(collectionPath, (h) => h.includes(HELD))).toContain(HELD);
    const cart = await (await get(`/api/cart?id=${piece.id}`, ANA)).json();
    expect(cart).toMatchObject({ products: [{ id: piece.id, stock: 0, held: 1, purchasable: true }] });

    expect((await pay(payUrl, LUZ)).status).toBe(302);
    const sold = await eventually(productPath, (h) => !h.includes(HELD));
    expect(sold).not.toContain(HELD);
    expect(sold).toContain("Producto agotado");
    expect(await eventually(collectionPath, (h) => !h.includes(HELD))).toContain("Producto agotado");
    expect(await (await get(`/api/cart?id=${piece.id}`, ANA)).json()).toMatchObject({
      products: [{ id: piece.id, stock: 0, held: 0 }],
    });
  });

  it("the legal pages are public, cached, in the sitemap; an unknown address has a title", async () => {
    for (const pathname of [
      "/aviso-de-privacidad",
      "/envios",
      "/cambios-y-devoluciones",
      "/terminos-y-condiciones",
    ]) {
      const first = await get(pathname);
      expect(first.status, pathname).toBe(200);
      expect(first.headers.get("x-cache"), pathname).toBe("MISS");
      expect((await get(pathname)).headers.get("x-cache"), pathname).toBe("HIT");
      // The model text is the owner's to adapt (her set-up checklist says so): shoppers read none of it.
      const html = await first.text();
      expect(html, pathname).not.toContain("Texto modelo");
      expect(html, pathname).not.toContain("[Dueño");
    }
    const privacy = await (await get("/aviso-de-privacidad")).text();
    for (const part of [
      "Derechos ARCO",
      "Datos que recabamos",
      "Finalidades",
      "Transferencias",
      "Cambios a este aviso",
    ]) {
      expect(privacy).toContain(part);
    }
    const sitemap = await (await get("/sitemap.xml")).text();
    expect(sitemap).toContain("/aviso-de-privacidad</loc>");
    expect(sitemap).toContain("/terminos-y-condiciones</loc>");
    const missing = await get("/no-existe-esta-pagina");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("<title>Página no encontrada</title>");
  });
});
