import type { Kysely } from "kysely";
import { timestampType } from "./column-types";

/*
 * A paid order is never destroyed (issue 25, decision 37). 'Borrar del historial' takes a shipped
 * or archived order off the desk's tabs by stamping `removed_at`; the row stays for the accounts
 * (a read-only view and the CSV show it). 'Eliminar pedido' on a paid order cancels it with a
 * refund through the provider; its pieces go back to stock when the refund is made
 * (`restock_when_made`), so a refund the provider refuses leaves the order as it was. Orders
 * deleted before this migration are gone; nothing here changes existing rows.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("removed_at", timestampType(db)).execute();
  await db.schema
    .alterTable("refunds")
    .addColumn("restock_when_made", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("refunds").dropColumn("restock_when_made").execute();
  await db.schema.alterTable("orders").dropColumn("removed_at").execute();
}
