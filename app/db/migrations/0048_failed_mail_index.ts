import { type Kysely, sql } from "kysely";

/*
 * The administration's notice of order e-mails that have not gone out (decision 25) counts, on
 * every admin page, the unsent messages whose last attempt failed. The failed ones are a handful;
 * the unsent ones are thousands in the minute a drop opens (its 'Avísame' notices), and 0007's
 * (sent_at, next_attempt_at) would have the count read them all. An index of the failed unsent
 * messages only, by age: both databases take a partial index when the query repeats its condition.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // sent_at first, though always null here: SQLite, which plans without statistics, prefers the
  // index that matches more of the query's terms, and (sent_at, kind, created_at) matches one.
  await sql`CREATE INDEX IF NOT EXISTS emails_failed_unsent ON emails (sent_at, created_at)
    WHERE sent_at IS NULL AND last_error IS NOT NULL`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("emails_failed_unsent").ifExists().execute();
}
