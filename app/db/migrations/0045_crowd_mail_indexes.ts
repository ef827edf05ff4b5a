import { type Kysely, sql } from "kysely";
import { isPostgres } from "./column-types";

/*
 * Indexes for the minute a drop opens with thousands of 'Avísame' sign-ups (decisions 16 and 8):
 * - the mail queue's due messages by kind and age: a batch reads its 20 rows (the other kinds
 *   first, then the opening notices, each oldest first) instead of sorting every unsent message.
 *   All rows, not only unsent ones (`where sent_at is null`): SQLite, which plans without
 *   statistics, takes such a partial index neither for a list of kinds nor for a range of them,
 *   and went on sorting the backlog through 0007's (sent_at, next_attempt_at);
 * - PostgreSQL's statistics of unsent messages by kind: without them it takes the unsent messages
 *   of other kinds to be as many as the rest (thousands), and reads every unsent message to find
 *   the few that are not opening notices;
 * - the sign-ups still to tell, in sign-up order: 0011's index on (drop, status, notified_at) found
 *   them but had all of them sorted for each batch of 100. Replaced, under its name, by one that
 *   ends with the sign-up time.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("emails_due_by_kind")
    .ifNotExists()
    .on("emails")
    .columns(["sent_at", "kind", "created_at"])
    .execute();
  if (isPostgres(db))
    await sql`CREATE STATISTICS IF NOT EXISTS emails_unsent_by_kind (mcv) ON sent_at, kind FROM emails`.execute(
      db,
    );
  await db.schema.dropIndex("waitlist_to_notify_idx").ifExists().execute();
  await db.schema
    .createIndex("waitlist_to_notify_idx")
    .on("waitlist_subscriptions")
    .columns(["drop_id", "status", "notified_at", "created_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("emails_due_by_kind").ifExists().execute();
  if (isPostgres(db)) await sql`DROP STATISTICS IF EXISTS emails_unsent_by_kind`.execute(db);
  await db.schema.dropIndex("waitlist_to_notify_idx").ifExists().execute();
  await db.schema
    .createIndex("waitlist_to_notify_idx")
    .on("waitlist_subscriptions")
    .columns(["drop_id", "status", "notified_at"])
    .execute();
}
