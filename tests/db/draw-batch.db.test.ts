import { expect, it } from "vitest";
import { type Database, toTimestamp } from "~/db/database.server";
import { joinLine, lineDrops } from "~/orders/line.server";
import {
  compileDrawShapes,
  type DrawPlace,
  drawPlaceTaker,
  type SpendWithin,
} from "~/orders/line-draw.server";
import { compileOnceShapes, createRequestLimits } from "~/rate-limits/request-limits.server";
import { runningPiece } from "../support/catalogue";
import { type DatabaseHarness, describeEachDatabase } from "../support/databases";

/*
 * The draw's places at the front door are written a turn of the event loop at a time, each batch
 * in one transaction with the proofs of work that pay for them (decision 27, its speed): every
 * caller still gets its own answer, and a batch that fails answers each of its callers.
 */

/** A drop whose lottery began a second ago (10 s long, 2 pieces per address), with one piece. */
async function drawPiece(database: Database) {
  const start = new Date(Date.now() - 1000);
  const piece = await runningPiece(database, { stock: 10, maxPerOrder: 1, opensInMs: -1000 });
  await database.db
    .updateTable("drops")
    .set({ start_at: toTimestamp(start) })
    .where("id", "=", piece.dropId)
    .execute();
  const [drop] = await lineDrops(database.db, [piece.dropId]);
  if (!drop) throw new Error("sin colección");
  return { drop, lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }] };
}

/** The request limits' store on the harness' last database (where the proofs are spent). */
function limitsOf(harness: DatabaseHarness) {
  return createRequestLimits(
    harness.dialect === "sqlite"
      ? { kind: "sqlite", file: harness.lastUrl() }
      : { kind: "postgres", url: harness.lastUrl() },
  );
}

const entryOf = (place: DrawPlace | null) => (place?.ok ? place.entryId : null);

