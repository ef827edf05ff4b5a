/**
 * This process's board of holds on their way: pieces of each product that hold transactions
 * have started to take but not yet committed.
 *
 * On drop day hundreds of checkouts read the same few pieces as still there before the first
 * hold commits. Sent on to the database together, they all queue on the product's row lock,
 * each holding a pooled connection while it waits, and most of them only to be told the piece is
 * gone. With the board, a checkout starts its transaction only while the pieces it read are more
 * than those already on their way; the others wait here, holding nothing, and read again when
 * one of those holds ends, so most are answered by that second read.
 *
 * The board decides nothing about stock: it only says who may try now. The transaction's
 * conditional decrement alone decides (another app process has a board of its own, and a read
 * may be a moment old), so a mistaken admission costs one refused transaction, never a piece
 * sold twice. A wait is bounded: past it, the checkout tries anyway.
 */
export interface BoardLine {
  productId: string;
  quantity: number;
}

export class HoldBoard {
  private readonly onTheWay = new Map<string, number>();
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Pieces of a product on their way in this process. */
  pending(productId: string): number {
    return this.onTheWay.get(productId) ?? 0;
  }

  /**
   * True, and the lines are counted on their way, when every line fits in the stock read for it
   * after the pieces already on their way; false (nothing counted) otherwise.
   */
  tryEnter(lines: readonly BoardLine[], stockRead: (productId: string) => number): boolean {
    if (!this.hasRoom(lines, stockRead)) return false;
    for (const line of lines) this.onTheWay.set(line.productId, this.pending(line.productId) + line.quantity);
    return true;
  }

  /** Whether every line fits in the stock read for it after the pieces already on their way. */
  hasRoom(lines: readonly BoardLine[], stockRead: (productId: string) => number): boolean {
    return lines.every((line) => stockRead(line.productId) - this.pending(line.productId) >= line.quantity);
  }

  /** The lines' holds ended (committed or not): wakes whoever waits for those products. */
  leave(lines: readonly BoardLine[]): void {
    for (const line of lines) {
      const left = this.pending(line.productId) - line.quantity;
      if (left > 0) this.onTheWay.set(line.productId, left);
      else this.onTheWay.delete(line.productId);
    }
    this.wake(lines.map((l) => l.productId));
  }

  /** A hold of these products was written or given up: whoever waits for them reads again. */
  wake(productIds: readonly string[]): void {
    const woken = new Set<() => void>();
    for (const id of productIds) for (const wake of this.waiting.get(id) ?? []) woken.add(wake);
    for (const wake of woken) wake();
  }

  /** Resolves when a hold of one of these products ends or is written here, or after `ms` at most. */
  waitForChange(productIds: readonly string[], ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        for (const id of productIds) {
          const set = this.waiting.get(id);
          set?.delete(wake);
          if (set?.size === 0) this.waiting.delete(id);
        }
        resolve();
      };
      const timer = setTimeout(wake, ms);
      for (const id of productIds) {
        let set = this.waiting.get(id);
        if (!set) {
          set = new Set();
          this.waiting.set(id, set);
        }
        set.add(wake);
      }
    });
  }

  /** How many checkouts wait on the board (for tests and figures). */
  waiters(): number {
    const all = new Set<() => void>();
    for (const set of this.waiting.values()) for (const wake of set) all.add(wake);
    return all.size;
  }
}
