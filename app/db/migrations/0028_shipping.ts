import { type Kysely, sql } from "kysely";

/*
 * Shipping charged apart from the pieces (issue 26, decision 43): what the buyer chose ('estandar',
 * 'express'), as the order says it ('Envío express (1 a 2 días hábiles)'), and what it cost. An
 * order's total_cents stays what the buyer pays: its pieces plus its shipping. Every order from
 * before this migration was charged no shipping: 0, no method, no label.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("shipping_cents", "integer", (c) => c.notNull().defaultTo(0).check(sql`shipping_cents >= 0`))
    .execute();
  await db.schema.alterTable("orders").addColumn("shipping_method", "text").execute();
  await db.schema.alterTable("orders").addColumn("shipping_label", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("shipping_label").execute();
  await db.schema.alterTable("orders").dropColumn("shipping_method").execute();
  await db.schema.alterTable("orders").dropColumn("shipping_cents").execute();
}
