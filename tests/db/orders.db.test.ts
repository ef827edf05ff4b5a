import { expect, it } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import type { Database } from "~/db/database.server";
import { expiredHolds, HOLD_MINUTES, holdCart, releaseHold } from "~/orders/holds.server";
import { isOrderId } from "~/orders/ids";
import { confirmPayment, recordPaymentEvent } from "~/orders/payment.server";
import { getOrder } from "~/orders/queries.server";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

const HOUR = 3_600_000;

async function shopWith(database: Database, stocks: number[], timing: "running" | "ended" = "running") {
  const now = Date.now();
  const id = await createDrop(database.db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(now - HOUR),
    endAt: timing === "running" ? new Date(now + HOUR) : new Date(now - HOUR / 2),
    products: stocks.map((stock, i) => ({
      name: `Pieza ${i + 1}`,
      categoria: "Anillo" as const,
      material: "Oro rosa" as const,
      priceCents: 100_000 * (i + 1),
      stock,
      imageId: null,
    })),
  });
  const drop = await getDrop(database.db, id);
  const products = drop?.products ?? [];
  const stockOf = async (i: number) => (await getDrop(database.db, id))?.products[i]?.stock;
  const line = (i: number, quantity: number) => ({ productId: products[i]?.id ?? "", dropId: id, quantity });
  return { dropId: id, products, stockOf, line };
}

