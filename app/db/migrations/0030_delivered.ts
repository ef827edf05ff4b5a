import type { Kysely } from "kysely";
import { timestampType } from "./column-types";

/*
 * Delivery (issue 27): when the owner marked a shipped order 'Entregado'. Until she does, an order
 * counts as delivered a number of days after it was shipped (Configuración): the buyer's return
 * window (5 business days, LFPC art. 56) counts from then. Orders before this one: not marked.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("delivered_at", timestampType(db)).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("delivered_at").execute();
}
