import { sql } from "kysely";
import { expect, it, vi } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import type { Database } from "~/db/database.server";
import { type CheckoutLine, holdCart, precheckCart, releaseHold } from "~/orders/holds.server";
import { describeEachDatabase } from "../support/databases";

/*
 * Checkout under a rush (decision 6, "Refusals first"): a cart that cannot be held is refused from a
 * plain read before the write transaction, with the transaction's own answer; the transaction alone
 * decides the rest.
 */

const HOUR = 3_600_000;

async function shopWith(
  database: Database,
  pieces: { stock: number; priceCents?: number }[],
  timing: "running" | "ended" = "running",
) {
  const now = Date.now();
  const dropId = await createDrop(database.db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(now - HOUR),
    endAt: timing === "running" ? new Date(now + HOUR) : new Date(now - HOUR / 2),
    products: pieces.map((p, i) => ({
      name: `Pieza ${i + 1}`,
      categoria: "Anillo" as const,
      material: "Oro rosa" as const,
      priceCents: p.priceCents ?? 100_000,
      stock: p.stock,
      imageId: null,
    })),
  });
  const products = (await getDrop(database.db, dropId))?.products ?? [];
  const id = (i: number) => products[i]?.id ?? "";
  const line = (i: number, quantity: number): CheckoutLine => ({ productId: id(i), dropId, quantity });
  const stockOf = async (i: number) => (await getDrop(database.db, dropId))?.products[i]?.stock;
  const setStock = (i: number, stock: number) =>
    database.db.updateTable("products").set({ stock }).where("id", "=", id(i)).execute();
  return { dropId, id, line, stockOf, setStock };
}

/** How many write transactions `run` opened. */
async function transactionsDuring(database: Database, run: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(database.db, "transaction");
  try {
    await run();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describeEachDatabase("checkout under a rush", (harness) => {
  it("the fast refusal is the transaction's refusal, word for word, for every kind of cart", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [
      { stock: 3 },
      { stock: 1 },
      { stock: 0 },
      { stock: 60, priceCents: 9_999_999 },
    ]);
    const ended = await shopWith(database, [{ stock: 5 }], "ended");
    const carts: CheckoutLine[][] = [
      [shop.line(2, 1)], // sold out
      [shop.line(1, 2)], // one left
      [shop.line(0, 2), shop.line(1, 2), shop.line(2, 1)], // several short, in the shopper's order
      [shop.line(2, 1), shop.line(0, 1)], // one short line spoils the cart
      [shop.line(0, 2), shop.line(0, 2)], // the same piece twice counts as one line
      [ended.line(0, 1)], // closed collection
      [ended.line(0, 1), shop.line(2, 1)], // closed comes before stock
      [{ productId: shop.id(0), dropId: ended.dropId, quantity: 1 }], // wrong drop
      [{ productId: "no-existe-0000000000", dropId: shop.dropId, quantity: 1 }], // missing piece
      [shop.line(3, 11)], // a total one payment cannot take
    ];
    for (const lines of carts) {
      const slow = await holdCart(database.db, { lines, provider: "demo", precheck: false });
      expect(slow.ok, JSON.stringify(lines)).toBe(false);
      const fast = await precheckCart(database.db, { lines });
      expect(fast).toEqual(slow.ok ? null : { reason: slow.reason, message: slow.message });
      // And holdCart itself answers it from the read, without opening a write transaction.
      let viaHold: unknown;
      expect(
        await transactionsDuring(
          database,
          async () => (viaHold = await holdCart(database.db, { lines, provider: "demo" })),
        ),
      ).toBe(0);
      expect(viaHold).toEqual(slow);
    }
    // Nothing was held by any of them.
    expect([await shop.stockOf(0), await shop.stockOf(1), await shop.stockOf(2)]).toEqual([3, 1, 0]);
    expect(await database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("never refuses what the database has: a cart that fits takes the write path and is held", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [{ stock: 0 }]);
    for (const stock of [0, 1, 2, 3]) {
      await shop.setStock(0, stock);
      for (const quantity of [1, 2, 3]) {
        const fast = await precheckCart(database.db, { lines: [shop.line(0, quantity)] });
        expect(fast === null, `stock ${stock}, quantity ${quantity}`).toBe(stock >= quantity);
      }
    }
    await shop.setStock(0, 1);
    const writes = await transactionsDuring(database, async () => {
      expect((await holdCart(database.db, { lines: [shop.line(0, 1)], provider: "demo" })).ok).toBe(true);
    });
    expect(writes).toBe(1);
  });

  it("a piece released back to stock is buyable on the very next request; restocked too", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [{ stock: 1 }]);
    const first = await holdCart(database.db, { lines: [shop.line(0, 1)], provider: "demo" });
    if (!first.ok) throw new Error(first.message);
    expect(await holdCart(database.db, { lines: [shop.line(0, 1)], provider: "demo" })).toEqual({
      ok: false,
      reason: "sin_stock",
      message: "No hay piezas suficientes: Pieza 1 (agotado).",
    });
    // The shopper cancels (or the sweeper finds the hold expired): the piece is back at once.
    expect(await releaseHold(database.db, first.id)).toBe(true);
    const second = await holdCart(database.db, { lines: [shop.line(0, 1)], provider: "demo" });
    expect(second.ok).toBe(true);
    // The owner adds pieces: buyable at once as well.
    await database.db
      .updateTable("products")
      .set({ stock: sql`stock + 2` })
      .where("id", "=", shop.id(0))
      .execute();
    expect((await holdCart(database.db, { lines: [shop.line(0, 2)], provider: "demo" })).ok).toBe(true);
    expect(await shop.stockOf(0)).toBe(0);
  });

  it("the last piece raced 100 times by 5 shoppers each: one hold per race, never an oversold piece", async () => {
    const database = await harness.fresh();
    const shop = await shopWith(database, [{ stock: 0 }]);
    const RACES = 100;
    const SHOPPERS = 5;
    let won = 0;
    for (let race = 0; race < RACES; race++) {
      await shop.setStock(0, 1);
      const results = await Promise.all(
        Array.from({ length: SHOPPERS }, () =>
          holdCart(database.db, { lines: [shop.line(0, 1)], provider: "demo" }),
        ),
      );
      const winners = results.filter((r) => r.ok).length;
      expect(winners, `race ${race}`).toBe(1);
      for (const r of results) {
        if (!r.ok)
          expect(r).toEqual({
            ok: false,
            reason: "sin_stock",
            message: "No hay piezas suficientes: Pieza 1 (agotado).",
          });
      }
      won += winners;
    }
    expect(won).toBe(RACES);
    expect(await shop.stockOf(0)).toBe(0);
    const held = await database.db
      .selectFrom("order_lines")
      .select((eb) => eb.fn.sum<number>("quantity").as("n"))
      .where("product_id", "=", shop.id(0))
      .executeTakeFirst();
    // One piece per race was put on the shelf: as many held as there were, oversold 0.
    expect(Number(held?.n)).toBe(RACES);
  });
});