describeEachDatabase("the draw's places, a turn at a time", (harness) => {
  it("its statements, in every batch size, are compiled ahead, and SQLite prepares them before a drop needs them", async () => {
    const database = await harness.fresh();
    const shapes = [...compileDrawShapes(database.db), ...compileOnceShapes(database.db)];
    // Nine sizes (1 to 256 rows) of three statements: the places read, the places written, the proofs spent.
    expect(shapes).toHaveLength(27);
    expect(new Set(shapes.map((shape) => shape.sql)).size).toBe(27);
    if (database.dialect === "sqlite") {
      expect(() => database.keepPrepared?.(shapes.map((shape) => shape.sql))).not.toThrow();
      expect(database.keepPrepared).toBeDefined();
    } else {
      expect(database.keepPrepared).toBeUndefined();
    }
  });

  it("one batch, each caller its own answer: new places, a browser's same place, the address's cap counting the batch, a proof spent before", async () => {
    const database = await harness.fresh();
    const { drop, lines } = await drawPiece(database);
    const limits = limitsOf(harness);
    try {
      const batches: number[] = [];
      const spend: SpendWithin = (db, keys) => {
        batches.push(keys.length);
        return limits.onceWithin(db, keys);
      };
      const take = drawPlaceTaker(database.db, spend);
      // A proof spent earlier the usual way (another request, another process).
      expect(await limits.once("altcha:gastada", 300)).toBe(true);
      const ask = (browser: string, bucket: string, proof: string) =>
        take({
          lines,
          browser,
          bucket,
          origin: "https://t.example",
          singleUse: { key: `altcha:${proof}`, seconds: 300 },
        });
      // All asked within one turn of the event loop.
      const answers = await Promise.all([
        ask("a", "10.0.0.1", "p1"),
        ask("b", "10.0.0.1", "p2"),
        // A third piece from the same address: past its 2 in the opening.
        ask("c", "10.0.0.1", "p3"),
        // The same browser twice in one turn, with two proofs: one place.
        ask("d", "10.0.0.2", "p4"),
        ask("d", "10.0.0.2", "p5"),
        // A proof already spent; and one shown twice in the same turn.
        ask("e", "10.0.0.3", "gastada"),
        ask("f", "10.0.0.4", "p6"),
        ask("g", "10.0.0.5", "p6"),
      ]);
      expect(batches).toEqual([8]);
      const [a, b, c, d1, d2, e, f, g] = answers;
      expect(entryOf(a ?? null)).toBeTruthy();
      expect(entryOf(b ?? null)).toBeTruthy();
      expect(entryOf(a ?? null)).not.toBe(entryOf(b ?? null));
      expect(c).toMatchObject({ ok: false, reason: "limite_conexion" });
      expect(entryOf(d1 ?? null)).toBeTruthy();
      expect(entryOf(d2 ?? null)).toBe(entryOf(d1 ?? null));
      expect(e).toEqual({ ok: false, reason: "prueba_usada" });
      expect(entryOf(f ?? null)).toBeTruthy();
      expect(g).toEqual({ ok: false, reason: "prueba_usada" });
      const rows = await database.db
        .selectFrom("drop_line")
        .select(["id", "browser"])
        .where("drop_id", "=", drop.id)
        .orderBy("browser")
        .execute();
      expect(rows.map((r) => r.browser)).toEqual(["a", "b", "d", "f"]);
      // Spent in the batch, refused the usual way after (both ways count the same rows).
      expect(await limits.once("altcha:p1", 300)).toBe(false);
      expect(await limits.once("altcha:p3", 300)).toBe(false);
      // The next turn: the same browser asks again with a fresh proof, and keeps its place.
      const again = await ask("a", "10.0.0.1", "p7");
      expect(entryOf(again)).toBe(entryOf(a ?? null));
      expect(batches).toEqual([8, 1]);
    } finally {
      await limits.close();
    }
  });

  it("a place that conflicts (its browser placed meanwhile by another process) answers that caller alone, with that first place", async () => {
    const database = await harness.fresh();
    const { drop, lines } = await drawPiece(database);
    // Another app process placed browser "x" a moment ago, from an address this batch does not read.
    const first = await joinLine(database.db, {
      drop,
      lines,
      browser: "x",
      bucket: "10.9.9.9",
      origin: "https://t.example",
    });
    if (!first.ok) throw new Error(first.message);
    const take = drawPlaceTaker(database.db, async (_db, keys) => keys.map(() => true));
    const [x, y] = await Promise.all([
      take({ lines, browser: "x", bucket: "10.0.0.7", origin: "https://t.example" }),
      take({ lines, browser: "y", bucket: "10.0.0.7", origin: "https://t.example" }),
    ]);
    expect(entryOf(x ?? null)).toBe(first.entryId);
    expect(entryOf(y ?? null)).toBeTruthy();
    expect(entryOf(y ?? null)).not.toBe(first.entryId);
    const waiting = await database.db
      .selectFrom("drop_line")
      .select("browser")
      .where("drop_id", "=", drop.id)
      .where("status", "=", "esperando")
      .orderBy("browser")
      .execute();
    expect(waiting.map((r) => r.browser)).toEqual(["x", "y"]);
  });

  it("a batch that fails answers every caller with its error, keeps none of its places, and the next batch works", async () => {
    const database = await harness.fresh();
    const { drop, lines } = await drawPiece(database);
    let fail = true;
    const take = drawPlaceTaker(database.db, async (_db, keys) => {
      if (fail) throw new Error("el almacén de límites no responde");
      return keys.map(() => true);
    });
    const asked = ["m", "n", "o"].map((browser, i) =>
      take({
        lines,
        browser,
        bucket: `10.0.1.${i}`,
        origin: "https://t.example",
        singleUse: { key: `altcha:${browser}`, seconds: 300 },
      }),
    );
    const settled = await Promise.allSettled(asked);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const s of settled) {
      if (s.status === "rejected") expect(String(s.reason)).toContain("el almacén de límites no responde");
    }
    const kept = await database.db
      .selectFrom("drop_line")
      .select("id")
      .where("drop_id", "=", drop.id)
      .execute();
    expect(kept).toHaveLength(0);
    fail = false;
    const later = await take({
      lines,
      browser: "m",
      bucket: "10.0.1.0",
      origin: "https://t.example",
      singleUse: { key: "altcha:m", seconds: 300 },
    });
    expect(entryOf(later)).toBeTruthy();
  });

  it("a cart in no draw now is answered null, and its proof is not spent", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 3, maxPerOrder: 1, opensInMs: 60 * 60_000 });
    const limits = limitsOf(harness);
    try {
      const take = drawPlaceTaker(database.db, (db, keys) => limits.onceWithin(db, keys));
      const place = await take({
        lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
        browser: "z",
        bucket: "10.0.2.1",
        origin: "https://t.example",
        singleUse: { key: "altcha:sin-sorteo", seconds: 300 },
      });
      expect(place).toBeNull();
      expect(await limits.once("altcha:sin-sorteo", 300)).toBe(true);
    } finally {
      await limits.close();
    }
  });
});
