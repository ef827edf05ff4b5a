import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // E-mails to send, queued in the same transaction as what they announce, so a crash between the
  // two loses nothing; one row per order and kind, so none is sent twice.
  await db.schema
    .createTable("emails")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('confirmacion', 'envio')`))
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("claimed_at", ts)
    .addColumn("sent_at", ts)
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addUniqueConstraint("emails_order_kind", ["order_id", "kind"])
    .execute();
  await db.schema.createIndex("emails_unsent_idx").on("emails").columns(["sent_at", "created_at"]).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("emails").execute();
}
