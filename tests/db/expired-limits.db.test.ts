import { sql } from "kysely";
import { expect, it } from "vitest";
import type { Db } from "~/db/database.server";
import { openingRushUnderway } from "~/orders/opening-rush.server";
import { deleteExpiredLimits } from "~/rate-limits/expired-limits.server";
import { upcomingDrop } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";

const MINUTE = 60_000;

/** `count` rows expiring from `expireFrom` (ms since 1970) on, a millisecond apart, keys prefixed. */
async function insertRows(db: Db, prefix: string, count: number, expireFrom: number) {
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from(
      { length: Math.min(500, count - start) },
      (_, i) => sql`(${`${prefix}${String(start + i).padStart(5, "0")}`}, 1, ${expireFrom + start + i})`,
    );
    // The limits' table is the library's, not in the shop's schema types.
    await sql`INSERT INTO rate_limits (key, points, expire) VALUES ${sql.join(rows)}`.execute(db);
  }
}

const keys = async (db: Db) =>
  (await sql<{ key: string }>`SELECT key FROM rate_limits ORDER BY key`.execute(db)).rows.map((r) => r.key);

describeEachDatabase("request counts and spent proofs, once their time is over", (harness) => {
  it("are deleted by the job; those still counting stay", async () => {
    const database = await harness.fresh();
    const now = new Date();
    const rows = [
      ["checkout_navegador_a", -60_000],
      ["once_prueba_vieja", -1],
      ["checkout_ip_10.0.0.1", -86_400_000],
      ["checkout_navegador_b", 60_000],
      ["once_prueba_nueva", 30 * 60_000],
    ] as const;
    for (const [key, fromNow] of rows)
      await sql`INSERT INTO rate_limits (key, points, expire) VALUES (${key}, 1, ${now.getTime() + fromNow})`.execute(
        database.db,
      );
    expect(await deleteExpiredLimits(database.db, now)).toBe(3);
    const left = await sql<{ key: string }>`SELECT key FROM rate_limits ORDER BY key`.execute(database.db);
    expect(left.rows.map((r) => r.key)).toEqual(["checkout_navegador_b", "once_prueba_nueva"]);
    expect(await deleteExpiredLimits(database.db, now)).toBe(0);
  });

  it("a crowd's rows go in small chunks, the process free between them: every expired row and no live one; a run's most, oldest first", async () => {
    const database = await harness.fresh();
    const now = new Date();
    await insertRows(database.db, "vencida_", 1_234, now.getTime() - 2 * 60 * MINUTE);
    await insertRows(database.db, "viva_", 300, now.getTime() + MINUTE);
    // A run bounded to 600: the 600 that expired first.
    expect(await deleteExpiredLimits(database.db, now, { most: 600 })).toBe(600);
    const afterFirst = await keys(database.db);
    expect(afterFirst.filter((k) => k.startsWith("vencida_"))).toHaveLength(634);
    expect(afterFirst[0]).toBe("vencida_00600");
    // The rest, in chunks: other work of the process runs between them.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      expect(await deleteExpiredLimits(database.db, now)).toBe(634);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
    const left = await keys(database.db);
    expect(left).toHaveLength(300);
    expect(left.every((k) => k.startsWith("viva_"))).toBe(true);
    expect(await deleteExpiredLimits(database.db, now)).toBe(0);
  });

  it("the job leaves them while a drop is in its opening's first hour, and deletes them once it is past", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    // Its opening's rules last three hours; the rush the cleanup waits out, one.
    await database.db.updateTable("drops").set({ opening_minutes: 180 }).where("id", "=", drop.id).execute();
    const at = (minutes: number) => new Date(drop.opensAt.getTime() + minutes * MINUTE);
    expect(await openingRushUnderway(database.db, at(-1))).toBe(false);
    // The lottery takes checkouts a few seconds early.
    expect(await openingRushUnderway(database.db, at(-2 / 60))).toBe(true);
    expect(await openingRushUnderway(database.db, at(0))).toBe(true);
    expect(await openingRushUnderway(database.db, at(59))).toBe(true);
    expect(await openingRushUnderway(database.db, at(61))).toBe(false);
    // An archived drop, or one the public does not see yet (a draft), has no crowd to wait for.
    await database.db.updateTable("drops").set({ status: "archivada" }).where("id", "=", drop.id).execute();
    expect(await openingRushUnderway(database.db, at(1))).toBe(false);
    await database.db
      .updateTable("drops")
      .set({ status: "proximamente", visible_from: null })
      .where("id", "=", drop.id)
      .execute();
    expect(await openingRushUnderway(database.db, at(1))).toBe(false);
  });
});
