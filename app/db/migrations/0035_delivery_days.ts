import type { Kysely } from "kysely";

/*
 * The days after shipping an order counts as delivered, as they were in Configuración when it
 * shipped ('Días para dar un envío por entregado'): the owner lowering them later does not shorten
 * a buyer's return window (decision 44). Null for orders shipped before this migration and for
 * unshipped ones: they count with the setting as it is.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("delivery_days", "integer").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("delivery_days").execute();
}
