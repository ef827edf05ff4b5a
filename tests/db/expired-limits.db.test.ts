import { sql } from "kysely";
import { expect, it } from "vitest";
import { deleteExpiredLimits } from "~/rate-limits/expired-limits.server";
import { describeEachDatabase } from "../support/databases";

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
});
