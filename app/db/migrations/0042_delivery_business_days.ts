import type { Kysely } from "kysely";
import { hasColumn } from "./column-types";

/*
 * How an order's delivery days count (decision 44): 1, business days (Mexico's holidays out), for
 * every shipment from now on, as the shipping rates promise them; 0, calendar days, for the orders
 * shipped before, so none already shown as delivered goes back to 'on its way'.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(await hasColumn(db, "orders", "delivery_business_days")))
    await db.schema
      .alterTable("orders")
      .addColumn("delivery_business_days", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("delivery_business_days").execute();
}
