import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // 'Avísame' (decision 16): one row per address and upcoming drop. Double opt-in: a row starts
  // `pendiente` and only `confirmada` rows hear that the drop opened; `baja` keeps the row so a
  // late opening notice still finds the address unsubscribed.
  await db.schema
    .createTable("waitlist_subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("drop_id", "text", (c) => c.notNull().references("drops.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull().check(sql`length(email) between 3 and 254`))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pendiente', 'confirmada', 'baja')`))
    // The shop's address when the person signed up: links in e-mails when PUBLIC_URL is not set.
    .addColumn("site_url", "text", (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull())
    // The last confirmation e-mail queued: a repeat sign-up sends another only after a pause.
    .addColumn("confirmation_sent_at", ts, (c) => c.notNull())
    .addColumn("confirmed_at", ts)
    .addColumn("unsubscribed_at", ts)
    // The opening notice was queued (once: the mail queue's dedupe key backs this up).
    .addColumn("notified_at", ts)
    .addUniqueConstraint("waitlist_one_per_drop", ["drop_id", "email"])
    .execute();
  await db.schema
    .createIndex("waitlist_to_notify_idx")
    .on("waitlist_subscriptions")
    .columns(["drop_id", "status", "notified_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("waitlist_subscriptions").execute();
}
