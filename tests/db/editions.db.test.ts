import { expect, it } from "vitest";
import type { Database } from "~/db/database.server";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import { editionText } from "~/orders/editions.server";
import { confirmPayment } from "~/orders/payment.server";
import { getOrder } from "~/orders/queries.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

/*
 * Numbered pieces (issue 24): each paid unit of a limited edition gets its number at payment,
 * unique and gapless among the paid units, however many payments race.
 */

async function edition(database: Database, size: number, options: { maxPerOrder?: number } = {}) {
  const piece = await runningPiece(database, { stock: size, ...options });
  await database.db.updateTable("products").set({ edition_size: size }).where("id", "=", piece.id).execute();
  return piece;
}

const pay = (database: Database, orderId: string, email: string) =>
  confirmPayment(database.db, { orderId, customerName: "Compradora", customerEmail: email });

describeEachDatabase("numbered pieces", (harness) => {
  it("31 payments racing for a 32-piece edition number its units 1 to 32, each once; an order of two gets two in a row", async () => {
    const database = await harness.fresh();
    const piece = await edition(database, 32);
    const line = (quantity: number) => [{ productId: piece.id, dropId: piece.dropId, quantity }];
    const orders = [];
    for (let i = 0; i < 30; i++) orders.push(await hold(database.db, { lines: line(1), provider: "demo" }));
    const pair = await hold(database.db, { lines: line(2), provider: "demo" });
    const outcomes = await Promise.all(
      [...orders, pair].map((order, i) => pay(database, order.id, `compradora-${i}@example.com`)),
    );
    expect(new Set(outcomes)).toEqual(new Set(["paid"]));
    const numbers = await database.db
      .selectFrom("edition_numbers")
      .select(["number", "order_id"])
      .where("product_id", "=", piece.id)
      .orderBy("number")
      .execute();
    expect(numbers.map((n) => n.number)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    const perOrder = new Map<string, number[]>();
    for (const n of numbers) perOrder.set(n.order_id, [...(perOrder.get(n.order_id) ?? []), n.number]);
    for (const order of orders) expect(perOrder.get(order.id)).toHaveLength(1);
    const two = perOrder.get(pair.id) ?? [];
    expect(two).toHaveLength(2);
    expect((two[1] ?? 0) - (two[0] ?? 0)).toBe(1);
    // What the order, its e-mail and the desk say of it.
    expect((await getOrder(database.db, pair.id))?.lines[0]?.edition).toBe(
      `Piezas ${two[0]} y ${two[1]} de 32`,
    );
    expect((await getOrder(database.db, orders[0]?.id ?? ""))?.lines[0]?.edition).toMatch(
      /^Pieza \d+ de 32$/,
    );
    expect(editionText([1, 2, 3], 30)).toBe("Piezas 1, 2 y 3 de 30");
    // A confirmation replayed numbers nothing again.
    expect(await pay(database, pair.id, "compradora-30@example.com")).toBe("already_paid");
    expect(
      await database.db
        .selectFrom("edition_numbers")
        .select("number")
        .where("order_id", "=", pair.id)
        .execute(),
    ).toHaveLength(2);
  });

  it("an order cancelled over the per-person limit gets no number, and leaves no gap", async () => {
    const database = await harness.fresh();
    const piece = await edition(database, 5, { maxPerOrder: 1 });
    const line = [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }];
    const first = await hold(database.db, { lines: line, provider: "demo" });
    const second = await hold(database.db, { lines: line, provider: "demo" });
    const third = await hold(database.db, { lines: line, provider: "demo" });
    expect(await pay(database, first.id, "ana@example.com")).toBe("paid");
    // The same buyer again: over 'Máximo 1 por persona', cancelled and refunded, never numbered.
    expect(await pay(database, second.id, "ana@example.com")).toBe("cancelled_over_limit");
    expect(await pay(database, third.id, "bea@example.com")).toBe("paid");
    const rows = await database.db
      .selectFrom("edition_numbers")
      .select(["number", "order_id"])
      .where("product_id", "=", piece.id)
      .orderBy("number")
      .execute();
    expect(rows).toEqual([
      { number: 1, order_id: first.id },
      { number: 2, order_id: third.id },
    ]);
  });

  it("an order the shop cancels gives its numbers back with its pieces: the next buyer gets the lowest free one", async () => {
    const database = await harness.fresh();
    const piece = await edition(database, 2);
    const line = [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }];
    const a = await hold(database.db, { lines: line, provider: "demo" });
    const b = await hold(database.db, { lines: line, provider: "demo" });
    expect(await pay(database, a.id, "ana@example.com")).toBe("paid");
    expect(await pay(database, b.id, "bea@example.com")).toBe("paid");
    expect(await cancelPaidOrder(database.db, createDemoPayments(database.db), a.id)).toMatchObject({
      ok: true,
    });
    expect((await getOrder(database.db, a.id))?.lines[0]?.edition).toBeNull();
    expect(await piece.stock()).toBe(1);
    // Piece 1 is back on the shelf, and goes to the next buyer: every paid piece numbered, 1 and 2.
    const c = await hold(database.db, { lines: line, provider: "demo" });
    expect(await pay(database, c.id, "carla@example.com")).toBe("paid");
    expect((await getOrder(database.db, c.id))?.lines[0]?.edition).toBe("Pieza 1 de 2");
    expect((await getOrder(database.db, b.id))?.lines[0]?.edition).toBe("Pieza 2 de 2");
  });

  it("a product that is no edition gets no numbers", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 3 });
    const order = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 2 }],
      provider: "demo",
    });
    expect(await pay(database, order.id, "ana@example.com")).toBe("paid");
    expect(
      await database.db
        .selectFrom("edition_numbers")
        .select("number")
        .where("order_id", "=", order.id)
        .execute(),
    ).toEqual([]);
    expect((await getOrder(database.db, order.id))?.lines[0]?.edition).toBeNull();
  });
});
