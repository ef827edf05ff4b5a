import type { Kysely } from "kysely";

/*
 * The orders desk finds an order by its buyer's e-mail too (issue 25): every paid order's search
 * text gains its e-mail, folded like the rest (this file keeps its own copy of the folding, as
 * migrations never follow today's code).
 */

/** Lower case, without accents, spaces folded: app/orders/search.ts's foldForSearch, as of today. */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const orders = await db
    .selectFrom("orders")
    .select(["id", "customer_name", "customer_email"])
    .where("customer_email", "<>", "")
    .execute();
  for (const order of orders) {
    await db
      .updateTable("orders")
      .set({ search_text: fold(`${order.id} ${order.customer_name} ${order.customer_email}`) })
      .where("id", "=", order.id)
      .execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  const orders = await db
    .selectFrom("orders")
    .select(["id", "customer_name"])
    .where("customer_email", "<>", "")
    .execute();
  for (const order of orders) {
    await db
      .updateTable("orders")
      .set({ search_text: fold(`${order.id} ${order.customer_name}`) })
      .where("id", "=", order.id)
      .execute();
  }
}
