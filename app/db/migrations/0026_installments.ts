import type { Kysely } from "kysely";

/*
 * 'Meses sin intereses' (issue 26): the plan a buyer chose to pay an order in, in months; null for
 * a single payment (every order paid before this migration, and every one paid without a plan).
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("installment_months", "integer").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("installment_months").execute();
}
