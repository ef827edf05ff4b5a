import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    // esperando_pago: stock held while the shopper pays; pendiente: paid, to ship (the spec's
    // "no status"); enviado; archivado; expirado: never paid, stock returned.
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('esperando_pago', 'pendiente', 'enviado', 'archivado', 'expirado')`),
    )
    .addColumn("total_cents", "integer", (c) => c.notNull().check(sql`total_cents >= 0`))
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("mxn"))
    .addColumn("customer_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("customer_email", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("payment_provider", "text", (c) => c.notNull())
    .addColumn("payment_session_id", "text", (c) => c.unique())
    .addColumn("expires_at", ts, (c) => c.notNull())
    .addColumn("paid_at", ts)
    .addColumn("tracking_number", "text")
    .addColumn("carrier", "text")
    .addColumn("shipped_at", ts)
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .execute();
  // The sweeper looks for holds past their expiry; the admin lists go by status, newest first.
  await db.schema
    .createIndex("orders_status_expires_idx")
    .on("orders")
    .columns(["status", "expires_at"])
    .execute();
  await db.schema
    .createIndex("orders_status_created_idx")
    .on("orders")
    .columns(["status", "created_at"])
    .execute();

  await db.schema
    .createTable("order_lines")
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    // No foreign key: an order keeps its snapshot even if the product is deleted later.
    .addColumn("product_id", "text", (c) => c.notNull())
    .addColumn("drop_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("unit_price_cents", "integer", (c) => c.notNull().check(sql`unit_price_cents >= 0`))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addPrimaryKeyConstraint("order_lines_pk", ["order_id", "position"])
    .execute();

  // Payment events already processed: a replayed event is recognised and changes nothing.
  await db.schema
    .createTable("payment_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("received_at", ts, (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["payment_events", "order_lines", "orders"]) await db.schema.dropTable(table).execute();
}
