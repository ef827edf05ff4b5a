import type { Kysely } from "kysely";

/*
 * A drop's line read by its serving rounds (decision 27), up to every 150 ms during an opening:
 * - by last look: each round gives up the places nobody looked at for 15 s. Without an index that
 *   statement read every waiting place of the drop (5,000 at a big opening: ~4 ms a round) to find
 *   usually none;
 * - in order, with what a round reads of each place: the ids and notes of the places waiting, by
 *   place then id, from the index alone (the one it replaces, on the place only, sent the round to
 *   every row of the table and sorted the ties). Counting the places before one reads it too.
 * Created if missing, so a start stopped half-way finds the ones made.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("drop_line_by_seen")
    .ifNotExists()
    .on("drop_line")
    .columns(["drop_id", "status", "seen_at"])
    .execute();
  await db.schema
    .createIndex("drop_line_in_order")
    .ifNotExists()
    .on("drop_line")
    .columns(["drop_id", "status", "place", "id", "note"])
    .execute();
  await db.schema.dropIndex("drop_line_by_place").ifExists().execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("drop_line_by_place")
    .ifNotExists()
    .on("drop_line")
    .columns(["drop_id", "status", "place"])
    .execute();
  await db.schema.dropIndex("drop_line_in_order").ifExists().execute();
  await db.schema.dropIndex("drop_line_by_seen").ifExists().execute();
}