describeEachDatabase("orders and stock holds", (harness) => {
  it("a hold takes the pieces and records an order at database prices", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [3, 5]);
    const order = await hold(database.db, {
      lines: [shop.line(0, 2), shop.line(1, 1)],
      provider: "demo",
    });
    expect(order.totalCents).toBe(2 * 100_000 + 200_000);
    expect(await shop.stockOf(0)).toBe(1);
    expect(await shop.stockOf(1)).toBe(4);
    const stored = await getOrder(database.db, order.id);
    expect(stored?.status).toBe("esperando_pago");
    // Nothing known yet about the payment session, the address or stock problems.
    expect(stored).toMatchObject({ paymentSessionId: null, stockIssue: null, shipping: null });
    expect(stored?.lines).toEqual([
      { name: "Pieza 1", quantity: 2, unitPriceCents: 100_000, edition: null, missing: 0 },
      { name: "Pieza 2", quantity: 1, unitPriceCents: 200_000, edition: null, missing: 0 },
    ]);
    expect(order.expiresAt.getTime() - Date.now()).toBeGreaterThan((HOLD_MINUTES - 1) * 60_000);
    expect(order.id).toMatch(/^OL-[A-Z0-9]{8}$/);
    expect(isOrderId(order.id)).toBe(true);
    for (const bad of ["OL-ABC", "ol-abcd1234", "OL-ABCD12345", "OL-ABCD1234\n", "xOL-ABCD1234"]) {
      expect(isOrderId(bad), bad).toBe(false);
    }
  });

  it("a short line refuses the whole cart, names what is left, and holds nothing", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [3, 1, 0]);
    const attempt = await holdCart(database.db, {
      lines: [shop.line(0, 2), shop.line(1, 2), shop.line(2, 1)],
      provider: "demo",
    });
    expect(attempt).toEqual({
      ok: false,
      reason: "sin_stock",
      message: "No hay piezas suficientes: Pieza 2 (quedan 1), Pieza 3 (agotado).",
    });
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([3, 1]);
    expect(await database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("the same piece twice in a cart counts as one line", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [3]);
    const attempt = await holdCart(database.db, {
      lines: [shop.line(0, 2), shop.line(0, 2)],
      provider: "demo",
    });
    expect(attempt.ok ? "" : attempt.message).toContain("quedan 3");
    expect(await shop.stockOf(0)).toBe(3);
  });

  it("pieces of a drop that is not running cannot be held", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [3], "ended");
    const attempt = await holdCart(database.db, { lines: [shop.line(0, 1)], provider: "demo" });
    expect(attempt).toMatchObject({ ok: false, reason: "coleccion_cerrada" });
    expect(attempt.ok ? "" : attempt.message).toContain("Ya no se puede comprar: Pieza 1");
    expect(await shop.stockOf(0)).toBe(3);
  });

  it("many shoppers at once for a few pieces: exactly as many holds as pieces", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [5]);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => holdCart(database.db, { lines: [shop.line(0, 1)], provider: "demo" })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok && r.reason === "sin_stock")).toHaveLength(35);
    expect(await shop.stockOf(0)).toBe(0);
  });

  it("releasing a hold returns its pieces once, however often it is called", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [2]);
    const order = await hold(database.db, { lines: [shop.line(0, 2)], provider: "demo" });
    expect(await releaseHold(database.db, order.id)).toBe(true);
    expect(await releaseHold(database.db, order.id)).toBe(false);
    expect(await shop.stockOf(0)).toBe(2);
    expect((await getOrder(database.db, order.id))?.status).toBe("expirado");
  });

  it("a payment confirmed twice makes one paid order", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [2]);
    const order = await hold(database.db, { lines: [shop.line(0, 1)], provider: "demo" });
    const paid = { orderId: order.id, customerName: "Ana Pérez", customerEmail: "ana@example.mx" };
    expect(await confirmPayment(database.db, paid)).toBe("paid");
    expect(await confirmPayment(database.db, paid)).toBe("already_paid");
    expect(await releaseHold(database.db, order.id)).toBe(false); // a late expiry changes nothing
    const stored = await getOrder(database.db, order.id);
    expect(stored).toMatchObject({
      status: "pendiente",
      customerName: "Ana Pérez",
      customerEmail: "ana@example.mx",
    });
    expect(await shop.stockOf(0)).toBe(1);
  });

  it("a payment after expiry takes the pieces again, or keeps the order without going below zero", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [1]);
    const first = await hold(database.db, { lines: [shop.line(0, 1)], provider: "demo" });
    await releaseHold(database.db, first.id);
    expect(await shop.stockOf(0)).toBe(1);
    const paid = { orderId: first.id, customerName: "Ana", customerEmail: "ana@example.mx" };
    expect(await confirmPayment(database.db, paid)).toBe("paid_after_expiry");
    expect(await shop.stockOf(0)).toBe(0);

    const second = await shopWith(database, [1]);
    const late = await hold(database.db, { lines: [second.line(0, 1)], provider: "demo" });
    await releaseHold(database.db, late.id);
    await hold(database.db, { lines: [second.line(0, 1)], provider: "demo" }); // someone else takes it
    // Its only piece gone: nothing to send, so it is cancelled with its refund to ask (decision 37).
    expect(await confirmPayment(database.db, { ...paid, orderId: late.id })).toBe("cancelled_sold_out");
    expect(await second.stockOf(0)).toBe(0);
    expect(await getOrder(database.db, late.id)).toMatchObject({
      status: "cancelado",
      stockIssue: null,
      cancellation: expect.objectContaining({ soldOut: true, refund: "pendiente" }),
    });
    expect((await getOrder(database.db, first.id))?.stockIssue).toBeNull();
  });

  it("a payment racing a release: the order ends paid with its piece sold, every time", async () => {
    const database = await harness.fresh();
    for (let round = 0; round < 15; round++) {
      const shop = await shopWith(database, [1]);
      const order = await hold(database.db, { lines: [shop.line(0, 1)], provider: "demo" });
      const paid = { orderId: order.id, customerName: "Ana", customerEmail: "ana@example.mx" };
      await Promise.all([confirmPayment(database.db, paid), releaseHold(database.db, order.id)]);
      expect((await getOrder(database.db, order.id))?.status).toBe("pendiente");
      expect(await shop.stockOf(0)).toBe(0);
    }
  });

  it("two confirmations of an expired order at once take its pieces once", async () => {
    const database = await harness.fresh();
    for (let round = 0; round < 15; round++) {
      const shop = await shopWith(database, [2]);
      const order = await hold(database.db, { lines: [shop.line(0, 1)], provider: "demo" });
      await releaseHold(database.db, order.id);
      const paid = { orderId: order.id, customerName: "Ana", customerEmail: "ana@example.mx" };
      const outcomes = await Promise.all([
        confirmPayment(database.db, paid),
        confirmPayment(database.db, paid),
      ]);
      expect(outcomes.sort()).toEqual(["already_paid", "paid_after_expiry"]);
      expect(await shop.stockOf(0)).toBe(1);
    }
  });

  it("carts with the same pieces in opposite orders never deadlock", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [100, 100]);
    const carts = Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0 ? [shop.line(0, 1), shop.line(1, 1)] : [shop.line(1, 1), shop.line(0, 1)],
    );
    const results = await Promise.allSettled(
      carts.map((lines) => hold(database.db, { lines, provider: "demo" })),
    );
    expect(
      results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason)),
    ).toEqual([]);
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([70, 70]);
  });

  it("expired holds are found for the sweeper; payment events are recorded once", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [3]);
    const order = await hold(database.db, { lines: [shop.line(0, 1)], provider: "demo" });
    expect(await expiredHolds(database.db, new Date())).toEqual([]);
    const later = new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000);
    expect((await expiredHolds(database.db, later)).map((o) => o.id)).toEqual([order.id]);
    expect(await recordPaymentEvent(database.db, "evt_1", "checkout.session.completed")).toBe(true);
    expect(await recordPaymentEvent(database.db, "evt_1", "checkout.session.completed")).toBe(false);
  });
});
