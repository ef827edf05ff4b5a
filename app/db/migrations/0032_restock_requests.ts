import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

/*
 * 'Avísame si vuelve' (issue 27, decision 46): addresses waiting for a sold-out piece, or one
 * sold-out size of it, to come back. Double opt-in like the drop's 'Avísame' (decision 16): a row
 * starts `pendiente`; only `confirmada` rows are told, oldest first, one address per piece that
 * came back, once per request (`notified_at`, set by a conditional update before the e-mail is
 * queued).
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable("restock_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    // The size asked for; null for a piece without sizes. A size removed takes its requests.
    .addColumn("option_id", "text", (c) => c.references("product_options.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull().check(sql`length(email) between 3 and 254`))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pendiente', 'confirmada', 'baja')`))
    // The shop's address when the person asked: links in e-mails when PUBLIC_URL is not set.
    .addColumn("site_url", "text", (c) => c.notNull())
    // When the request was made (or made again after its notice): its place in the line.
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("confirmation_sent_at", ts, (c) => c.notNull())
    .addColumn("confirmed_at", ts)
    .addColumn("unsubscribed_at", ts)
    // The notice that the piece came back was queued (once per request).
    .addColumn("notified_at", ts)
    .execute();
  // One request per address, piece and size (no size counts as one): an expression both databases index.
  await sql`create unique index restock_one_per_piece on restock_requests (product_id, (coalesce(option_id, '')), email)`.execute(
    db,
  );
  await db.schema
    .createIndex("restock_to_notify_idx")
    .on("restock_requests")
    .columns(["product_id", "status", "notified_at", "created_at"])
    .execute();
  await db.schema.createIndex("restock_by_email_idx").on("restock_requests").column("email").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("restock_requests").execute();
}
