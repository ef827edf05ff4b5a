import { sql } from "kysely";
import type { Db } from "~/db/database.server";

/*
 * Counts and single-use keys whose time is over, deleted. On PostgreSQL the limits' library does
 * it by itself; on SQLite it does not, and every drop day's checkouts and proofs of work would stay
 * in the file for good. In small chunks with a pause between them: on SQLite a delete holds the one
 * write lock (and, better-sqlite3 being synchronous, this process), and a checkout must wait
 * behind one chunk at most, not behind a drop's crowd of rows. The job does not run it during a
 * drop's opening rush (`openingRushUnderway`).
 */

/** Rows deleted per statement: some milliseconds of the write lock (5,000 held it 65–125 ms). */
const CHUNK = 250;
/** Rows one run deletes at most: the rest waits for the next run (every 15 minutes). */
const MAX_PER_RUN = 50_000;
/** The least pause between chunks; a chunk that took longer is followed by as long a pause. */
const PAUSE_MS = 10;

/** Deletes expired rows of the limits' table, oldest first, `most` at most; how many it deleted. */
export async function deleteExpiredLimits(
  db: Db,
  now = new Date(),
  options: { most?: number } = {},
): Promise<number> {
  const most = options.most ?? MAX_PER_RUN;
  let deleted = 0;
  while (deleted < most) {
    const chunk = Math.min(CHUNK, most - deleted);
    const began = performance.now();
    const result = await sql`DELETE FROM rate_limits WHERE key IN (
      SELECT key FROM rate_limits WHERE expire < ${now.getTime()} ORDER BY expire LIMIT ${chunk})`.execute(
      db,
    );
    const n = Number(result.numAffectedRows ?? 0);
    deleted += n;
    if (n < chunk || deleted >= most) break;
    // Writers waiting for the lock (this process's requests, other processes) go first.
    const took = performance.now() - began;
    await new Promise((resolve) => setTimeout(resolve, Math.max(PAUSE_MS, took)));
  }
  return deleted;
}
