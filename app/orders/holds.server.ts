import { HOLD_MINUTES, MIN_HOLD_MINUTES, type OrderCeilings } from "~/config/ceilings";
import { OPENING_BOUNDS } from "~/config/opening";
import { type Db, isUniqueViolation, toDate, toTimestamp } from "~/db/database.server";
import { VOUCHER_ENDED_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import { holdsChanged } from "./admission.server";
import {
  type CheckoutLine,
  checkLines,
  type HoldRefusal,
  type LineRow,
  mergeLines,
  openingRulesOf,
  pieceName,
  Refused,
  readForHold,
  readLines,
  readOptions,
  refusalBeforeRead,
  shortRefusal,
} from "./cart-read.server";
import { newOrderId } from "./ids";
import { holdMinutesAt } from "./opening";
import { putPiecesBack } from "./pieces-back.server";
import { movableFrom } from "./status";
import { heldByOrder, takeStock } from "./stock.server";

export { HOLD_MINUTES, MIN_HOLD_MINUTES } from "~/config/ceilings";
export { type CheckoutLine, type HoldRefusal, precheckCart } from "./cart-read.server";

/** The unique index that keeps one unpaid checkout per browser (migration 0010). */
const ONE_CHECKOUT_PER_BROWSER = "orders_one_checkout_per_browser";

export interface HeldOrder {
  id: string;
  totalCents: number;
  expiresAt: Date;
  lines: { productId: string; dropId: string; name: string; unitPriceCents: number; quantity: number }[];
}

export type HoldResult = ({ ok: true } & HeldOrder) | ({ ok: false } & HoldRefusal);

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
    /** The client's address bucket (the opening's per-address rule counts it). */
    bucket?: string | null;
    now?: Date;
    precheck?: boolean;
  },
): Promise<HoldResult> {
  const now = input.now ?? new Date();
  const lines = mergeLines(input.lines);
  const before = refusalBeforeRead(lines, input.ceilings);
  if (before) return { ok: false, ...before };
  if (input.precheck !== false) {
    const { refusal } = await readForHold(db, lines, now);
    if (refusal) return { ok: false, ...refusal };
  }
  try {
    const order = await db
      .transaction()
      .execute((trx) =>
        holdInTransaction(trx, lines, input.provider, input.browser ?? null, input.bucket ?? null, now),
      );
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
  } finally {
    // Committed or rolled back: checkouts waiting at the front door for these pieces read again.
    holdsChanged(
      db,
      lines.map((l) => l.productId),
    );
  }
}

/**
 * The cart's hold: the shortest its drops allow now (a drop's opening has its own, shorter hold,
 * as short as its form allows), never under the minimum, never over the default.
 */
function holdMinutes(rows: readonly LineRow[], now: Date): number {
  const shortest = Math.min(HOLD_MINUTES, ...rows.map((r) => holdMinutesAt(openingRulesOf(r), now)));
  return Math.max(Math.min(MIN_HOLD_MINUTES, OPENING_BOUNDS.openingHoldMinutes.min), shortest);
}

