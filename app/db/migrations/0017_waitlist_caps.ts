import { type Kysely, sql } from "kysely";
import { newId } from "~/lib/ids";
import { foldMailbox } from "~/lib/mailbox";
import { timestampType } from "./column-types";

/** Sends of the last day count against their mailbox's cap from the first minute (decision 31). */
const BACKFILL_HOURS = 24;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // Every 'Avísame' confirmation e-mail queued, with whom it counts against (decision 31): the
  // recipient's folded mailbox, the sign-up's address bucket (IPv4 address or IPv6 /64), and
  // whether it came without a proof of work. Kept two days (the caps look back one).
  await db.schema
    .createTable("waitlist_confirmation_sends")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("mailbox", "text", (c) => c.notNull())
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("without_proof", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`without_proof in (0, 1)`),
    )
    .addColumn("drop_id", "text")
    .addColumn("sent_at", ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("waitlist_sends_by_mailbox")
    .on("waitlist_confirmation_sends")
    .columns(["mailbox", "sent_at"])
    .execute();
  await db.schema
    .createIndex("waitlist_sends_by_bucket")
    .on("waitlist_confirmation_sends")
    .columns(["bucket", "sent_at"])
    .execute();
  await db.schema
    .createIndex("waitlist_sends_by_time")
    .on("waitlist_confirmation_sends")
    .columns(["sent_at", "without_proof"])
    .execute();

  // Sign-ups answered as accepted but sent no e-mail, per drop and cap: what Campañas shows.
  await db.schema
    .createTable("waitlist_mail_refusals")
    .addColumn("drop_id", "text", (c) => c.notNull().references("drops.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('buzon', 'direccion', 'tienda')`))
    // A few rows per drop and cap, summed when read: a flood's increments do not all queue for one.
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("refusals", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_at", ts, (c) => c.notNull())
    .addPrimaryKeyConstraint("waitlist_mail_refusals_pk", ["drop_id", "reason", "shard"])
    .execute();

  // The confirmations queued in the last day, as far as the list knows them (the latest per
  // address and drop; the address bucket was not kept: they count against their mailbox and the
  // shop, and against no bucket).
  const since = new Date(Date.now() - BACKFILL_HOURS * 3_600_000).toISOString();
  const recent = await db
    .selectFrom("waitlist_subscriptions")
    .select(["email", "drop_id", "confirmation_sent_at"])
    .where("confirmation_sent_at", ">=", since)
    .execute();
  for (let i = 0; i < recent.length; i += 200) {
    await db
      .insertInto("waitlist_confirmation_sends")
      .values(
        recent.slice(i, i + 200).map((row) => ({
          id: newId(),
          mailbox: foldMailbox(String(row.email)),
          bucket: "",
          without_proof: 0,
          drop_id: row.drop_id,
          sent_at:
            row.confirmation_sent_at instanceof Date
              ? row.confirmation_sent_at.toISOString()
              : String(row.confirmation_sent_at),
        })),
      )
      .execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("waitlist_mail_refusals").execute();
  await db.schema.dropTable("waitlist_confirmation_sends").execute();
}
