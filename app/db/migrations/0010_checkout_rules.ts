import { type Kysely, sql } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Drop day (decision 15): the owner's per-drop rules for a checkout.
  // `max_per_order`: pieces of this drop one order may take ('Máximo N por persona'); null: no
  // limit beyond the shop's. `hold_minutes`: how long a checkout holds its pieces.
  await db.schema.alterTable("drops").addColumn("max_per_order", "integer").execute();
  await db.schema
    .alterTable("drops")
    .addColumn("hold_minutes", "integer", (c) => c.notNull().defaultTo(30))
    .execute();
  // The browser (cookie `navegador`) whose payment page for this order is still open; cleared once
  // that page was completed with a delayed method (cash at a store), when it is no longer the
  // browser's checkout in progress.
  await db.schema.alterTable("orders").addColumn("checkout_browser", "text").execute();
  // One unpaid checkout per browser, even when two of its requests race: the second insert fails.
  await sql`CREATE UNIQUE INDEX orders_one_checkout_per_browser ON orders (checkout_browser) WHERE status = 'esperando_pago' AND checkout_browser IS NOT NULL`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("orders_one_checkout_per_browser").execute();
  await db.schema.alterTable("orders").dropColumn("checkout_browser").execute();
  await db.schema.alterTable("drops").dropColumn("hold_minutes").execute();
  await db.schema.alterTable("drops").dropColumn("max_per_order").execute();
}
