import { sql } from "kysely";
import { type Db, toTimestamp } from "~/db/database.server";

/*
 * The only code that moves stock for orders. Every transaction touches products in product-id
 * order, so two that share pieces cannot deadlock each other.
 */

export interface StockLine {
  productId: string;
  quantity: number;
}

function inLockOrder<T extends StockLine>(lines: readonly T[]): T[] {
  return [...lines].sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
}

/**
 * Takes each line's pieces with a conditional decrement (`stock >= quantity`; a CHECK keeps stock
 * from ever going below zero underneath), so two shoppers can never both get the last piece.
 * Returns the lines that could not be taken, with what is left of each (nothing was taken for those).
 */
export async function takeStock<T extends StockLine>(
  trx: Db,
  lines: readonly T[],
  now: Date,
): Promise<{ line: T; left: number }[]> {
  const short: { line: T; left: number }[] = [];
  for (const line of inLockOrder(lines)) {
    const taken = await trx
      .updateTable("products")
      .set({ stock: sql`stock - ${line.quantity}`, updated_at: toTimestamp(now) })
      .where("id", "=", line.productId)
      .where("stock", ">=", line.quantity)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) {
      const left = await trx
        .selectFrom("products")
        .select("stock")
        .where("id", "=", line.productId)
        .executeTakeFirst();
      short.push({ line, left: left?.stock ?? 0 });
    }
  }
  return short;
}

/** Gives pieces back. A product deleted since (its drop was removed) has nothing to take them. */
export async function restock(trx: Db, lines: readonly StockLine[], now: Date): Promise<void> {
  for (const line of inLockOrder(lines)) {
    if (line.quantity <= 0) continue;
    await trx
      .updateTable("products")
      .set({ stock: sql`stock + ${line.quantity}`, updated_at: toTimestamp(now) })
      .where("id", "=", line.productId)
      .execute();
  }
}

/** What an order holds of each product: its lines less the pieces a late payment could not take. */
export async function heldByOrder(trx: Db, orderId: string): Promise<StockLine[]> {
  const rows = await trx
    .selectFrom("order_lines")
    .select(["product_id", "quantity", "missing"])
    .where("order_id", "=", orderId)
    .execute();
  return rows.map((r) => ({ productId: r.product_id, quantity: r.quantity - r.missing }));
}
