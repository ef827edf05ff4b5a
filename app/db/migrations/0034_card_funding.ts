import type { Kysely } from "kysely";

/*
 * The kind of card an order was paid with, as the payment provider tells it ('credit', 'debit',
 * 'prepaid' or 'unknown'): a factura's forma de pago is 04 for a credit card and 28 for a debit
 * one. Null for orders paid before this migration, by voucher or transfer, or on the demo page:
 * their forma de pago reads as before.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("card_funding", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("card_funding").execute();
}
