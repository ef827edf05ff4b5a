import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

/*
 * Returns (issue 27, decision 48): a buyer asks, within the law's five business days after
 * delivery, to return some pieces of an order; the owner accepts or declines, and on receiving
 * them refunds their price through the payment provider (a partial refund, asked until made) and
 * chooses, piece by piece, whether they go back to stock. One open return per order at a time.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable("returns")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('solicitada', 'aceptada', 'rechazada', 'recibida', 'reembolsada')`),
    )
    // Why, as the buyer chose it from the shop's list, and in her own words.
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    // What the owner wrote the buyer when accepting (where to send the pieces) or declining.
    .addColumn("owner_message", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("requested_at", ts, (c) => c.notNull())
    .addColumn("decided_at", ts)
    .addColumn("received_at", ts)
    // The refund: the price of the pieces returned, asked of the provider until it is made.
    .addColumn("refund_cents", "integer", (c) => c.notNull().check(sql`refund_cents >= 0`))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("refund_status", "text", (c) => c.check(sql`refund_status in ('pendiente', 'hecho')`))
    .addColumn("provider", "text")
    .addColumn("provider_refund_id", "text")
    .addColumn("refund_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("refund_error", "text")
    .addColumn("next_attempt_at", ts)
    .addColumn("refunded_at", ts)
    .addColumn("updated_at", ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("returns_by_status")
    .on("returns")
    .columns(["status", "requested_at"])
    .execute();
  await db.schema.createIndex("returns_by_order").on("returns").column("order_id").execute();
  // One open return per order: a second request waits until the first is settled.
  await db.schema
    .createIndex("returns_one_open")
    .on("returns")
    .column("order_id")
    .unique()
    .where(sql.ref("status"), "in", ["solicitada", "aceptada", "recibida"])
    .execute();
  await db.schema
    .createIndex("returns_refund_due")
    .on("returns")
    .columns(["refund_status", "next_attempt_at"])
    .execute();

  await db.schema
    .createTable("return_lines")
    .addColumn("return_id", "text", (c) => c.notNull().references("returns.id").onDelete("cascade"))
    // The order's line (order_lines.position) and how many of its pieces come back.
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("unit_price_cents", "integer", (c) => c.notNull().check(sql`unit_price_cents >= 0`))
    // The owner's choice on receiving them: 1 back to stock, 0 not (damaged, kept aside); null: not yet.
    .addColumn("restock", "integer")
    .addPrimaryKeyConstraint("return_lines_pk", ["return_id", "position"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("return_lines").execute();
  for (const index of ["returns_refund_due", "returns_one_open", "returns_by_order", "returns_by_status"]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.dropTable("returns").execute();
}
