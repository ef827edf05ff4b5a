import { type Kysely, sql } from "kysely";
import { inTransaction, isPostgres, timestampType } from "./column-types";

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
 * - the (status, created_at) index gains the id, the desk's tie-break when it pages a tab;
 * - orders.search_text: order number and customer name folded (no case, no accents), written
 *   with the payment, so the desk searches one column the same way on both databases;
 * - order_lines.missing: pieces a late payment could not take from stock (never given back);
 * - order_events: what the owner did with an order (shipped, tracking corrected, archived,
 *   e-mail re-sent), for its timeline;
 * - emails becomes a generic queue: a recipient, a kind, an optional order, an optional key that
 *   keeps a message from being queued twice, data for its template, and when it is next due.
 *   SQLite cannot drop a constraint, so the table is rebuilt and its rows copied.
 * On SQLite the whole migration is one transaction (PostgreSQL's migrator already runs it in one),
 * so a crash half-way leaves the database as it was.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return upIn(db, "timestamptz");
  await inTransaction(db, (trx) => upIn(trx, timestampType(db)));
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function upIn(db: Kysely<any>, ts: "timestamptz" | "text"): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  const orders = await db.selectFrom("orders").select(["id", "customer_name", "stock_issue"]).execute();
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
  // Orders paid after their pieces were gone say which in stock_issue ("… sin stock para:
  // Name × 2, Other × 1"): those lines never took their pieces, so they must never give them back.
  for (const order of orders.filter((o) => o.stock_issue)) {
    const lines = await db
      .selectFrom("order_lines")
      .select(["position", "name", "quantity"])
      .where("order_id", "=", order.id)
      .execute();
    for (const line of lines) {
      if (!String(order.stock_issue).includes(`${line.name} × ${line.quantity}`)) continue;
      await db
        .updateTable("order_lines")
        .set({ missing: line.quantity })
        .where("order_id", "=", order.id)
        .where("position", "=", line.position)
        .execute();
    }
  }

  // The desk pages through a tab newest first with the id as tie-break: the index covers the order.
  await db.schema.dropIndex("orders_status_created_idx").execute();
  await db.schema
    .createIndex("orders_status_created_id_idx")
    .on("orders")
    .columns(["status", "created_at", "id"])
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
    // Null: due now. Set at each claim to when a failed (or abandoned) attempt may be retried.
    .addColumn("next_attempt_at", ts)
    .addColumn("sent_at", ts)
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .execute();
  // Unsent messages are due at once after the upgrade.
  await sql`insert into emails_queue (id, kind, recipient, order_id, dedupe_key, payload, created_at, claimed_at, sent_at, attempts, last_error)
    select e.id, e.kind, o.customer_email, e.order_id, e.kind || ':' || e.order_id, '{}', e.created_at, e.claimed_at,
      e.sent_at, e.attempts, e.last_error
    from emails e join orders o on o.id = e.order_id`.execute(db);
  await db.schema.dropTable("emails").execute();
  await db.schema.alterTable("emails_queue").renameTo("emails").execute();
  if (isPostgres(db)) {
    // Constraint names follow the table's first name on PostgreSQL: give them the final one.
    await sql`alter index emails_queue_pkey rename to emails_pkey`.execute(db);
    await sql`alter table emails rename constraint emails_queue_dedupe_key_key to emails_dedupe_key_key`.execute(
      db,
    );
    await sql`alter table emails rename constraint emails_queue_order_id_fkey to emails_order_id_fkey`.execute(
      db,
    );
  }
  await db.schema
    .createIndex("emails_due_idx")
    .on("emails")
    .columns(["sent_at", "next_attempt_at"])
    .execute();
  await db.schema.createIndex("emails_order_idx").on("emails").column("order_id").execute();
}

/** Back to 0006: the order e-mails return to the old table (one per order and kind). */
// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable("emails_old")
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
  // The newest message of each order and kind is kept.
  await sql`insert into emails_old (id, order_id, kind, created_at, claimed_at, sent_at, attempts, last_error)
    select e.id, e.order_id, e.kind, e.created_at, e.claimed_at, e.sent_at, e.attempts, e.last_error
    from emails e
    where e.order_id is not null and e.kind in ('confirmacion', 'envio')
      and not exists (select 1 from emails n where n.order_id = e.order_id and n.kind = e.kind
                      and (n.created_at > e.created_at or (n.created_at = e.created_at and n.id > e.id)))`.execute(
    db,
  );
  await db.schema.dropTable("emails").execute();
  await db.schema.alterTable("emails_old").renameTo("emails").execute();
  await db.schema.createIndex("emails_unsent_idx").on("emails").columns(["sent_at", "created_at"]).execute();
  await db.schema.dropTable("order_events").execute();
  await db.schema.dropIndex("orders_status_created_id_idx").execute();
  await db.schema
    .createIndex("orders_status_created_idx")
    .on("orders")
    .columns(["status", "created_at"])
    .execute();
  await db.schema.alterTable("order_lines").dropColumn("missing").execute();
  await db.schema.alterTable("orders").dropColumn("search_text").execute();
}
