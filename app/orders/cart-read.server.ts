import type { CompiledQuery, DialectAdapter, InferResult } from "kysely";
import { isDropPurchasable } from "~/catalogue/drop-time";
import { isVisible } from "~/catalogue/publishing";
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
  /** The value of the product's option chosen (a size, decision 34); null or absent for none. */
  optionId?: string | null;
}

/** A value of a product's option, as the hold reads it. */
export interface OptionRow {
  id: string;
  product_id: string;
  value: string;
  stock: number;
}

/** Why a cart cannot be held, with the Spanish message the shopper reads. */
export type HoldRefusal =
  | {
      reason:
        | "carrito_vacio"
        | "no_encontrado"
        | "coleccion_cerrada"
        | "sin_stock"
        | "pago_en_curso"
        /** A product with sizes, without the size. */
        | "sin_opcion";
      message: string;
    }
  | CeilingRefusal;

/** Thrown inside the hold's transaction to roll back what it took; never leaves app/orders. */
export class Refused extends Error {
  constructor(readonly refusal: HoldRefusal) {
    super(refusal.message);
  }
}

/** The same product (and value) twice in a cart is one line with both quantities. */
export function mergeLines(lines: CheckoutLine[]): CheckoutLine[] {
  const merged = new Map<string, CheckoutLine>();
  for (const line of lines) {
    const key = `${line.productId}\u0000${line.optionId ?? ""}`;
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/** The values the cart's lines name (none read when no line names one). */
export async function readOptions(db: Db, lines: readonly CheckoutLine[]): Promise<OptionRow[]> {
  const ids = [...new Set(lines.flatMap((l) => (l.optionId ? [l.optionId] : [])))];
  if (ids.length === 0) return [];
  return db
    .selectFrom("product_options")
    .select(["id", "product_id", "value", "stock"])
    .where("id", "in", ids)
    .execute();
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
  const options = await readOptions(db, lines);
  // One read, not two: every row says whether the browser has an unpaid checkout of its own.
  const own = rows.some((r) => Boolean(r.own_checkout));
  return { refusal: refusalFromRows(lines, rows, now, own, options), rows };
}

/**
 * The refusal the rows read give the cart; a short cart the browser holds itself (`own`) is not
 * refused. With the values read (`options`), sizes are checked and counted per value; without
 * them (the front door's board), per product only: the hold's transaction decides either way.
 */
export function refusalFromRows(
  lines: CheckoutLine[],
  rows: LineRow[],
  now: Date,
  own = false,
  options: readonly OptionRow[] | null = null,
): HoldRefusal | null {
  try {
    checkLines(lines, rows, now, options);
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
  const valueStock = new Map((options ?? []).map((o) => [o.id, o.stock]));
  const short = lines
    .map((line) => ({
      line,
      left:
        options !== null && line.optionId
          ? (valueStock.get(line.optionId) ?? 0)
          : (rows.find((r) => r.id === line.productId)?.stock ?? 0),
    }))
    .filter(({ line, left }) => left < line.quantity);
  if (short.length === 0 || own) return null;
  return shortRefusal(lines, short, rows, options ?? []);
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
      "products.option_name",
      "drops.status",
      "drops.start_at",
      "drops.end_at",
      "drops.visible_from",
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

/**
 * Each line with its product's row (and its value's, for a product with sizes), or the refusal
 * (thrown) of a missing or closed piece, a size missing or unknown, or a total too big. Without
 * `options` (the front door's board) sizes are not checked here.
 */
export function checkLines(
  lines: CheckoutLine[],
  rows: LineRow[],
  now: Date,
  options: readonly OptionRow[] | null = null,
) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const values = new Map((options ?? []).map((o) => [o.id, o]));

  // Each line with its product's row: the names and prices of the order come from here.
  const found = lines.map((line) => {
    const row = byId.get(line.productId);
    // A draft's piece, or one not yet 'Visible desde', does not exist for the public (decision 38).
    if (
      !row ||
      row.drop_id !== line.dropId ||
      !isVisible({ visibleFrom: row.visible_from === null ? null : toDate(row.visible_from) }, now)
    )
      throw new Refused({ reason: "no_encontrado", message: "Uno de los productos ya no existe." });
    if (options === null) return { line, row, option: null };
    if (row.option_name !== null && !line.optionId) {
      const which = row.option_name === "Talla" ? "la talla" : "el largo";
      throw new Refused({ reason: "sin_opcion", message: `Elige ${which} de ${row.name}.` });
    }
    const option = line.optionId ? values.get(line.optionId) : undefined;
    if (line.optionId && (row.option_name === null || option?.product_id !== row.id)) {
      throw new Refused({
        reason: "no_encontrado",
        message: `${row.option_name ?? "Esa opción"} de ${row.name}: ya no existe. Elige otra.`,
      });
    }
    return { line, row, option: option ?? null };
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

/** The piece as the shopper reads it: "Anillo Marea", or "Anillo Marea talla 7". */
export function pieceName(
  row: Pick<LineRow, "name" | "option_name">,
  option: { value: string } | null | undefined,
) {
  return option && row.option_name
    ? `${row.name} ${row.option_name.toLowerCase()} ${option.value}`
    : row.name;
}

/** "No hay piezas suficientes: …", naming each short piece (and size) in the shopper's order with what is left. */
export function shortRefusal(
  lines: CheckoutLine[],
  short: { line: CheckoutLine; left: number }[],
  rows: LineRow[],
  options: readonly OptionRow[] = [],
): HoldRefusal {
  const key = (l: CheckoutLine) => `${l.productId}\u0000${l.optionId ?? ""}`;
  const byLine = new Map(
    short.map(({ line, left }) => {
      const row = rows.find((r) => r.id === line.productId);
      const option = options.find((o) => o.id === line.optionId);
      const name = row ? pieceName(row, option) : "";
      return [key(line), left === 0 ? `${name} (agotado)` : `${name} (quedan ${left})`];
    }),
  );
  const names = lines.map((l) => byLine.get(key(l))).filter((m) => m !== undefined);
  return { reason: "sin_stock", message: `No hay piezas suficientes: ${names.join(", ")}.` };
}
