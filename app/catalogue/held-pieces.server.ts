import type { ExpressionBuilder } from "kysely";
import type { Db } from "~/db/database.server";
import type { KyselyDatabase } from "~/db/schema";

/*
 * The one rule for pieces held by unpaid checkouts: the storefront's 'Apartado' and the drops
 * desk (the edit form's count, the refusal to remove a product someone is paying for) both read it.
 * Catalogue sits below orders, so it reads the order tables through the schema, not orders' code;
 * the count is what releasing those checkouts would give back (orders/stock.server.ts `heldByOrder`).
 */

/**
 * Pieces of each product held by checkouts still waiting for payment (`esperando_pago`): what may
 * come back to the shop if those shoppers do not pay. One grouped query, driven by the orders'
 * status index. Products holding nothing are left out of the map. The storefront asks only about
 * products whose stock is 0 (the only ones whose label it changes, see `soldOutIds`), so a page
 * with everything in stock runs no query at all.
 */
export async function heldPieces(db: Db, productIds: readonly string[]): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return held;
  const rows = await db
    .selectFrom("orders")
    .innerJoin("order_lines", "order_lines.order_id", "orders.id")
    .select((eb) => [
      "order_lines.product_id as productId",
      // A late payment's missing pieces were never taken from stock: they hold nothing.
      eb.fn.sum<number | string>(eb("order_lines.quantity", "-", eb.ref("order_lines.missing"))).as("pieces"),
    ])
    .where("orders.status", "=", "esperando_pago")
    .where("order_lines.product_id", "in", ids)
    .groupBy("order_lines.product_id")
    .execute();
  for (const row of rows) {
    const pieces = Number(row.pieces);
    if (pieces > 0) held.set(row.productId, pieces);
  }
  return held;
}

/**
 * The same count for the product `p` of an enclosing query, as a subquery (`n`): for a check that
 * must read it at the same moment as the product's stock (drops-desk/update.server.ts).
 */
export function heldPiecesOfP(
  eb: ExpressionBuilder<KyselyDatabase & { p: KyselyDatabase["products"] }, "p">,
) {
  return eb
    .selectFrom("order_lines as l")
    .innerJoin("orders as o", "o.id", "l.order_id")
    .select((sub) => sub.fn.sum<number | string>(sub("l.quantity", "-", sub.ref("l.missing"))).as("n"))
    .where("o.status", "=", "esperando_pago")
    .whereRef("l.product_id", "=", "p.id");
}

/** The ids among `products` whose stock is 0: those worth asking `heldPieces` about. */
export function soldOutIds(products: readonly { id: string; stock: number }[]): string[] {
  return products.filter((p) => p.stock <= 0).map((p) => p.id);
}

/**
 * Pieces a browser holds itself in its own unpaid checkout, by product and by size (value id): not
 * gone for it, as the checkout's front door counts them (orders/cart-read.server.ts), so its cart
 * drawer keeps them, and 'Pagar' takes it back to its payment page.
 */
export async function heldByBrowser(
  db: Db,
  browser: string,
  productIds: readonly string[],
): Promise<{ products: Map<string, number>; values: Map<string, number> }> {
  const products = new Map<string, number>();
  const values = new Map<string, number>();
  if (productIds.length === 0) return { products, values };
  const rows = await db
    .selectFrom("orders")
    .innerJoin("order_lines", "order_lines.order_id", "orders.id")
    .select([
      "order_lines.product_id",
      "order_lines.option_id",
      "order_lines.quantity",
      "order_lines.missing",
    ])
    .where("orders.checkout_browser", "=", browser)
    .where("orders.status", "=", "esperando_pago")
    .where("order_lines.product_id", "in", [...new Set(productIds)])
    .execute();
  for (const row of rows) {
    const pieces = row.quantity - row.missing;
    if (pieces <= 0) continue;
    products.set(row.product_id, (products.get(row.product_id) ?? 0) + pieces);
    if (row.option_id) values.set(row.option_id, (values.get(row.option_id) ?? 0) + pieces);
  }
  return { products, values };
}
