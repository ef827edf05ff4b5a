import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

/** Frozen copy of the search folding of this version (lower case, no accents). */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The orders desk:
 * - orders.search_text: order number and customer name folded (no case, no accents), written
 *   with the payment, so the desk searches one column the same way on both databases;
 * - order_lines.missing: pieces a late payment could not take from stock (never given back);
 * - order_events: what the owner did with an order (shipped, tracking corrected, archived,
 *   e-mail re-sent), for its timeline;
 * - emails becomes a generic queue: a recipient, a kind, an optional order, an optional key that
 *   keeps a message from being queued twice, and data for its template. SQLite cannot drop a
 *   constraint, so the table is rebuilt and its rows copied.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await db.schema
    .alterTable("orders")
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  const orders = await db.selectFrom("orders").select(["id", "customer_name"]).execute();
  for (const order of orders) {
    await db
      .updateTable("orders")
      .set({ search_text: fold(`${order.id} ${order.customer_name}`) })
      .where("id", "=", order.id)
      .execute();
  }

  await db.schema
    .alterTable("order_lines")
    .addColumn("missing", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("order_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("order_events_order_idx")
    .on("order_events")
    .columns(["order_id", "created_at"])
    .execute();

  await db.schema
    .createTable("emails_queue")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.references("orders.id").onDelete("cascade"))
    .addColumn("dedupe_key", "text", (c) => c.unique())
    .addColumn("payload", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("claimed_at", ts)
    .addColumn("sent_at", ts)
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .execute();
  await sql`insert into emails_queue (id, kind, recipient, order_id, dedupe_key, payload, created_at, claimed_at, sent_at, attempts, last_error)
    select e.id, e.kind, o.customer_email, e.order_id, e.kind || ':' || e.order_id, '{}', e.created_at, e.claimed_at, e.sent_at, e.attempts, e.last_error
    from emails e join orders o on o.id = e.order_id`.execute(db);
  await db.schema.dropTable("emails").execute();
  await db.schema.alterTable("emails_queue").renameTo("emails").execute();
  await db.schema.createIndex("emails_unsent_idx").on("emails").columns(["sent_at", "created_at"]).execute();
  await db.schema.createIndex("emails_order_idx").on("emails").column("order_id").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("order_events").execute();
  await db.schema.alterTable("order_lines").dropColumn("missing").execute();
  await db.schema.alterTable("orders").dropColumn("search_text").execute();
}
