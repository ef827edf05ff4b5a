import type { Db } from "~/db/database.server";
import type { OptionName } from "~/db/taxonomy";

/*
 * A product's one option and its values as the storefront reads them (decision 34): the size
 * buttons, the 'Talla' filter, 'Quedan N' of a size and the cart's re-check need each value's own
 * stock. Products without an option (most) cost no query: only ids whose row names an option are
 * asked about.
 */

export interface OptionValue {
  id: string;
  value: string;
  stock: number;
}

export interface ProductOption {
  name: OptionName;
  /** In the owner's order. */
  values: OptionValue[];
}

/** The values of each product that has an option, keyed by product id, in one query. */
export async function loadOptionValues(
  db: Db,
  products: readonly { id: string; option_name: OptionName | null }[],
): Promise<Map<string, OptionValue[]>> {
  const byProduct = new Map<string, OptionValue[]>();
  const ids = [...new Set(products.filter((p) => p.option_name !== null).map((p) => p.id))];
  if (ids.length === 0) return byProduct;
  const rows = await db
    .selectFrom("product_options")
    .select(["id", "product_id", "value", "stock"])
    .where("product_id", "in", ids)
    .orderBy("product_id")
    .orderBy("position")
    .execute();
  for (const { product_id, ...value } of rows) {
    const list = byProduct.get(product_id);
    if (list) list.push(value);
    else byProduct.set(product_id, [value]);
  }
  return byProduct;
}

/** A product row's option, with the values read by `loadOptionValues`; null without one. */
export function optionOf(
  row: { id: string; option_name: OptionName | null },
  values: ReadonlyMap<string, OptionValue[]>,
): ProductOption | null {
  return row.option_name === null ? null : { name: row.option_name, values: values.get(row.id) ?? [] };
}

/** Pieces held by unpaid checkouts per value: 'Apartada' on a size button (callers ask about values at 0). */
export async function heldPerValue(db: Db, valueIds: readonly string[]): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  const ids = [...new Set(valueIds)];
  if (ids.length === 0) return held;
  const rows = await db
    .selectFrom("orders")
    .innerJoin("order_lines", "order_lines.order_id", "orders.id")
    .select((eb) => [
      "order_lines.option_id as optionId",
      eb.fn.sum<number | string>(eb("order_lines.quantity", "-", eb.ref("order_lines.missing"))).as("pieces"),
    ])
    .where("orders.status", "=", "esperando_pago")
    .where("order_lines.option_id", "in", ids)
    .groupBy("order_lines.option_id")
    .execute();
  for (const row of rows) {
    const pieces = Number(row.pieces);
    if (row.optionId && pieces > 0) held.set(row.optionId, pieces);
  }
  return held;
}
