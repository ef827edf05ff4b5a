import type { Kysely } from "kysely";
import { hasColumn, timestampType } from "./column-types";

/*
 * The refund of a late payment's missing pieces through the payment provider (decision 37, 'Sold
 * out at payment'): a partial refund of the order's payment, asked at payment and again by the
 * refunds job until the provider makes it. Null: none asked (cash paid at OXXO, a provider the shop
 * no longer runs, and every order before this, whose missing pieces go back by hand as before).
 */

const COLUMNS = [
  ["missing_refund_status", "text"],
  ["missing_refund_id", "text"],
  ["missing_refund_error", "text"],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Each column alone: a run stopped between two (SQLite: no transaction around it) finds the rest.
  for (const [name, type] of COLUMNS)
    if (!(await hasColumn(db, "orders", name)))
      await db.schema.alterTable("orders").addColumn(name, type).execute();
  if (!(await hasColumn(db, "orders", "missing_refund_attempts")))
    await db.schema
      .alterTable("orders")
      .addColumn("missing_refund_attempts", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  if (!(await hasColumn(db, "orders", "missing_refund_next_at")))
    await db.schema.alterTable("orders").addColumn("missing_refund_next_at", timestampType(db)).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ["missing_refund_next_at", "missing_refund_attempts", ...COLUMNS.map(([n]) => n)])
    await db.schema.alterTable("orders").dropColumn(name).execute();
}
