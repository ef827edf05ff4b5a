import { type Kysely, sql } from "kysely";

/*
 * Indexes for a shop a year on (tens of thousands of orders, a hundred thousand sign-ups): each
 * one serves a query that otherwise read a whole table, some every second on drop day.
 * - order_lines by drop: the live opening page (every second) and a drop's report;
 * - orders by status and payment time: a month's report, the facturas exports;
 * - orders by tab: the desk's count and pages (a removed order is left out by the index, not by
 *   reading each row);
 * - the late payments' missing pieces to refund: the refunds job, every minute;
 * - sign-ups by e-mail: 'Darme de baja' leaves every list;
 * - login failures by time: their cleanup; restock requests by size: deleting a size.
 * Created if missing, so a start stopped half-way finds the ones made.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
  await index("order_lines_by_drop", "order_lines", ["drop_id", "product_id"]);
  await index("orders_status_paid", "orders", ["status", "paid_at"]);
  await index("orders_tab", "orders", ["status", "removed_at", "created_at", "id"]);
  await index("waitlist_subscriptions_by_email", "waitlist_subscriptions", ["email"]);
  await index("login_failures_by_time", "login_failures", ["failed_at"]);
  await index("restock_requests_by_option", "restock_requests", ["option_id"]);
  await sql`CREATE INDEX IF NOT EXISTS orders_missing_refund_due ON orders (missing_refund_next_at) WHERE missing_refund_status = 'pendiente'`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    "order_lines_by_drop",
    "orders_status_paid",
    "orders_tab",
    "waitlist_subscriptions_by_email",
    "login_failures_by_time",
    "restock_requests_by_option",
    "orders_missing_refund_due",
  ])
    await db.schema.dropIndex(name).ifExists().execute();
}
