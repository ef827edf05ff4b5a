import type { Kysely } from "kysely";
import { hasColumn, timestampType } from "./column-types";

/*
 * When the owner gave back, by hand, the price of the pieces a late payment found gone (decision
 * 37, 'Sold out at payment': an order that still sent some of its pieces). Null: not yet, and
 * every existing order starts so (its refund, if any, was never recorded).
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Already there: a run stopped before Kysely recorded it (SQLite: no transaction around it).
  if (!(await hasColumn(db, "orders", "missing_refunded_at")))
    await db.schema.alterTable("orders").addColumn("missing_refunded_at", timestampType(db)).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("missing_refunded_at").execute();
}
