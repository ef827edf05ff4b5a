import type { Db } from "~/db/database.server";

/**
 * How many confirmed 'Avísame si vuelve' requests still wait for each piece (no size) and each
 * size: what the owner sees beside a stock in the drops desk, before she adds pieces (each piece
 * added tells one of them, oldest first). Requests not confirmed yet, already told or given up
 * are not waiting.
 */
export async function waitingForRestock(
  db: Db,
  productIds: readonly string[],
): Promise<{ byProduct: Map<string, number>; byValue: Map<string, number> }> {
  const byProduct = new Map<string, number>();
  const byValue = new Map<string, number>();
  if (productIds.length === 0) return { byProduct, byValue };
  const rows = await db
    .selectFrom("restock_requests")
    .select(["product_id", "option_id", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("product_id", "in", [...productIds])
    .where("status", "=", "confirmada")
    .where("notified_at", "is", null)
    .groupBy(["product_id", "option_id"])
    .execute();
  for (const row of rows) {
    if (row.option_id === null) byProduct.set(row.product_id, Number(row.n));
    else byValue.set(row.option_id, Number(row.n));
  }
  return { byProduct, byValue };
}
