import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

/*
 * A cash voucher or transfer given to a buyer already at a drop's 'Máximo N por persona'
 * (decisions 29 and 42): its payment is cancelled at the provider, then its order. One row per such
 * voucher: `pendiente` while the provider is still to be asked (again, when it did not answer),
 * `hecho` once the order was cancelled, kept as the record of why (the owner's desk, the buyer's
 * e-mail and page).
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable("voucher_cancellations")
    .ifNotExists()
    .addColumn("order_id", "text", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    // Why, in Spanish: the drop, its limit and what made her the same buyer.
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pendiente', 'hecho')`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", ts)
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("cancelled_at", ts)
    .execute();
  await sql`CREATE INDEX IF NOT EXISTS voucher_cancellations_due ON voucher_cancellations (next_attempt_at) WHERE status = 'pendiente'`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("voucher_cancellations_due").ifExists().execute();
  await db.schema.dropTable("voucher_cancellations").ifExists().execute();
}
