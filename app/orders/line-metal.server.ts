import { type MetalFacts, metalFactsOf } from "~/catalogue/metal";
import type { Db } from "~/db/database.server";

/**
 * The metal's facts of each line of an order, in the lines' order (by position, as `Order.lines`),
 * for the packing slip. Read from the products as they are now (what goes in the parcel is the
 * piece on the shelf); a line whose product is gone has no facts.
 */
export async function lineMetalFacts(db: Db, orderId: string): Promise<MetalFacts[]> {
  const rows = await db
    .selectFrom("order_lines")
    .leftJoin("products", "products.id", "order_lines.product_id")
    .select(["products.karat", "products.weight_mg", "products.stones"])
    .where("order_lines.order_id", "=", orderId)
    .orderBy("order_lines.position")
    .execute();
  return rows.map(metalFactsOf);
}