async function holdInTransaction(
  trx: Db,
  lines: CheckoutLine[],
  provider: string,
  browser: string | null,
  bucket: string | null,
  now: Date,
) {
  // The stock read here decides nothing: the conditional decrement does.
  const rows = await readLines(trx, lines);
  const options = await readOptions(trx, lines);
  const found = checkLines(lines, rows, now, options);
  const snapshot = found.map(({ line, row, option }) => ({
    productId: row.id,
    dropId: row.drop_id,
    // The payment page's words: the piece and its size ("Anillo Marea talla 7").
    name: pieceName(row, option),
    optionId: option?.id ?? null,
    optionValue: option?.value ?? null,
    unitPriceCents: row.price_cents,
    quantity: line.quantity,
  }));
  const order: HeldOrder = {
    id: newOrderId(),
    totalCents: snapshot.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
    expiresAt: new Date(now.getTime() + holdMinutes(rows, now) * 60_000),
    lines: snapshot.map(({ productId, dropId, name, unitPriceCents, quantity }) => ({
      productId,
      dropId,
      name,
      unitPriceCents,
      quantity,
    })),
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
      address_bucket: bucket,
      // The session, shipping address and tracking columns stay null until they are known.
      expires_at: toTimestamp(order.expiresAt),
      created_at: toTimestamp(now),
      updated_at: toTimestamp(now),
    })
    .execute();

  const short = await takeStock(trx, lines, now);
  // Throwing rolls back every hold taken above, and the order.
  if (short.length > 0) throw new Refused(shortRefusal(lines, short, rows, options));

  await trx
    .insertInto("order_lines")
    .values(
      snapshot.map((l, position) => ({
        order_id: order.id,
        position,
        product_id: l.productId,
        drop_id: l.dropId,
        // The piece as bought, size and all: every page, e-mail and sheet of the order says it.
        name: l.name,
        option_id: l.optionId,
        option_value: l.optionValue,
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
 * nobody pays for a released piece. False when the hold ended while the session was being made
 * (the same browser opened another checkout meanwhile, which closes this one): a payment page for
 * pieces already given back is never linked.
 */
export async function setPaymentSession(
  db: Db,
  orderId: string,
  session: { id: string; expiresAt: Date; url?: string },
  holdEndsAt?: Date,
  /** The shop's origin the checkout came from (its e-mails link 'Mi pedido' there). */
  siteUrl?: string | null,
): Promise<boolean> {
  const ends = holdEndsAt && holdEndsAt < session.expiresAt ? holdEndsAt : session.expiresAt;
  const linked = await db
    .updateTable("orders")
    .set({
      payment_session_id: session.id,
      expires_at: toTimestamp(ends),
      payment_url: session.url ?? null,
      ...(siteUrl ? { site_url: siteUrl } : {}),
    })
    .where("id", "=", orderId)
    .where("status", "=", "esperando_pago")
    .executeTakeFirst();
  return Number(linked.numUpdatedRows) === 1;
}

/**
 * The browser's unpaid checkouts whose payment page may still be open (one, by the unique index),
 * with the products they hold and where they are paid.
 */
export async function openCheckoutsOf(db: Db, browser: string): Promise<OpenCheckout[]> {
  const rows = await db
    .selectFrom("orders")
    .leftJoin("order_lines", "order_lines.order_id", "orders.id")
    .select([
      "orders.id",
      "orders.payment_url",
      "orders.expires_at",
      "orders.created_at",
      "order_lines.product_id",
      "order_lines.option_id",
      "order_lines.quantity",
    ])
    .where("orders.checkout_browser", "=", browser)
    .where("orders.status", "=", "esperando_pago")
    .execute();
  const byOrder = new Map<string, OpenCheckout>();
  for (const r of rows) {
    const order = byOrder.get(r.id) ?? {
      id: r.id,
      paymentUrl: r.payment_url,
      expiresAt: toDate(r.expires_at),
      createdAt: toDate(r.created_at),
      productIds: [],
      lines: [],
    };
    if (r.product_id) {
      order.productIds.push(r.product_id);
      order.lines.push({ productId: r.product_id, optionId: r.option_id ?? null, quantity: r.quantity ?? 0 });
    }
    byOrder.set(r.id, order);
  }
  return [...byOrder.values()];
}

/** A browser's unpaid checkout: where it is paid, until when, and the pieces it holds. */
export interface OpenCheckout {
  id: string;
  paymentUrl: string | null;
  expiresAt: Date;
  createdAt: Date;
  productIds: string[];
  lines: { productId: string; optionId: string | null; quantity: number }[];
}

/** Whether a cart asks for exactly the pieces (product, size, quantity) an open checkout holds. */
export function sameCart(
  held: readonly { productId: string; optionId?: string | null; quantity: number }[],
  asked: readonly { productId: string; optionId?: string | null; quantity: number }[],
): boolean {
  const key = (l: { productId: string; optionId?: string | null; quantity: number }) =>
    `${l.productId}\u0000${l.optionId ?? ""}\u0000${l.quantity}`;
  const mine = mergeLines(asked.map((l) => ({ ...l, dropId: "", optionId: l.optionId ?? null }))).map(key);
  const theirs = held.map(key);
  return mine.length === theirs.length && mine.every((k) => theirs.includes(k));
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
 * Gives a hold's pieces back to stock, and tells the first addresses waiting for them ('Avísame si
 * vuelve'; the mail queue sends them within a minute). Only the first call for an order does anything. With
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
    // Only the call that released the hold gets here: 'Avísame si vuelve' is told once.
    await putPiecesBack(trx, await heldByOrder(trx, orderId), `apartado:${orderId}`, now);
    // A voucher that ended unpaid (expired, failed): its buyer is told the pieces went back.
    const voucher = await trx
      .selectFrom("orders")
      .select(["voucher_reference", "customer_email"])
      .where("id", "=", orderId)
      .executeTakeFirst();
    if (voucher?.voucher_reference && voucher.customer_email) {
      await queueEmail(trx, {
        kind: VOUCHER_ENDED_EMAIL,
        recipient: voucher.customer_email,
        orderId,
        dedupeKey: `${VOUCHER_ENDED_EMAIL}:${orderId}`,
        now,
      });
    }
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
    .select(["id", "payment_session_id", "payment_provider", "expires_at", "voucher_reference"])
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
