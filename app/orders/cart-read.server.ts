import type { CompiledQuery, DialectAdapter, InferResult } from "kysely";
import { isDropPurchasable } from "~/catalogue/drop-time";
import type { OrderCeilings } from "~/config/ceilings";
import { type Db, toDate } from "~/db/database.server";
import { type CeilingRefusal, perDropRefusal, piecesRefusal, totalRefusal } from "./ceilings";
import type { OpeningRules } from "./opening";

/*
 * A cart read as a checkout sees it: its products with their drops, names, prices and stock, and
 * the refusal those rows give it. Read before a hold (the front door, `holdCart`'s plain read) and
 * inside the hold's transaction.
 */

export interface CheckoutLine {
  productId: string;
  dropId: string;
  quantity: number;
}

/** Why a cart cannot be held, with the Spanish message the shopper reads. */
export type HoldRefusal =
  | {
      reason: "carrito_vacio" | "no_encontrado" | "coleccion_cerrada" | "sin_stock" | "pago_en_curso";
      message: string;
    }
  | CeilingRefusal;

/** Thrown inside the hold's transaction to roll back what it took; never leaves app/orders. */
export class Refused extends Error {
  constructor(readonly refusal: HoldRefusal) {
    super(refusal.message);
  }
}

/** The same product twice in a cart is one line with both quantities. */
export function mergeLines(lines: CheckoutLine[]): CheckoutLine[] {
  const merged = new Map<string, CheckoutLine>();
  for (const line of lines) {
    const seen = merged.get(line.productId);
    merged.set(line.productId, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/**
 * The refusal a cart would get from `holdCart`'s transaction, decided from a plain read of the
 * committed rows (no lock, no write: on PostgreSQL it does not queue behind row locks, on SQLite it
 * does not take the write lock). Null when the cart may be held: only the transaction says it is.
 */
export async function precheckCart(
  db: Db,
  input: {
    lines: CheckoutLine[];
    ceilings?: OrderCeilings;
    now?: Date;
    /**
     * The browser asking: pieces it holds itself in its unpaid checkout are not gone for it (a new
     * checkout releases the old one first), so a short cart is not refused while it has one.
     */
    browser?: string | null;
  },
): Promise<HoldRefusal | null> {
  const lines = mergeLines(input.lines);
  return (
    refusalBeforeRead(lines, input.ceilings) ??
    (await readForHold(db, lines, input.now ?? new Date(), input.browser ?? null)).refusal
  );
}

/** An empty cart, or too many pieces: refused before the database is asked anything. */
export function refusalBeforeRead(lines: CheckoutLine[], ceilings?: OrderCeilings): HoldRefusal | null {
  if (lines.length === 0) return { reason: "carrito_vacio", message: "Tu carrito está vacío." };
  return piecesRefusal(lines, ceilings);
}

/** The cart's rows, read once, and the refusal they give (null: the cart may be held). */
export async function readForHold(
  db: Db,
  lines: CheckoutLine[],
  now: Date,
  browser: string | null = null,
): Promise<{ refusal: HoldRefusal | null; rows: LineRow[] }> {
  const rows = await readLines(db, lines, browser);
  // One read, not two: every row says whether the browser has an unpaid checkout of its own.
  const own = rows.some((r) => Boolean(r.own_checkout));
  return { refusal: refusalFromRows(lines, rows, now, own), rows };
}

/** The refusal the rows read give the cart; a short cart the browser holds itself (`own`) is not refused. */
export function refusalFromRows(
  lines: CheckoutLine[],
  rows: LineRow[],
  now: Date,
  own = false,
): HoldRefusal | null {
  try {
    checkLines(lines, rows, now);
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
  const short = lines
    .map((line) => ({ line, left: rows.find((r) => r.id === line.productId)?.stock ?? 0 }))
    .filter(({ line, left }) => left < line.quantity);
  if (short.length === 0 || own) return null;
  return shortRefusal(lines, short, rows);
}

/** Stand-ins compiled into the read's SQL, swapped for the real values at each execution. */
const ID_STAND_IN = "\u0000pieza";
const BROWSER_STAND_IN = "\u0000navegador";

/** The products of a cart with their drops: names, prices, stock and the drop's state. */
function linesQuery(db: Db, ids: string[], browser: string | null) {
  return db
    .selectFrom("products")
    .innerJoin("drops", "drops.id", "products.drop_id")
    .select([
      "products.id",
      "products.drop_id",
      "products.name",
      "products.price_cents",
      "products.stock",
      "drops.status",
      "drops.start_at",
      "drops.end_at",
      "drops.name as drop_name",
      "drops.max_per_order",
      "drops.hold_minutes",
      "drops.lottery_seconds",
      "drops.opening_minutes",
      "drops.opening_hold_minutes",
      "drops.opening_holds_per_address",
    ])
    .$if(browser !== null, (qb) =>
      qb.select((eb) =>
        eb
          .exists(
            eb
              .selectFrom("orders")
              .select("orders.id")
              .where("orders.checkout_browser", "=", browser)
              .where("orders.status", "=", "esperando_pago"),
          )
          .as("own_checkout"),
      ),
    )
    .where("products.id", "in", ids);
}

type LinesQuery = ReturnType<typeof linesQuery>;
export type LineRow = InferResult<LinesQuery>[number];

/** The opening rules and hold of a cart row's drop. */
export function openingRulesOf(row: LineRow): OpeningRules & { holdMinutes: number } {
  return {
    startAt: toDate(row.start_at),
    lotterySeconds: row.lottery_seconds,
    openingMinutes: row.opening_minutes,
    openingHoldMinutes: row.opening_hold_minutes,
    openingHoldsPerAddress: row.opening_holds_per_address,
    holdMinutes: row.hold_minutes,
  };
}

/**
 * The read compiled once per dialect, cart size and kind of asker. On drop day it is made for
 * nearly every request, and building and compiling it cost ten times its execution (measured:
 * ~150 µs against ~15 µs on SQLite).
 */
const compiledReads = new WeakMap<DialectAdapter, Map<string, CompiledQuery<LineRow>>>();

export async function readLines(
  db: Db,
  lines: CheckoutLine[],
  browser: string | null = null,
): Promise<LineRow[]> {
  const key = `${lines.length} ${browser === null ? "" : "navegador"}`;
  // Keyed by the database's dialect adapter, which each opened database has its own of and its
  // transactions share (a transaction is a new Kysely instance, compiling to the same SQL): a
  // hold's read reuses it. The shop's instances carry no plugins or schema (`withPlugin`,
  // `withSchema` share the adapter but compile differently).
  const adapter = db.getExecutor().adapter;
  let byShape = compiledReads.get(adapter);
  if (!byShape) {
    byShape = new Map();
    compiledReads.set(adapter, byShape);
  }
  let compiled = byShape.get(key);
  if (!compiled) {
    const standIns = lines.map((_, i) => `${ID_STAND_IN}${i}`);
    compiled = linesQuery(db, standIns, browser === null ? null : BROWSER_STAND_IN).compile();
    // A few shapes only (1 to MAX_ORDER_LINES lines, with or without a browser).
    if (byShape.size < 200) byShape.set(key, compiled);
  }
  const ids = lines.map((l) => l.productId);
  const parameters = compiled.parameters.map((p) => {
    if (p === BROWSER_STAND_IN) return browser;
    if (typeof p === "string" && p.startsWith(ID_STAND_IN)) return ids[Number(p.slice(ID_STAND_IN.length))];
    return p;
  });
  const result = await db.executeQuery<LineRow>({ ...compiled, parameters });
  return result.rows;
}

/** Each line with its product's row, or the refusal (thrown) of a missing or closed piece or a total too big. */
export function checkLines(lines: CheckoutLine[], rows: LineRow[], now: Date) {
  const byId = new Map(rows.map((r) => [r.id, r]));

  // Each line with its product's row: the names and prices of the order come from here.
  const found = lines.map((line) => {
    const row = byId.get(line.productId);
    if (!row || row.drop_id !== line.dropId)
      throw new Refused({ reason: "no_encontrado", message: "Uno de los productos ya no existe." });
    return { line, row };
  });
  const unavailable = found
    .filter(
      ({ row }) =>
        !isDropPurchasable(
          { status: row.status, startAt: toDate(row.start_at), endAt: toDate(row.end_at) },
          now,
        ),
    )
    .map(({ row }) => row.name);
  if (unavailable.length > 0) {
    throw new Refused({
      reason: "coleccion_cerrada",
      message: `Ya no se puede comprar: ${unavailable.join(", ")}. Su colección no está activa.`,
    });
  }

  // The owner's 'Máximo N por persona' of each drop, over all its pieces in the cart.
  const perDrop = perDropRefusal(
    lines,
    new Map(rows.map((r) => [r.drop_id, { name: r.drop_name, maxPerOrder: r.max_per_order }])),
  );
  if (perDrop) throw new Refused(perDrop);

  // Before any stock is taken: a total one payment cannot take would not fit the order's column
  // on PostgreSQL either.
  const tooMuch = totalRefusal(
    found.map(({ line, row }) => ({ unitPriceCents: row.price_cents, quantity: line.quantity })),
  );
  if (tooMuch) throw new Refused(tooMuch);
  return found;
}

/** "No hay piezas suficientes: …", naming each short piece in the shopper's order with what is left. */
export function shortRefusal(
  lines: CheckoutLine[],
  short: { line: CheckoutLine; left: number }[],
  rows: LineRow[],
): HoldRefusal {
  const byProduct = new Map(
    short.map(({ line, left }) => {
      const name = rows.find((r) => r.id === line.productId)?.name ?? "";
      return [line.productId, left === 0 ? `${name} (agotado)` : `${name} (quedan ${left})`];
    }),
  );
  const names = lines.map((l) => byProduct.get(l.productId)).filter((m) => m !== undefined);
  return { reason: "sin_stock", message: `No hay piezas suficientes: ${names.join(", ")}.` };
}
