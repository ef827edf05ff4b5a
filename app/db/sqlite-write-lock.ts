import type SQLite from "better-sqlite3";
import { CompiledQuery, type DatabaseConnection } from "kysely";

/** How long a write transaction waits for SQLite's write lock before it fails ("database is locked"). */
export const WRITE_LOCK_WAIT_MS = 5_000;

/** The pauses between two tries for the lock, in ms; the last one repeats. */
const PAUSES_MS = [0, 1, 1, 2, 2, 3, 4, 5];

const BEGIN = CompiledQuery.raw("begin immediate");

/**
 * Begins a write transaction (BEGIN IMMEDIATE), waiting for SQLite's write lock between tries
 * instead of inside SQLite. SQLite's own wait (busy_timeout) sleeps in the calling thread, which
 * here answers every request: while another process (a second app server, the admin command)
 * held the lock, this one stopped reading requests, sending cached pages and checking proofs of
 * work, and then woke up to 25–100 ms after the lock was free (SQLite's pauses grow to those).
 * Here the lock is asked for without waiting (busy_timeout 0 for that one statement), and
 * asked again after a pause of at most 5 ms on the event loop, for up to `waitMs`.
 *
 * `waitMs` is also the connection's busy_timeout, set back after each try (before anything else
 * can run on this thread), for the statements that keep SQLite's own wait: those outside a
 * transaction, short and mostly reads. (The request limits' counts have a connection of their own,
 * which also keeps it: two small upserts per counted request.)
 */
export function beginWithoutBlocking(
  handle: Pick<SQLite.Database, "exec">,
  waitMs: number,
): (connection: DatabaseConnection) => Promise<void> {
  // Run, not prepared once: SQLite applies this pragma when it compiles it, not when it runs.
  const restore = `pragma busy_timeout = ${Math.max(0, Math.trunc(waitMs))}`;
  return async (connection) => {
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      let begun: Promise<unknown>;
      handle.exec("pragma busy_timeout = 0");
      try {
        // better-sqlite3 runs it now, inside this call (throwing, or a promise of its outcome).
        begun = connection.executeQuery(BEGIN);
      } catch (error) {
        begun = Promise.reject(error);
      } finally {
        handle.exec(restore);
      }
      try {
        await begun;
        return;
      } catch (error) {
        // SQLITE_BUSY, or SQLITE_BUSY_RECOVERY while another process rebuilds the WAL's index.
        const code = String((error as { code?: unknown }).code ?? "");
        if (!code.startsWith("SQLITE_BUSY") || performance.now() - started >= waitMs) throw error;
      }
      const pause = PAUSES_MS[Math.min(attempt, PAUSES_MS.length - 1)] ?? 5;
      await new Promise((resolve) => (pause === 0 ? setImmediate(resolve) : setTimeout(resolve, pause)));
    }
  };
}
