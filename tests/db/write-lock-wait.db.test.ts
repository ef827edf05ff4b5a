import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, type DatabaseConnection } from "kysely";
import { afterAll, expect, it } from "vitest";
import { type Database, openDatabase } from "~/db/database.server";
import { beginWithoutBlocking } from "~/db/sqlite-write-lock";
import { takeTurnsOn } from "~/db/transaction-lock.server";
import { describeEachDatabase } from "../support/databases";

/*
 * Two app servers on one database: while one holds a write (SQLite: the file's write lock;
 * PostgreSQL: the turn on a key), the other's write waits without stopping the rest of its work.
 * On SQLite that wait used to happen inside SQLite, in the thread that answers every request.
 */

const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened.splice(0)) await database.close();
});

/** Counts the turns of the event loop (a 5 ms timer) until stopped. */
function countTicks(): { stop(): number } {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  return {
    stop() {
      clearInterval(timer);
      return ticks;
    },
  };
}

describeEachDatabase("a write waiting for another server's", (harness) => {
  it("keeps this server's event loop turning, and goes on once the other server commits", async () => {
    const database = await harness.fresh();
    const target = harness.lastUrl();
    const other = await openDatabase(
      harness.dialect === "sqlite" ? { kind: "sqlite", file: target } : { kind: "postgres", url: target },
    );
    opened.push(other);
    const events: string[] = [];
    let finishOther = () => {};
    const otherMayFinish = new Promise<void>((resolve) => {
      finishOther = resolve;
    });
    let otherHolds = () => {};
    const otherHolding = new Promise<void>((resolve) => {
      otherHolds = resolve;
    });
    const first = other.db.transaction().execute(async (trx) => {
      await takeTurnsOn(trx, "prueba:escritura");
      otherHolds();
      await otherMayFinish;
      events.push("el otro servidor termina");
    });
    await otherHolding;

    const ticks = countTicks();
    const second = database.db.transaction().execute(async (trx) => {
      await takeTurnsOn(trx, "prueba:escritura");
      events.push("este servidor escribe");
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // 200 ms of waiting: the timer ran all along (blocked inside SQLite, it would not have run at
    // all, and the other server, here in the same process, could never have committed).
    expect(ticks.stop()).toBeGreaterThan(10);
    expect(events).toEqual([]);
    finishOther();
    await Promise.all([first, second]);
    expect(events).toEqual(["el otro servidor termina", "este servidor escribe"]);
  });

  it.skipIf(harness.dialect !== "sqlite")(
    "gives up past its wait with SQLite's own 'database is locked', and can begin once the lock is free",
    async () => {
      await harness.fresh();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lock-"));
      const file = path.join(dir, "lock.db");
      const holder = new SQLite(file);
      const waiter = new SQLite(file);
      try {
        holder.pragma("journal_mode = WAL");
        // As Kysely's SQLite connection does: the statement runs, or throws, inside the call.
        const connection: DatabaseConnection = {
          executeQuery(query) {
            waiter.prepare(query.sql).run();
            return Promise.resolve({ rows: [] });
          },
          streamQuery() {
            throw new Error("not used");
          },
        };
        const begin = beginWithoutBlocking(waiter, 100);
        holder.exec("begin immediate");
        const started = performance.now();
        await expect(begin(connection)).rejects.toThrow(/database is locked/);
        expect(performance.now() - started).toBeGreaterThanOrEqual(100);
        // SQLite's own wait, for the statements that rely on it, is the given one again.
        expect(waiter.pragma("busy_timeout", { simple: true })).toBe(100);
        holder.exec("commit");
        await begin(connection);
        expect(waiter.inTransaction).toBe(true);
        await connection.executeQuery(CompiledQuery.raw("commit"));
      } finally {
        holder.close();
        waiter.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
