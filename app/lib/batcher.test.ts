import { describe, expect, it } from "vitest";
import { createBatcher } from "./batcher";

/**
 * A paced batcher whose turns of `schedule` are run by hand (`turns`), and whose batch holding
 * item 1 is written only once `release()` is called.
 */
function pacedBatcher() {
  const batches: number[][] = [];
  const turns: (() => void)[] = [];
  let released: () => void = () => {};
  const paced = createBatcher<number, number>({
    paced: true,
    schedule: (run) => turns.push(run),
    write: async (items) => {
      batches.push(items);
      if (items[0] === 1) await new Promise<void>((r) => (released = r));
      return items;
    },
  });
  return { paced, batches, turns, release: () => released() };
}

describe("createBatcher", () => {
  it("writes the calls of one turn together and answers each caller its own result", async () => {
    const batches: number[][] = [];
    const double = createBatcher<number, number>({
      write: async (items) => {
        batches.push(items);
        return items.map((n) => n * 2);
      },
    });
    const answers = await Promise.all([1, 2, 3].map((n) => double(n)));
    expect(answers).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await double(5)).toBe(10);
    expect(batches).toEqual([[1, 2, 3], [5]]);
  });

  it("an Error in one item's place rejects that caller alone", async () => {
    const check = createBatcher<number, number>({
      write: async (items) => items.map((n) => (n === 2 ? new Error("dos no") : n)),
    });
    const settled = await Promise.allSettled([1, 2, 3].map((n) => check(n)));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(settled[1]).toMatchObject({ reason: new Error("dos no") });
  });

  it("a batch that fails or answers the wrong count rejects every caller: none waits for ever", async () => {
    const failing = createBatcher<number, number>({
      write: async () => {
        throw new Error("sin base de datos");
      },
    });
    const settled = await Promise.allSettled([1, 2].map((n) => failing(n)));
    expect(settled).toEqual([
      { status: "rejected", reason: new Error("sin base de datos") },
      { status: "rejected", reason: new Error("sin base de datos") },
    ]);
    const short = createBatcher<number, number>({ write: async (items) => items.slice(1) });
    const shortSettled = await Promise.allSettled([1, 2].map((n) => short(n)));
    expect(shortSettled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    // A synchronous throw too.
    const throwing = createBatcher<number, number>({
      write: () => {
        throw new Error("al instante");
      },
    });
    await expect(throwing(1)).rejects.toThrow("al instante");
  });

  it("one batch at a time, at most maxItems each: those arriving meanwhile go in the next", async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    let writing = 0;
    let most = 0;
    const slow = createBatcher<number, number>({
      maxItems: 2,
      write: async (items) => {
        writing++;
        most = Math.max(most, writing);
        batches.push(items);
        if (items[0] === 1) await new Promise<void>((r) => (release = r));
        writing--;
        return items;
      },
    });
    const first = [1, 2, 3].map((n) => slow(n));
    await new Promise((r) => setImmediate(r));
    const later = [4, 5].map((n) => slow(n));
    release();
    expect(await Promise.all([...first, ...later])).toEqual([1, 2, 3, 4, 5]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    expect(most).toBe(1);
  });

  it("paced: the calls that arrive while a batch is written wait for the next turn of `schedule`", async () => {
    const { paced, batches, turns, release } = pacedBatcher();
    const first = paced(1);
    turns.shift()?.();
    const later = [paced(2), paced(3)];
    release();
    expect(await first).toBe(1);
    expect(batches).toEqual([[1]]);
    expect(turns).toHaveLength(1);
    turns.shift()?.();
    expect(await Promise.all(later)).toEqual([2, 3]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it("drain: writes what waits at once, paced or not, and resolves once a batch being written is done too", async () => {
    const { paced, batches, turns, release } = pacedBatcher();
    // Nothing waiting: nothing to do.
    await paced.drain();
    expect(batches).toEqual([]);
    const first = paced(1);
    turns.shift()?.();
    const later = [paced(2), paced(3)];
    let drained = false;
    const draining = paced.drain().then(() => {
      drained = true;
    });
    await new Promise((r) => setImmediate(r));
    // The batch being written holds the drain; the next one is not left for its turn.
    expect(drained).toBe(false);
    release();
    await draining;
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual([2, 3]);
    expect(batches).toEqual([[1], [2, 3]]);
  });
});
