import type { OrderCeilings } from "~/config/ceilings";
import type { Db } from "~/db/database.server";
import {
  type CheckoutLine,
  type HoldRefusal,
  type LineRow,
  mergeLines,
  openingRulesOf,
  readLines,
  refusalBeforeRead,
  refusalFromRows,
} from "./cart-read.server";
import { HoldBoard } from "./hold-board";
import { inOpening } from "./opening";

/*
 * The front door's admission of a checkout (decision 15). The minute a drop opens, hundreds of
 * phones ask for the same few pieces at once; nearly all must be told they are gone, and that
 * answer must not wait behind the holds being written.
 *
 * - Reads of the same cart made at the same time are made once: while one is on its way, the
 *   requests that arrive meanwhile wait for the next, which starts when it ends and answers them
 *   all. Each answer still comes from a read that began after its request arrived.
 * - A cart that may be held goes on only while the pieces read outnumber those already on their
 *   way in checkouts this process sent on (`HoldBoard`). Past that, a request waits here, holding
 *   nothing, until one of those ends or a hold is written, and reads again.
 *
 * Nothing here sells anything: the hold's transaction alone decides.
 */

/** Each database handle's board of checkouts on their way in this process. */
const boards = new WeakMap<Db, HoldBoard>();
function boardOf(db: Db): HoldBoard {
  let board = boards.get(db);
  if (!board) {
    board = new HoldBoard();
    boards.set(db, board);
  }
  return board;
}

/** A hold of these products was written or given up: checkouts waiting for them read again. */
export function holdsChanged(db: Db, productIds: readonly string[]): void {
  boards.get(db)?.wake(productIds);
}

/** A checkout waits at the front door at most this long in all, then goes on anyway. */
const BOARD_MAX_WAIT_MS = 3000;
/** ...and reads again at least this often meanwhile (a hold of another process may end). */
const BOARD_WAKE_MS = 250;

const stay = () => {};

/**
 * Reads the cart until it is refused or there is room for it on the board, and counts it there
 * until `leave` (the caller calls it when the request ends). A cart the browser holds itself
 * (its unpaid checkout is released first: the back button), or one still waiting after
 * `BOARD_MAX_WAIT_MS`, goes on without a place on the board.
 */
export async function admitCheckout(
  db: Db,
  input: {
    lines: CheckoutLine[];
    ceilings?: OrderCeilings;
    browser: string | null;
    now?: Date;
    /** How long it may wait for room in all (tests shorten it). */
    maxWaitMs?: number;
  },
): Promise<{ refusal: HoldRefusal } | { refusal: null; leave: () => void }> {
  const lines = mergeLines(input.lines);
  const before = refusalBeforeRead(lines, input.ceilings);
  if (before) return { refusal: before };
  const now = input.now ?? new Date();
  const first = await readTogether(db, lines, input.browser, now);
  if (first.own) return { refusal: null, leave: stay };
  // A drop in its opening: every checkout takes a place in its line, which decides (decision 27).
  if (first.rows.some((r) => inOpening(openingRulesOf(r), now))) return { refusal: null, leave: stay };
  let rows = first.rows;
  const board = boardOf(db);
  const giveUpAt = Date.now() + (input.maxWaitMs ?? BOARD_MAX_WAIT_MS);
  for (;;) {
    const refusal = refusalFromRows(lines, rows, now);
    if (refusal) return { refusal };
    const stockRead = (id: string) => rows.find((r) => r.id === id)?.stock ?? 0;
    if (board.tryEnter(lines, stockRead)) {
      let left = false;
      const leave = () => {
        if (left) return;
        left = true;
        board.leave(lines);
      };
      return { refusal: null, leave };
    }
    const wait = giveUpAt - Date.now();
    if (wait <= 0) return { refusal: null, leave: stay };
    await board.waitForChange(
      lines.map((l) => l.productId),
      Math.min(wait, BOARD_WAKE_MS),
    );
    // Its own checkout was asked about on the first read: while waiting, this request is it.
    ({ rows } = await readTogether(db, lines, null, now));
  }
}

interface Reader {
  lines: CheckoutLine[];
  browser: string | null;
  now: Date;
  resolve(read: { rows: LineRow[]; own: boolean }): void;
  reject(error: unknown): void;
}

/** Per database and cart (its products in order): whether a read runs, and who waits for the next. */
const readsOf = new WeakMap<Db, Map<string, { running: boolean; next: Reader[] }>>();

/** At most this many requests answered by one read (its list of browsers stays short). */
const MAX_READERS = 500;

/**
 * The cart's rows from a read that starts after this call, shared with every request for the
 * same products that arrives while the read before it runs. `own`: the browser has an unpaid
 * checkout of its own (asked only when the rows leave its cart short, where it matters).
 */
function readTogether(
  db: Db,
  lines: CheckoutLine[],
  browser: string | null,
  now: Date,
): Promise<{ rows: LineRow[]; own: boolean }> {
  let byCart = readsOf.get(db);
  if (!byCart) {
    byCart = new Map();
    readsOf.set(db, byCart);
  }
  const key = lines.map((l) => l.productId).join(" ");
  let slot = byCart.get(key);
  if (!slot) {
    slot = { running: false, next: [] };
    byCart.set(key, slot);
  }
  const read = new Promise<{ rows: LineRow[]; own: boolean }>((resolve, reject) => {
    slot.next.push({ lines, browser, now, resolve, reject });
  });
  if (!slot.running) void readForAll(db, byCart, key, slot);
  return read;
}

async function readForAll(
  db: Db,
  byCart: Map<string, { running: boolean; next: Reader[] }>,
  key: string,
  slot: { running: boolean; next: Reader[] },
) {
  slot.running = true;
  while (slot.next.length > 0) {
    const readers = slot.next.splice(0, MAX_READERS);
    try {
      // The same products in the same order: one reader's lines stand for all.
      const rows = await readLines(db, readers[0]?.lines ?? []);
      const asking = readers
        .filter((r) => r.browser !== null && refusalFromRows(r.lines, rows, r.now)?.reason === "sin_stock")
        .map((r) => r.browser as string);
      const owners = await checkoutOwners(db, asking);
      for (const r of readers) r.resolve({ rows, own: r.browser !== null && owners.has(r.browser) });
    } catch (error) {
      for (const r of readers) r.reject(error);
    }
  }
  slot.running = false;
  byCart.delete(key);
}

/** Which of these browsers have an unpaid checkout of their own. */
async function checkoutOwners(db: Db, browsers: string[]): Promise<Set<string>> {
  if (browsers.length === 0) return new Set();
  const rows = await db
    .selectFrom("orders")
    .select("checkout_browser")
    .where("status", "=", "esperando_pago")
    .where("checkout_browser", "in", [...new Set(browsers)])
    .execute();
  return new Set(rows.map((r) => r.checkout_browser).filter((b) => b !== null));
}
