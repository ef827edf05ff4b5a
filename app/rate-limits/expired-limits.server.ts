import { sql } from "kysely";
import type { Db } from "~/db/database.server";

/*
 * Counts and single-use keys whose time is over, deleted. On PostgreSQL the limits' library does
 * it by itself; on SQLite it does not, and every drop day's checkouts and proofs of work would stay
 * in the file for good. In bounded chunks: on SQLite a delete holds the one write lock, and a
 * checkout must not wait behind a year's rows.
 */

/** Rows deleted per statement. */
const CHUNK = 5_000;
/** Chunks per run at most: the rest waits for the next run. */
const MAX_CHUNKS = 20;

/** Deletes expired rows of the limits' table, oldest first; how many it deleted. */
export async function deleteExpiredLimits(db: Db, now = new Date()): Promise<number> {
  let deleted = 0;
  for (let chunk = 0; chunk < MAX_CHUNKS; chunk++) {
    const result = await sql`DELETE FROM rate_limits WHERE key IN (
      SELECT key FROM rate_limits WHERE expire < ${now.getTime()} ORDER BY expire LIMIT ${CHUNK})`.execute(
      db,
    );
    const n = Number(result.numAffectedRows ?? 0);
    deleted += n;
    if (n < CHUNK) break;
  }
  return deleted;
}
