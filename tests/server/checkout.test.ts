import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { shopBrowser } from "../support/browser";
import { demoPayment, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-checkout-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describeEachDatabase("checkout through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let env: Record<string, string>;

  beforeAll(async () => {
    const migrated = await harness.fresh();
    // PostgreSQL needs the demo payment page asked for; on SQLite it is the default anyway.
    env = {
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    };
    server = await startServer(env);
    database = migrated;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const product = (stock: number, priceCents?: number) => runningPiece(database, { stock, priceCents });

  const checkout = (body: unknown) =>
    fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("many more buyers than pieces: exactly as many holds as pieces, every refusal a clear 409", async () => {
    const p = await product(10);
    const buyers = 80;
    const answers = await Promise.all(
      Array.from({ length: buyers }, () =>
        checkout({ cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: 1 }] }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { url?: string; message?: string },
        })),
      ),
    );
    const held = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409);
    expect(held).toHaveLength(10);
    expect(refused).toHaveLength(buyers - 10);
    expect(held.every((a) => a.body.url?.startsWith("/pago-demo/OL-"))).toBe(true);
    expect(
      refused.every((a) => a.body.message === "No hay piezas suficientes: Anillo Marea (agotado)."),
    ).toBe(true);
    expect(await p.stock()).toBe(0);
    const holds = await database.db
      .selectFrom("orders")
      .innerJoin("order_lines", "order_lines.order_id", "orders.id")
      .select("orders.id")
      .where("order_lines.product_id", "=", p.id)
      .where("orders.status", "=", "esperando_pago")
      .execute();
    expect(holds).toHaveLength(10);
    // Exactly the orders whose payment pages were handed out.
    expect(holds.map((h) => h.id).sort()).toEqual(held.map((a) => a.body.url?.split("/").pop()).sort());
  });

  it("a price, name or total forged by the client changes nothing", async () => {
    const p = await product(3, 1_250_000);
    const res = await checkout({
      cart: [
        {
          product: { id: p.id, price: 1, priceCents: 1, name: "Gratis" },
          dropId: p.dropId,
          quantity: 2,
          price: 1,
        },
      ],
      total: 1,
    });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    const orderId = url.split("/").pop() ?? "";
    const order = await database.db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", orderId)
      .executeTakeFirst();
    expect(order?.total_cents).toBe(2_500_000);
    const lines = await database.db
      .selectFrom("order_lines")
      .selectAll()
      .where("order_id", "=", orderId)
      .execute();
    expect(lines.map((l) => [l.name, l.unit_price_cents, l.quantity])).toEqual([
      ["Anillo Marea", 1_250_000, 2],
    ]);
  });

  it("malformed bodies get a 400 in Spanish and hold nothing", async () => {
    const p = await product(3);
    const bad = [
      "esto no es json",
      "",
      {},
      { cart: [] },
      { cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: 0 }] },
      { cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: 1.5 }] },
      { cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: "2" }] },
      { cart: [{ product: {}, dropId: p.dropId, quantity: 1 }] },
      { cart: Array.from({ length: 51 }, () => ({ product: { id: p.id }, dropId: p.dropId, quantity: 1 })) },
    ];
    for (const body of bad) {
      const res = await checkout(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(
        "El carrito no es válido. Revisa las piezas e intenta de nuevo.",
      );
    }
    // A well-formed id of no product: looked up, and not found.
    const unknown = await checkout({
      cart: [{ product: { id: newId() }, dropId: p.dropId, quantity: 1 }],
    });
    expect(unknown.status).toBe(409);
    expect(((await unknown.json()) as { message: string }).message).toBe(
      "Uno de los productos ya no existe.",
    );
    expect(await p.stock()).toBe(3);
    const get = await fetch(`${server.url}/api/checkout`);
    expect(get.status).toBe(405);
    // Ids are checked before they reach the database (a NUL byte breaks PostgreSQL's text).
    const nul = await checkout({ cart: [{ product: { id: "a\u0000" }, dropId: p.dropId, quantity: 1 }] });
    expect(nul.status).toBe(400);
    expect(await p.stock()).toBe(3);
  });

  /** Every order and its lines, to show that a refusal wrote nothing. */
  const allOrders = async () => ({
    orders: await database.db.selectFrom("orders").selectAll().orderBy("id").execute(),
    lines: await database.db
      .selectFrom("order_lines")
      .selectAll()
      .orderBy("order_id")
      .orderBy("position")
      .execute(),
  });

  it("an id of the wrong shape is refused before any query: the storefront's pages 404, the cart and checkout 400", async () => {
    const p = await product(3);
    // NUL would be an error on PostgreSQL if it reached a query; the others are simply not ids.
    const bad = ["%00", "a%00", "noexiste", "ABCDEFGHJKMNPQRS", `${p.id}x`, "x".repeat(300), "%27%3B--"];
    for (const id of bad) {
      for (const page of [
        `/coleccion/${id}`,
        `/drop/${id}/product/${p.id}`,
        `/drop/${p.dropId}/product/${id}`,
      ]) {
        const res = await fetch(`${server.url}${page}`);
        expect.soft(res.status, page.slice(0, 60)).toBe(404);
      }
    }
    // Well-formed ids that name nothing are looked up and not found; the real ones are there.
    expect((await fetch(`${server.url}/coleccion/${newId()}`)).status).toBe(404);
    expect((await fetch(`${server.url}/drop/${p.dropId}/product/${newId()}`)).status).toBe(404);
    expect((await fetch(`${server.url}/coleccion/${p.dropId}`)).status).toBe(200);
    expect((await fetch(`${server.url}/drop/${p.dropId}/product/${p.id}`)).status).toBe(200);

    for (const id of ["a\u0000", "noexiste", "ABCDEFGHJKMNPQRS", `${p.id}\n`, "x".repeat(300)]) {
      const cart = await fetch(
        `${server.url}/api/cart?${new URLSearchParams([
          ["id", p.id],
          ["id", id],
        ])}`,
      );
      expect.soft(cart.status, JSON.stringify(id)).toBe(400);
      expect.soft(await cart.json(), JSON.stringify(id)).toEqual({ message: "Solicitud inválida." });
      for (const line of [
        { product: { id }, dropId: p.dropId, quantity: 1 },
        { product: { id: p.id }, dropId: id, quantity: 1 },
      ]) {
        const res = await checkout({ cart: [line] });
        expect.soft(res.status, JSON.stringify(line)).toBe(400);
        expect
          .soft(((await res.json()) as { message: string }).message)
          .toBe("El carrito no es válido. Revisa las piezas e intenta de nuevo.");
      }
    }
    const known = await fetch(`${server.url}/api/cart?id=${p.id}&id=${newId()}`);
    expect(known.status).toBe(200);
    expect(((await known.json()) as { products: { id: string }[] }).products.map((x) => x.id)).toEqual([
      p.id,
    ]);
    expect(await p.stock()).toBe(3);
  });

  it("one order has at most 50 pieces of a product, 100 pieces and $999,999.99: the caps are taken, one more is a 400 that holds nothing", async () => {
    const line = (piece: { id: string; dropId: string }, quantity: number) => ({
      product: { id: piece.id },
      dropId: piece.dropId,
      quantity,
    });
    const refused = async (cart: unknown[], message: string) => {
      const before = await allOrders();
      const res = await checkout({ cart });
      expect(res.status, JSON.stringify(cart)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(message);
      expect(await allOrders()).toEqual(before);
    };
    const held = async (cart: unknown[]) => {
      const res = await checkout({ cart });
      const body = (await res.json()) as { url?: string; message?: string };
      expect(res.status, body.message).toBe(200);
      const orderId = body.url?.split("/").pop() ?? "";
      return database.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    };
    const PER_PRODUCT = "Puedes comprar hasta 50 piezas de un mismo producto por pedido.";
    const PER_ORDER = "Un pedido puede tener hasta 100 piezas: quita algunas del carrito.";
    const TOTAL = "El total de un pedido puede ser de hasta $999,999.99: quita algunas piezas del carrito.";

    // Pieces of one product: 50, not 51, also when the cart names it twice.
    const ring = await product(200, 1_000);
    await refused([line(ring, 51)], PER_PRODUCT);
    await refused([line(ring, 25), line(ring, 26)], PER_PRODUCT);
    expect(await ring.stock()).toBe(200);
    expect((await held([line(ring, 50)])).total_cents).toBe(50_000);
    expect(await ring.stock()).toBe(150);

    // Pieces in one order: 100, not 101.
    const a = await product(60, 1_000);
    const b = await product(60, 1_000);
    const c = await product(60, 1_000);
    await refused([line(a, 50), line(b, 50), line(c, 1)], PER_ORDER);
    expect([await a.stock(), await b.stock(), await c.stock()]).toEqual([60, 60, 60]);
    expect((await held([line(a, 50), line(b, 49), line(c, 1)])).total_cents).toBe(100_000);

    // The total: exactly one payment's worth is taken, one centavo more is refused.
    const top = await product(5, 99_999_999);
    const cent = await product(5, 1);
    await refused([line(top, 1), line(cent, 1)], TOTAL);
    // Before these caps, 22 pieces at the top price overflowed PostgreSQL's integer (a 500) while
    // SQLite stored the sum: now both refuse it alike.
    await refused([line(top, 22)], TOTAL);
    expect([await top.stock(), await cent.stock()]).toEqual([5, 5]);
    const order = await held([line(top, 1)]);
    expect(order.total_cents).toBe(99_999_999);
    expect(await top.stock()).toBe(4);
    const lines = await database.db
      .selectFrom("order_lines")
      .selectAll()
      .where("order_id", "=", order.id)
      .execute();
    expect(lines.map((l) => [l.unit_price_cents, l.quantity])).toEqual([[99_999_999, 1]]);
  });

  it("a checkout asked of any other address of the route (its data request, a GET) is a Spanish 405 that holds nothing", async () => {
    const p = await product(3);
    const cart = JSON.stringify({ cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: 1 }] });
    // Only POST /api/checkout takes a checkout, after the request limits and the proof of work. A
    // data request reaches the route's action through React Router (which encodes the answer).
    const data = await fetch(`${server.url}/api/checkout.data`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: cart,
    });
    expect(data.status).toBe(405);
    expect(await data.text()).toContain("Usa POST para iniciar el pago.");
    const get = await fetch(`${server.url}/api/checkout`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(((await get.json()) as { message: string }).message).toBe("Usa POST para iniciar el pago.");
    expect(await p.stock()).toBe(3);
    const orders = await database.db
      .selectFrom("order_lines")
      .select("order_id")
      .where("product_id", "=", p.id)
      .execute();
    expect(orders).toHaveLength(0);
  });

  it("only the shop's own pages can start a checkout, and bodies stay small", async () => {
    const p = await product(3);
    const body = JSON.stringify({ cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: 1 }] });
    // A cross-site form can post text/plain without asking the browser first: refused.
    const plain = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body,
    });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { message: string }).message).toBe("La solicitud debe ser JSON.");
    const crossSite = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://otro-sitio.example" },
      body,
    });
    expect(crossSite.status).toBe(403);
    const huge = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cart: [], padding: "x".repeat(300 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { message: string }).message).toBe("La solicitud es demasiado grande.");
    expect(await p.stock()).toBe(3);
    const sameSite = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body,
    });
    expect(sameSite.status).toBe(200);
  });

  it("a server killed between the hold and the payment: on restart the sweeper returns the stock", async () => {
    const p = await product(1);
    const res = await checkout({ cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: 1 }] });
    expect(res.status).toBe(200);
    expect(await p.stock()).toBe(0);
    server.child.kill("SIGKILL");
    await server.stop();
    // The shopper never paid, and the hold's half hour has passed.
    await database.db
      .updateTable("orders")
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where("status", "=", "esperando_pago")
      .execute();
    server = await startServer(env);
    await expect.poll(() => p.stock(), { timeout: 10_000 }).toBe(1);
  });

  it("the demo payment page refuses control characters in the shopper's details with a 400, storing nothing", async () => {
    const p = await product(3);
    const res = await checkout({ cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: 1 }] });
    const { url } = (await res.json()) as { url: string };
    const orderId = url.split("/").pop() ?? "";
    const good = demoPayment("Ana Pérez", "ana@example.mx");
    const row = () =>
      database.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    const before = await row();
    // PostgreSQL refuses NUL in text: before this check the payment answered 500 there.
    const bad: Record<string, string>[] = [
      { name: "Ana\u0000Pérez" },
      { name: "Ana Pérez\u0000" },
      { email: "ana\u0000@example.mx" },
      { line1: "Calle\u001b[31m 401" },
      { line2: "Cen\u0007tro" },
      { city: "Oaxaca\nde Juárez" },
      { state: "Oax\taca" },
      { phone: "951\n123 4567" },
      { state: "Oaxaca\u007f" },
    ];
    for (const change of bad) {
      const answer = await fetch(`${server.url}${url}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams({ ...good, ...change }),
      });
      const label = JSON.stringify(change);
      expect.soft(answer.status, label).toBe(400);
      expect.soft(await answer.text(), label).toContain("El texto contiene caracteres no permitidos.");
    }
    expect(await row()).toEqual(before);
    expect(before).toMatchObject({ status: "esperando_pago", customer_name: "", ship_line1: null });
    expect(await p.stock()).toBe(2);
    // The same details without them pay the order.
    const paid = await fetch(`${server.url}${url}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams(good),
    });
    expect(paid.status).toBe(302);
    expect(await row()).toMatchObject({ status: "pendiente", customer_name: "Ana Pérez" });
  });

  it("the demo page pays the order, or cancelling it puts the pieces back", async () => {
    const p = await product(3);
    // Each checkout from a browser of its own (the cookie its answer set), kept by payment page.
    const browsers = new Map<string, string>();
    const start = async () => {
      const res = await checkout({ cart: [{ product: { id: p.id }, dropId: p.dropId, quantity: 1 }] });
      const { url } = (await res.json()) as { url: string };
      browsers.set(url, (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "");
      return url;
    };
    const form = (fields: Record<string, string>, cookie = "") => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual" as const,
    });

    const payUrl = await start();
    expect(await p.stock()).toBe(2);
    const invalid = await fetch(
      `${server.url}${payUrl}`,
      form({ intent: "pay", name: "", email: "no", postalCode: "1" }),
    );
    expect(invalid.status).toBe(400);
    const paid = await fetch(`${server.url}${payUrl}`, form(demoPayment("Ana Pérez", "ana@example.mx")));
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).toBe("/success");
    const orderId = payUrl.split("/").pop() ?? "";
    const order = await database.db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", orderId)
      .executeTakeFirst();
    expect(order).toMatchObject({
      status: "pendiente",
      customer_name: "Ana Pérez",
      customer_email: "ana@example.mx",
      ship_line1: "Calle Macedonio Alcalá 401",
      ship_postal_code: "68000",
      ship_phone: "951 123 4567",
      ship_country: "MX",
    });

    // Coming back to /cancel from the payment page returns a waiting order's pieces at once, in
    // the browser that started the checkout only.
    const leftUrl = await start();
    expect(await p.stock()).toBe(1);
    const elsewhere = await fetch(
      `${server.url}${leftUrl}`,
      form({ intent: "cancel" }, await shopBrowser(server.url)),
    );
    expect(elsewhere.headers.get("location")).toBe(`/cancel?pedido=${leftUrl.split("/").pop()}`);
    const notHers = await fetch(`${server.url}${elsewhere.headers.get("location")}`);
    expect(await notHers.text()).toContain("no corresponde a un pago iniciado en este navegador");
    expect(await p.stock()).toBe(1);
    const left = await fetch(`${server.url}${leftUrl}`, form({ intent: "cancel" }, browsers.get(leftUrl)));
    expect(left.headers.get("location")).toMatch(/^\/cancel\?pedido=OL-\w+&firma=[\w-]{43}$/);
    expect(await p.stock()).toBe(1);
    const back = await fetch(`${server.url}${left.headers.get("location")}`, {
      headers: { cookie: browsers.get(leftUrl) ?? "" },
    });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("No se hizo ningún cargo");
    expect(await p.stock()).toBe(2);

    // An empty or odd post answers 400, never 500; an unknown order 404.
    const emptyPost = await fetch(`${server.url}${await start()}`, { method: "POST", redirect: "manual" });
    expect(emptyPost.status).toBe(400);
    expect((await fetch(`${server.url}/pago-demo/OL-NOEXISTE`, form({ intent: "pay" }))).status).toBe(404);
    expect((await fetch(`${server.url}/pago-demo/%00`)).status).toBe(404);

    const cancelUrl = await start(); // the empty post above still holds one piece
    expect(await p.stock()).toBe(0);
    const cancelled = await fetch(
      `${server.url}${cancelUrl}`,
      form({ intent: "cancel" }, browsers.get(cancelUrl)),
    );
    expect(cancelled.status).toBe(302);
    expect(cancelled.headers.get("location")).toMatch(/^\/cancel\?pedido=OL-/);
    await fetch(`${server.url}${cancelled.headers.get("location")}`, {
      headers: { cookie: browsers.get(cancelUrl) ?? "" },
    });
    expect(await p.stock()).toBe(1);
    // An expired session cannot be paid afterwards.
    const late = await fetch(`${server.url}${cancelUrl}`, form(demoPayment("Ana", "ana@example.mx")));
    expect(late.status).toBe(302);
    expect(late.headers.get("location")).toBe(cancelUrl);
    const cancelledId = cancelUrl.split("/").pop() ?? "";
    const cancelledOrder = await database.db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", cancelledId)
      .executeTakeFirst();
    expect(cancelledOrder?.status).toBe("expirado");

    // A hold whose time is up cannot be paid even before the sweeper has run: the pieces go back.
    const overdueUrl = await start();
    const overdueId = overdueUrl.split("/").pop() ?? "";
    const stockWhileHeld = await p.stock();
    await database.db
      .updateTable("orders")
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "=", overdueId)
      .execute();
    const overdue = await fetch(`${server.url}${overdueUrl}`, form(demoPayment("Ana", "ana@example.mx")));
    expect(overdue.status).toBe(302);
    expect(overdue.headers.get("location")).toBe(overdueUrl);
    const overdueOrder = await database.db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", overdueId)
      .executeTakeFirst();
    expect(overdueOrder?.status).toBe("expirado");
    expect(await p.stock()).toBe((stockWhileHeld ?? 0) + 1);
    expect(await (await fetch(`${server.url}${overdueUrl}`)).text()).toContain("Este pago ya expiró");
  });
});
