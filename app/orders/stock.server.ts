import { sql } from "kysely";
import { type Db, toTimestamp } from "~/db/database.server";
import { claimProducts } from "~/db/transaction-lock.server";

/*
 * The only code that moves stock for orders. Every transaction touches products in product-id
 * order, and a product's row before any of its values' (decision 34), so two that share pieces
 * cannot deadlock each other. A product with an option keeps its own stock as the sum of its
 * values': each move changes both, in the same transaction.
 */

export interface StockLine {
  productId: string;
  /** The option's value the line holds (a size); null or absent for a product without an option. */
  optionId?: string | null;
  quantity: number;
}

const byKey = (a: StockLine, b: StockLine) => {
  const ka = `${a.productId}\u0000${a.optionId ?? ""}`;
  const kb = `${b.productId}\u0000${b.optionId ?? ""}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

function inLockOrder<T extends StockLine>(lines: readonly T[]): T[] {
  return [...lines].sort(byKey);
}

/**
 * Takes each line's pieces with a conditional decrement (`stock >= quantity`; a CHECK keeps stock
 * from ever going below zero underneath), so two shoppers can never both get the last piece; for a
 * value of an option, from the value and from its product's sum, the product's row first. Returns
 * the lines that could not be taken, with what is left of each (nothing was taken for those).
 */
export async function takeStock<T extends StockLine>(
  trx: Db,
  lines: readonly T[],
  now: Date,
): Promise<{ line: T; left: number }[]> {
  const short: { line: T; left: number }[] = [];
  const stamp = toTimestamp(now);
  for (const line of inLockOrder(lines)) {
    const taken = await trx
      .updateTable("products")
      .set({ stock: sql`stock - ${line.quantity}`, updated_at: stamp })
      .where("id", "=", line.productId)
      .where("stock", ">=", line.quantity)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) {
      short.push({ line, left: await stockLeft(trx, line) });
      continue;
    }
    if (!line.optionId) continue;
    const fromValue = await trx
      .updateTable("product_options")
      .set({ stock: sql`stock - ${line.quantity}` })
      .where("id", "=", line.optionId)
      .where("product_id", "=", line.productId)
      .where("stock", ">=", line.quantity)
      .executeTakeFirst();
    if (Number(fromValue.numUpdatedRows) === 0) {
      // The product had them, this value not: its sum gets them back (still under this row's lock).
      await trx
        .updateTable("products")
        .set({ stock: sql`stock + ${line.quantity}` })
        .where("id", "=", line.productId)
        .execute();
      short.push({ line, left: await stockLeft(trx, line) });
    }
  }
  return short;
}

/** What is left of a line's piece: of its value when it names one. */
async function stockLeft(trx: Db, line: StockLine): Promise<number> {
  if (line.optionId) {
    const value = await trx
      .selectFrom("product_options")
      .select("stock")
      .where("id", "=", line.optionId)
      .executeTakeFirst();
    return value?.stock ?? 0;
  }
  const left = await trx
    .selectFrom("products")
    .select("stock")
    .where("id", "=", line.productId)
    .executeTakeFirst();
  return left?.stock ?? 0;
}

/**
 * Gives pieces back, to the value and its product's sum; returns the lines that went back. A
 * product deleted since (its drop was removed), a value the owner removed, or a piece sold without
 * a size of a product that has sizes now, has nothing to take them: counted in the product's sum
 * alone, it would show for sale a piece no size can sell.
 */
export async function restock(trx: Db, lines: readonly StockLine[], now: Date): Promise<StockLine[]> {
  const stamp = toTimestamp(now);
  const back: StockLine[] = [];
  const ordered = inLockOrder(lines).filter((line) => line.quantity > 0);
  const productIds = [...new Set(ordered.map((line) => line.productId))];
  if (productIds.length === 0) return back;
  // The products' rows claimed first: a save adding or removing their sizes (which claims them
  // too) has committed before they are read below, never in between.
  await claimProducts(trx, productIds);
  const values = await trx
    .selectFrom("product_options")
    .select(["id", "product_id"])
    .where("product_id", "in", productIds)
    .execute();
  for (const line of ordered) {
    // Back to the product's sum only if its value is still there to hold them (or, sold without
    // one, if the product still has none).
    const own = values.filter((v) => v.product_id === line.productId);
    if (line.optionId ? !own.some((v) => v.id === line.optionId) : own.length > 0) continue;
    const updated = await trx
      .updateTable("products")
      .set({ stock: sql`stock + ${line.quantity}`, updated_at: stamp })
      .where("id", "=", line.productId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) continue;
    back.push(line);
    if (line.optionId) {
      await trx
        .updateTable("product_options")
        .set({ stock: sql`stock + ${line.quantity}` })
        .where("id", "=", line.optionId)
        .execute();
    }
  }
  return back;
}

/** What an order holds of each product (and value): its lines less the pieces a late payment could not take. */
export async function heldByOrder(trx: Db, orderId: string): Promise<StockLine[]> {
  const rows = await trx
    .selectFrom("order_lines")
    .select(["product_id", "option_id", "quantity", "missing"])
    .where("order_id", "=", orderId)
    .execute();
  return rows.map((r) => ({
    productId: r.product_id,
    optionId: r.option_id,
    quantity: r.quantity - r.missing,
  }));
}
