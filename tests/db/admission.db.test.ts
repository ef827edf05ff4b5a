import { expect, it } from "vitest";
import { admitCheckout } from "~/orders/admission.server";
import { holdCart } from "~/orders/holds.server";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";

/*
 * The front door's admission (decision 15): on a rush, only as many checkouts go on to the hold's
 * transaction as there are pieces not already on their way; the rest wait, holding nothing, and
 * are answered by a read once the holds are written.
 */

type Admission = Awaited<ReturnType<typeof admitCheckout>>;
const browser = (i: number) => `navegador_${String(i).padStart(12, "0")}`;

/**
 * The answers given so far: waits until `expected` have come (as long as a loaded machine needs),
 * then a little more, so that an answer that should not have come yet would be seen.
 */
async function settled<T>(promises: Promise<T>[], expected: number): Promise<T[]> {
  const done: T[] = [];
  for (const p of promises) void p.then((v) => done.push(v));
  const until = Date.now() + 10_000;
  while (done.length < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 200));
  return [...done];
}

describeEachDatabase("admission at the front door", (harness) => {
  it("of 40 checkouts at once for 2 pieces, 2 go on; the rest are refused once those holds are written", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 2, name: "Anillo Marea" });
    const line = { productId: piece.id, dropId: piece.dropId, quantity: 1 };
    const all = Array.from({ length: 40 }, (_, i) =>
      // A bound far above what this test takes: the 38 are answered by the holds, not by it.
      admitCheckout(database.db, { lines: [line], browser: browser(i), maxWaitMs: 20_000 }),
    );
    const early = await settled(all, 2);
    const admitted = early.filter((a): a is Extract<Admission, { refusal: null }> => a.refusal === null);
    expect(admitted).toHaveLength(2);
    expect(early).toHaveLength(2);

    // The two that went on hold their pieces; the 38 waiting read again and are told.
    for (let i = 0; i < 2; i++) {
      expect((await holdCart(database.db, { lines: [line], provider: "demo", browser: browser(i) })).ok).toBe(
        true,
      );
    }
    for (const a of admitted) a.leave();
    const rest = (await Promise.all(all)).filter((a) => a.refusal !== null);
    expect(rest).toHaveLength(38);
    for (const a of rest) {
      expect(a.refusal).toEqual({
        reason: "sin_stock",
        message: "No hay piezas suficientes: Anillo Marea (agotado).",
      });
    }
    expect(await piece.stock()).toBe(0);
  });

  it("a checkout that went on and came to nothing gives its place to one that waits", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 1 });
    const line = { productId: piece.id, dropId: piece.dropId, quantity: 1 };
    const first = await admitCheckout(database.db, { lines: [line], browser: browser(1) });
    expect(first.refusal).toBeNull();
    // A bound far above what this test takes, even on a loaded machine: nothing here waits it out.
    const waiting = [2, 3, 4].map((i) =>
      admitCheckout(database.db, { lines: [line], browser: browser(i), maxWaitMs: 20_000 }),
    );
    expect(await settled(waiting, 0)).toHaveLength(0);
    // Refused by the limits, say: it leaves without a hold.
    if (first.refusal === null) first.leave();
    const next = await settled(waiting, 1);
    expect(next).toHaveLength(1);
    expect(next[0]?.refusal).toBeNull();
    // That one holds the piece: the other two read again and are told it is gone.
    expect((await holdCart(database.db, { lines: [line], provider: "demo", browser: browser(9) })).ok).toBe(
      true,
    );
    if (next[0]?.refusal === null) next[0].leave();
    const last = await Promise.all(waiting);
    expect(last.filter((a) => a.refusal?.reason === "sin_stock")).toHaveLength(2);
  });

  it("a browser that holds the last piece itself goes on; another is told it is gone", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 1, name: "Arete Sol" });
    const line = { productId: piece.id, dropId: piece.dropId, quantity: 1 };
    expect((await holdCart(database.db, { lines: [line], provider: "demo", browser: browser(1) })).ok).toBe(
      true,
    );
    expect((await admitCheckout(database.db, { lines: [line], browser: browser(1) })).refusal).toBeNull();
    expect((await admitCheckout(database.db, { lines: [line], browser: browser(2) })).refusal).toEqual({
      reason: "sin_stock",
      message: "No hay piezas suficientes: Arete Sol (agotado).",
    });
  });

  it("never waits past its bound: then the hold's transaction decides", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 1 });
    const line = { productId: piece.id, dropId: piece.dropId, quantity: 1 };
    const first = await admitCheckout(database.db, { lines: [line], browser: browser(1) });
    expect(first.refusal).toBeNull();
    const started = performance.now();
    const second = await admitCheckout(database.db, { lines: [line], browser: browser(2), maxWaitMs: 300 });
    expect(second.refusal).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });
});
