import type { Kysely } from "kysely";

/*
 * 'Mi pedido' (issue 27): the shop's address an order was bought at (its origin, e.g.
 * https://orodeluna.mx), so its e-mails can link the buyer's order page when the shop has no
 * PUBLIC_URL. Orders before this one have none: their e-mails link it only with a PUBLIC_URL.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("site_url", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("site_url").execute();
}
