import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { LIMIT_RULES } from "~/rate-limits/request-limits.server";
import { shopBrowser, shopBrowsers } from "../support/browser";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * Drop day's checkout rules over HTTP, with the request limits on and two app servers on one
 * database (decision 15): a browser holds one checkout, its allowance of attempts is the shop's,
 * a crowd behind one address still buys, and the owner's 'Máximo N por persona' is said in Spanish.
 * The proof of work is off here (its own tests are in request-limits.test.ts): every request that
 * passes the limits reaches the hold.
 */
vi.setConfig({ testTimeout: 180_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-rules-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describeEachDatabase("checkout rules over HTTP", (harness) => {
  let database: Database;
  let first: RunningServer;
  let second: RunningServer;

  beforeAll(async () => {
    database = await harness.fresh();
    const env = (name: string) => ({
      DATA_DIR: path.join(tmp, `${harness.dialect}-${name}`),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      REQUEST_LIMITS: "true",
      CHECKOUT_CHALLENGE: "false",
    });
    first = await startServer(env("a"));
    second = await startServer(env("b"));
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  async function checkout(
    server: RunningServer,
    cookie: string,
    piece: { id: string; dropId: string },
    quantity = 1,
  ) {
    const res = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie },
      body: JSON.stringify({ cart: [{ product: { id: piece.id }, dropId: piece.dropId, quantity }] }),
    });
    const body = (await res.json()) as { url?: string; message?: string };
    return { status: res.status, ...body };
  }

  const waitingOf = (dropId: string) =>
    database.db
      .selectFrom("orders")
      .innerJoin("order_lines", "order_lines.order_id", "orders.id")
      .select(["orders.id", "orders.checkout_browser"])
      .where("order_lines.drop_id", "=", dropId)
      .where("orders.status", "=", "esperando_pago")
      .execute();

  it("one browser cannot hold two checkouts: a new cart releases the first, on either server; the same piece is never held anew", async () => {
    const piece = await runningPiece(database, { stock: 5 });
    const other = await runningPiece(database, { stock: 5, name: "Arete Marea" });
    const browser = await shopBrowser(first.url);
    const a = await checkout(first, browser, piece, 2);
    expect(a.status).toBe(200);
    expect(await piece.stock()).toBe(3);
    // Asked again for the pieces it holds: sent back to its payment page, nothing renewed.
    const again = await checkout(second, browser, piece, 1);
    expect(again.status).toBe(409);
    expect(await piece.stock()).toBe(3);
    const b = await checkout(second, browser, other, 1);
    expect(b.status).toBe(200);
    expect(await piece.stock()).toBe(5);
    expect(await other.stock()).toBe(4);
    expect(await waitingOf(other.dropId)).toHaveLength(1);

    // Two taps at once, one per server: one hold stands, no piece is lost.
    const both = await Promise.all([checkout(first, browser, piece), checkout(second, browser, piece)]);
    expect(both.some((r) => r.status === 200)).toBe(true);
    for (const r of both.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect([
        "Ya tienes un pago en curso en otra ventana. Termínalo ahí o intenta de nuevo en unos segundos.",
        "Ya tienes estas piezas apartadas. Termina tu pago: no se pueden apartar de nuevo.",
      ]).toContain(r.message);
    }
    expect(await waitingOf(piece.dropId)).toHaveLength(1);
    expect(await waitingOf(other.dropId)).toHaveLength(0);
    expect(await piece.stock()).toBe(4);
  });

  it("200 checkouts of real pieces from one browser in a minute: 429s past its allowance, and one hold at the end", async () => {
    const piece = await runningPiece(database, { stock: 50 });
    const browser = await shopBrowser(first.url);
    const answers = [];
    for (let i = 0; i < 200; i++) answers.push(await checkout(i % 2 ? first : second, browser, piece));
    const allowed = LIMIT_RULES.checkout.browser.points;
    // One hold; every other allowed one is sent back to its payment page (409): nothing renewed.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(allowed - 1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(200 - allowed);
    expect(await waitingOf(piece.dropId)).toHaveLength(1);
    expect(await piece.stock()).toBe(49);
  });

  it("a crowd of 300 browsers behind one address each hold their piece", async () => {
    const piece = await runningPiece(database, { stock: 300 });
    const crowd = await shopBrowsers(first.url, 300);
    const answers: number[] = [];
    // Twenty at a time, as a carrier's crowd arrives.
    for (let i = 0; i < crowd.length; i += 20) {
      const batch = crowd.slice(i, i + 20);
      answers.push(
        ...(await Promise.all(batch.map((b, j) => checkout(j % 2 ? first : second, b, piece)))).map(
          (r) => r.status,
        ),
      );
    }
    expect(answers.filter((s) => s === 200)).toHaveLength(300);
    expect(await piece.stock()).toBe(0);
    expect(new Set((await waitingOf(piece.dropId)).map((o) => o.checkout_browser)).size).toBe(300);
  });

  it("'Máximo 2 por persona': a third piece is refused with a Spanish 400, and nothing is held", async () => {
    const piece = await runningPiece(database, { stock: 10, maxPerOrder: 2 });
    const refused = await checkout(first, await shopBrowser(first.url), piece, 3);
    expect(refused).toEqual({
      status: 400,
      message: "Máximo 2 por persona en Mareas: deja hasta 2 piezas de esta colección en tu carrito.",
    });
    expect(await piece.stock()).toBe(10);
    expect((await checkout(second, await shopBrowser(second.url), piece, 2)).status).toBe(200);
    expect(await piece.stock()).toBe(8);
  });
});
