import type { CompiledQuery, DialectAdapter, InferResult } from "kysely";
import { isDropPurchasable } from "~/catalogue/drop-time";
import { type Db, isUniqueViolation, toDate, toTimestamp } from "~/db/database.server";
import { newOrderId } from "./ids";
import {
  HOLD_MINUTES,
  type LimitRefusal,
  MIN_HOLD_MINUTES,
  type OrderCeilings,
  perDropRefusal,
  piecesRefusal,
  totalRefusal,
} from "./limits";
import { movableFrom } from "./status";
import { heldByOrder, restock, takeStock } from "./stock.server";

export { HOLD_MINUTES, MIN_HOLD_MINUTES } from "./limits";

/** The unique index that keeps one unpaid checkout per browser (migration 0010). */
const ONE_CHECKOUT_PER_BROWSER = "orders_one_checkout_per_browser";

export interface CheckoutLine {
  productId: string;
  dropId: string;
  quantity: number;
}

export interface HeldOrder {
  id: string;
  totalCents: number;
  expiresAt: Date;
  lines: { productId: string; dropId: string; name: string; unitPriceCents: number; quantity: number }[];
}

/** Why a cart cannot be held, with the Spanish message the shopper reads. */
export type HoldRefusal =
  | {
      reason: "carrito_vacio" | "no_existe" | "coleccion_cerrada" | "sin_stock" | "pago_en_curso";
      message: string;
    }
  | LimitRefusal;

export type HoldResult = ({ ok: true } & HeldOrder) | ({ ok: false } & HoldRefusal);

/** Thrown inside the transaction to roll back what it took; never leaves this module. */
class Refused extends Error {
  constructor(readonly refusal: HoldRefusal) {
    super(refusal.message);
  }
}

