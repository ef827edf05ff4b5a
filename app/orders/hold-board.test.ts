import { describe, expect, it } from "vitest";
import { HoldBoard } from "./hold-board";

const stock = (n: number) => () => n;

describe("the board of checkouts on their way", () => {
  it("lets carts on only while the pieces read outnumber those already on their way", () => {
    const board = new HoldBoard();
    const line = [{ productId: "anillo", quantity: 1 }];
    expect(board.tryEnter(line, stock(2))).toBe(true);
    expect(board.tryEnter(line, stock(2))).toBe(true);
    expect(board.tryEnter(line, stock(2))).toBe(false);
    expect(board.pending("anillo")).toBe(2);
    // Two pieces for a cart of two: not while one is on its way.
    board.leave(line);
    expect(board.tryEnter([{ productId: "anillo", quantity: 2 }], stock(2))).toBe(false);
    expect(board.tryEnter(line, stock(2))).toBe(true);
  });

  it("counts a cart of several products whole, or not at all", () => {
    const board = new HoldBoard();
    const cart = [
      { productId: "anillo", quantity: 1 },
      { productId: "arete", quantity: 2 },
    ];
    expect(board.tryEnter(cart, (id) => (id === "anillo" ? 5 : 1))).toBe(false);
    expect(board.pending("anillo")).toBe(0);
    expect(board.tryEnter(cart, stock(3))).toBe(true);
    expect([board.pending("anillo"), board.pending("arete")]).toEqual([1, 2]);
    board.leave(cart);
    expect([board.pending("anillo"), board.pending("arete")]).toEqual([0, 0]);
  });

  it("wakes those waiting for a product when a hold of it ends or is written, and no others", async () => {
    const board = new HoldBoard();
    const woken: string[] = [];
    const anillo = board.waitForChange(["anillo"], 10_000).then(() => woken.push("anillo"));
    const arete = board.waitForChange(["arete"], 10_000).then(() => woken.push("arete"));
    expect(board.waiters()).toBe(2);
    board.wake(["anillo"]);
    await anillo;
    expect(woken).toEqual(["anillo"]);
    board.leave([{ productId: "arete", quantity: 0 }]);
    await arete;
    expect(woken).toEqual(["anillo", "arete"]);
    expect(board.waiters()).toBe(0);
  });

  it("never keeps a waiter past its time", async () => {
    const board = new HoldBoard();
    const started = performance.now();
    await board.waitForChange(["anillo"], 30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(board.waiters()).toBe(0);
  });
});