/** The same product twice in a cart is one line with both quantities. */
function mergeLines(lines: CheckoutLine[]): CheckoutLine[] {
  const merged = new Map<string, CheckoutLine>();
  for (const line of lines) {
    const seen = merged.get(line.productId);
    merged.set(line.productId, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/**
 * Holds the pieces of a cart and creates its order (`esperando_pago`), in one transaction.
 * Names and prices come from the database, never from the shopper. If any line is short, nothing
 * is held and the refusal names every short piece and what is left.
 *
 * Before the transaction, a plain read of the same rows (`precheckCart`) answers a cart that
 * cannot be held — pieces gone, a closed collection — with the very refusal the transaction would
 * give, without waiting behind the holds being written: on drop day most shoppers arrive after the
 * last piece went. Only a cart that may succeed takes the write path, which checks everything
 * again and alone decides (the read never holds anything, so it can never sell a piece twice).
 * `precheck: false` skips the read (tests compare both paths).
 */
export async function holdCart(
  db: Db,
  input: {
    lines: CheckoutLine[];
    provider: string;
    /** The browser starting it: it may have one unpaid checkout (see `openCheckoutsOf`). */
    browser?: string | null;
    /** The order's ceilings of pieces, when the owner raised them. */
    ceilings?: OrderCeilings;
    now?: Date;
    precheck?: boolean;
  },
): Promise<HoldResult> {
  const now = input.now ?? new Date();
  const lines = mergeLines(input.lines);
  if (lines.length === 0) return { ok: false, reason: "carrito_vacio", message: "Tu carrito está vacío." };
  // Too many pieces is refused before the database is asked anything.
  const tooMany = piecesRefusal(lines, input.ceilings);
  if (tooMany) return { ok: false, ...tooMany };
  if (input.precheck !== false) {
    const refusal = await refusalFromRead(db, lines, now);
    if (refusal) return { ok: false, ...refusal };
  }
  try {
    const order = await db
      .transaction()
      .execute((trx) => holdInTransaction(trx, lines, input.provider, input.browser ?? null, now));
    return { ok: true, ...order };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, ...error.refusal };
    // Another request of the same browser held a cart in between (two taps, two tabs): that one
    // stands, this one took nothing (its transaction rolled back).
    if (input.browser && isUniqueViolation(error, ONE_CHECKOUT_PER_BROWSER)) {
      return {
        ok: false,
        reason: "pago_en_curso",
        message:
          "Ya tienes un pago en curso en otra ventana. Termínalo ahí o intenta de nuevo en unos segundos.",
      };
    }
    throw error;
  }
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
  if (lines.length === 0) return { reason: "carrito_vacio", message: "Tu carrito está vacío." };
  return (
    piecesRefusal(lines, input.ceilings) ??
    refusalFromRead(db, lines, input.now ?? new Date(), input.browser ?? null)
  );
}

async function refusalFromRead(
  db: Db,
  lines: CheckoutLine[],
  now: Date,
  browser: string | null = null,
): Promise<HoldRefusal | null> {
  const rows = await readLines(db, lines, browser);
  try {
    checkLines(lines, rows, now);
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
  const short = lines
    .map((line) => ({ line, left: rows.find((r) => r.id === line.productId)?.stock ?? 0 }))
    .filter(({ line, left }) => left < line.quantity);
  if (short.length === 0) return null;
  // One read, not two: every row says whether the browser has an unpaid checkout of its own.
  if (rows.some((r) => Boolean(r.own_checkout))) return null;
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
type LineRow = InferResult<LinesQuery>[number];

/**
 * The read compiled once per database, cart size and kind of asker. On drop day it is made for
 * nearly every request, and building and compiling it cost ten times its execution (measured:
 * ~150 µs against ~15 µs on SQLite).
 *
 * Keyed by the database's dialect adapter, which each opened database has its own of and which its
 * transactions share (each transaction is a new Kysely instance, compiling to the same SQL): a
 * hold's read in its transaction reuses the compiled query instead of storing a copy per checkout.
 * The shop's instances carry no plugins or schema (`withPlugin`, `withSchema` share the adapter
 * but compile differently).
 */
const compiledReads = new WeakMap<DialectAdapter, Map<string, CompiledQuery<LineRow>>>();

async function readLines(db: Db, lines: CheckoutLine[], browser: string | null = null): Promise<LineRow[]> {
  const key = `${lines.length} ${browser === null ? "" : "navegador"}`;
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
function checkLines(lines: CheckoutLine[], rows: LineRow[], now: Date) {
  const byId = new Map(rows.map((r) => [r.id, r]));

  // Each line with its product's row: the names and prices of the order come from here.
  const found = lines.map((line) => {
    const row = byId.get(line.productId);
    if (!row || row.drop_id !== line.dropId)
      throw new Refused({ reason: "no_existe", message: "Uno de los productos ya no existe." });
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
function shortRefusal(
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

/** The cart's hold: the shortest its drops allow (never under the minimum, never over the default). */
function holdMinutes(rows: readonly { hold_minutes: number }[]): number {
  const shortest = Math.min(HOLD_MINUTES, ...rows.map((r) => r.hold_minutes));
  return Math.max(MIN_HOLD_MINUTES, shortest);
}

async function holdInTransaction(
  trx: Db,
  lines: CheckoutLine[],
  provider: string,
  browser: string | null,
  now: Date,
) {
  // The stock read here decides nothing: the conditional decrement does.
  const rows = await readLines(trx, lines);
  const found = checkLines(lines, rows, now);
  const snapshot = found.map(({ line, row }) => ({
    productId: row.id,
    dropId: row.drop_id,
    name: row.name,
    unitPriceCents: row.price_cents,
    quantity: line.quantity,
  }));
  const order: HeldOrder = {
    id: newOrderId(),
    totalCents: snapshot.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
    expiresAt: new Date(now.getTime() + holdMinutes(rows) * 60_000),
    lines: snapshot,
  };
  // The order first, the stock after: the insert may wait on the one-checkout-per-browser index
  // (the browser's previous order being released, which then takes product rows), so it must wait
  // before this transaction holds any product row, or two of them could wait on each other.
  await trx
    .insertInto("orders")
    .values({
      id: order.id,
      status: "esperando_pago",
      total_cents: order.totalCents,
      currency: "mxn",
      customer_name: "",
      customer_email: "",
      payment_provider: provider,
      checkout_browser: browser,
      // The session, shipping address and tracking columns stay null until they are known.
      expires_at: toTimestamp(order.expiresAt),
      created_at: toTimestamp(now),
      updated_at: toTimestamp(now),
    })
    .execute();

  const short = await takeStock(trx, lines, now);
  // Throwing rolls back every hold taken above, and the order.
  if (short.length > 0) throw new Refused(shortRefusal(lines, short, rows));

  await trx
    .insertInto("order_lines")
    .values(
      snapshot.map((l, position) => ({
        order_id: order.id,
        position,
        product_id: l.productId,
        drop_id: l.dropId,
        name: l.name,
        unit_price_cents: l.unitPriceCents,
        quantity: l.quantity,
      })),
    )
    .execute();
  return order;
}

/**
 * Links the order to its payment session. The hold ends with the session, or at `holdEndsAt` when
 * that is sooner (a provider may keep sessions open longer than the drop's hold: Stripe's last at
 * least 30 minutes); the sweeper then closes the session before it gives the pieces back, so
 * nobody pays for a released piece.
 */
export async function setPaymentSession(
  db: Db,
  orderId: string,
  session: { id: string; expiresAt: Date },
  holdEndsAt?: Date,
): Promise<void> {
  const ends = holdEndsAt && holdEndsAt < session.expiresAt ? holdEndsAt : session.expiresAt;
  await db
    .updateTable("orders")
    .set({ payment_session_id: session.id, expires_at: toTimestamp(ends) })
    .where("id", "=", orderId)
    .execute();
}

/** The browser's unpaid checkouts whose payment page may still be open (one, by the unique index). */
export async function openCheckoutsOf(db: Db, browser: string): Promise<string[]> {
  const rows = await db
    .selectFrom("orders")
    .select("id")
    .where("checkout_browser", "=", browser)
    .where("status", "=", "esperando_pago")
    .execute();
  return rows.map((r) => r.id);
}

/** Whether `browser` may act on the order's open checkout: the one that started it (or any, when none did). */
export async function isCheckoutOf(db: Db, orderId: string, browser: string | null): Promise<boolean> {
  const order = await db
    .selectFrom("orders")
    .select("checkout_browser")
    .where("id", "=", orderId)
    .executeTakeFirst();
  return !order?.checkout_browser || order.checkout_browser === browser;
}

/** The order is no longer its browser's checkout in progress (paid, or waiting for cash). */
export async function detachBrowser(db: Db, orderId: string): Promise<void> {
  await db.updateTable("orders").set({ checkout_browser: null }).where("id", "=", orderId).execute();
}

/**
 * A delayed payment (e.g. cash at a store) is still on its way: keep the hold a while longer.
 * False when the order no longer waits (another server or the webhook settled it first).
 */
export async function extendHold(db: Db, orderId: string, until: Date): Promise<boolean> {
  const changed = await db
    .updateTable("orders")
    // Its payment page is done with: the browser may start another checkout meanwhile.
    .set({ expires_at: toTimestamp(until), checkout_browser: null })
    .where("id", "=", orderId)
    .where("status", "=", "esperando_pago")
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) === 1;
}

/**
 * Gives a hold's pieces back to stock. Only the first call for an order does anything. With
 * `onlyIfExpired`, only a hold whose time is up is released (a payment page checks before taking
 * money, without waiting for the sweeper).
 */
export async function releaseHold(
  db: Db,
  orderId: string,
  now = new Date(),
  options: { onlyIfExpired?: boolean } = {},
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let release = trx
      .updateTable("orders")
      .set({ status: "expirado", updated_at: toTimestamp(now) })
      .where("id", "=", orderId)
      .where("status", "in", movableFrom("release"));
    if (options.onlyIfExpired) release = release.where("expires_at", "<=", toTimestamp(now));
    const changed = await release.executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return false;
    await restock(trx, await heldByOrder(trx, orderId), now);
    return true;
  });
}

/** Where a page of expired holds ended: the next page starts after this hold. */
export interface HoldCursor {
  expiresAt: string;
  id: string;
}

/**
 * Holds whose time is up, oldest first (then by id, so that pages never overlap): what the
 * sweeper must settle. With `after`, the page starts past that hold, so holds that could not be
 * settled (and still wait) do not fill every page.
 */
export async function expiredHolds(
  db: Db,
  now = new Date(),
  page: { limit?: number; after?: HoldCursor } = {},
) {
  const { limit = 50, after } = page;
  let query = db
    .selectFrom("orders")
    .select(["id", "payment_session_id", "payment_provider", "expires_at"])
    .where("status", "=", "esperando_pago")
    .where("expires_at", "<", toTimestamp(now));
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("expires_at", ">", after.expiresAt),
        eb.and([eb("expires_at", "=", after.expiresAt), eb("id", ">", after.id)]),
      ]),
    );
  }
  const rows = await query.orderBy("expires_at").orderBy("id").limit(limit).execute();
  return rows.map(({ expires_at, ...hold }) => ({
    ...hold,
    cursor: { expiresAt: toTimestamp(toDate(expires_at)), id: hold.id } satisfies HoldCursor,
  }));
}
