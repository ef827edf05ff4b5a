import { sql } from "kysely";
import { type Db, toTimestamp } from "~/db/database.server";
import { CONFIRMATION_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import type { ShippingChoice } from "~/settings/shipping-rates";
import { addressKey, emailKey } from "./buyer-keys";
import { type Charged, type ChargeMismatch, chargeMismatch } from "./charged";
import { recordEvent } from "./desk.server";
import { numberEditionPieces } from "./editions.server";
import { CHARGE_MISMATCH, SOLD_OUT_AT_PAYMENT } from "./order";
import { lockLimitedDrops, overPerPersonLimit } from "./per-person.server";
import { putPiecesBack } from "./pieces-back.server";
import { orderSearchKey } from "./search";
import { addressColumns, type ShippingAddress } from "./shipping";
import { movableFrom } from "./status";
import { heldByOrder, takeStock } from "./stock.server";

export type PaidOutcome =
  | "paid"
  | "already_paid"
  | "paid_after_expiry"
  | "paid_after_expiry_short"
  /** Paid beyond a drop's 'Máximo N por persona': cancelled, its refund to ask (refunds.server.ts). */
  | "cancelled_over_limit"
  /** Paid after its hold expired, every piece sold meanwhile: cancelled, its refund to ask. */
  | "cancelled_sold_out"
  /** The provider charged another amount or currency than the order's: cancelled, what it charged to refund. */
  | "cancelled_mismatch"
  | "unknown_order";

/**
 * Payment confirmed: the order becomes `pendiente` with the customer's details, and its
 * confirmation e-mail is queued in the same transaction. Idempotent: a second confirmation changes
 * nothing. A payment that arrives after its hold expired takes the pieces again if they are still
 * there; if not, the order is kept (the money is real) with a `stock_issue` saying what is missing,
 * so the shop can refund it — stock never goes below zero.
 *
 * In the same transaction the per-person limit is checked (decision 29): a payment that takes the
 * buyer (same e-mail, card or address) past a drop's 'Máximo N por persona' cancels its order,
 * gives its pieces back and records the refund to ask; no confirmation is sent. The caller then
 * asks the provider for the refund (`refundOrder`); the sweeper retries it if that fails.
 * A paid order's pieces of a numbered edition get their numbers here too (editions.server.ts).
 *
 * What the provider charged (`charged`) is compared with what the order asks first: a charge of
 * another amount or currency is never taken as the order's payment; the order is cancelled with a
 * refund of what was charged, on the owner's desk ('Cancelados') and its timeline (decision 37).
 * Left out only by tests that confirm an order directly; every path to the provider passes it
 * (settlePayment requires it).
 */
export async function confirmPayment(db: Db, input: PaymentConfirmation): Promise<PaidOutcome> {
  const now = input.now ?? new Date();
  const paid = paidColumns(input, now);
  const queueConfirmation = (trx: Db) =>
    queueEmail(trx, {
      kind: CONFIRMATION_EMAIL,
      recipient: input.customerEmail,
      orderId: input.orderId,
      dedupeKey: `${CONFIRMATION_EMAIL}:${input.orderId}`,
      now,
    });
  // Each branch claims its transition with a conditional update: on PostgreSQL a concurrent
  // release or a second confirmation waits for this row and then finds the status changed.
  return db.transaction().execute(async (trx) => {
    // The per-person locks before any order or product row (see lockLimitedDrops).
    await lockLimitedDrops(trx, input.orderId);
    const wrong = input.charged
      ? await mismatchOf(trx, input.orderId, input.charged, input.shippingRate ?? null)
      : null;
    if (wrong) return cancelMismatch(trx, input.orderId, paid, wrong, now);
    const fromWaiting = await trx
      .updateTable("orders")
      .set(paid)
      .where("id", "=", input.orderId)
      .where("status", "=", "esperando_pago")
      .executeTakeFirst();
    if (Number(fromWaiting.numUpdatedRows) === 1) {
      if (await cancelIfOverLimit(trx, input.orderId, now)) return "cancelled_over_limit";
      await numberEditionPieces(trx, input.orderId, now);
      await queueConfirmation(trx);
      return "paid";
    }

    const fromExpired = await trx
      .updateTable("orders")
      .set(paid)
      .where("id", "=", input.orderId)
      .where("status", "=", "expirado")
      .executeTakeFirst();
    if (Number(fromExpired.numUpdatedRows) === 0) {
      const exists = await trx
        .selectFrom("orders")
        .select("id")
        .where("id", "=", input.orderId)
        .executeTakeFirst();
      return exists ? "already_paid" : "unknown_order";
    }
    // Its hold had been released: take the pieces again where they are still there.
    const lines = await trx
      .selectFrom("order_lines")
      .select(["position", "product_id", "option_id", "name", "quantity"])
      .where("order_id", "=", input.orderId)
      .execute();
    const short = await takeStock(
      trx,
      lines.map((l) => ({ ...l, productId: l.product_id, optionId: l.option_id })),
      now,
    );
    for (const { line } of short) {
      await trx
        .updateTable("order_lines")
        .set({ missing: line.quantity })
        .where("order_id", "=", input.orderId)
        .where("position", "=", line.position)
        .execute();
    }
    // Nothing left to send: the order is cancelled and the whole payment refunded, as over the limit.
    if (short.length === lines.length && (await cancelSoldOut(trx, input.orderId, now)))
      return "cancelled_sold_out";
    if (short.length > 0) {
      const missing = short.map(({ line }) => `${line.name} × ${line.quantity}`);
      await trx
        .updateTable("orders")
        .set({
          stock_issue: `Pagado después de vencer el apartado, sin stock para: ${missing.join(", ")}`,
          // Their price goes back through the provider (missing-refund.server.ts), asked by the
          // caller now; the refunds job leaves it that long before asking again.
          missing_refund_status: "pendiente",
          missing_refund_next_at: toTimestamp(new Date(now.getTime() + REFUND_SWEEP_DELAY_MS)),
        })
        .where("id", "=", input.orderId)
        .execute();
    }
    if (await cancelIfOverLimit(trx, input.orderId, now)) return "cancelled_over_limit";
    await numberEditionPieces(trx, input.orderId, now);
    await queueConfirmation(trx);
    return short.length === 0 ? "paid_after_expiry" : "paid_after_expiry_short";
  });
}

/** A payment the provider confirmed, as every path hands it to confirmPayment. */
export interface PaymentConfirmation {
  orderId: string;
  customerName: string;
  customerEmail: string;
  shipping?: ShippingAddress | null;
  /** The provider's payment (Stripe: the PaymentIntent), which a refund names. */
  paymentId?: string | null;
  /** The provider's fingerprint of the card that paid, when it tells it. */
  cardFingerprint?: string | null;
  /** That card's kind ('credit', 'debit'…), when the provider tells it. */
  cardFunding?: string | null;
  /** 'Meses sin intereses': the months of the plan the buyer chose; null for one payment. */
  installmentMonths?: number | null;
  /** The shipping the buyer chose and paid (decision 43): the order's total becomes its pieces plus it. */
  shippingRate?: ShippingChoice | null;
  /** What the provider says it charged: it must be the order's pieces plus that shipping. */
  charged?: Charged;
  /**
   * When the buyer paid, as the provider dates it: the sale's moment (its month in the reports,
   * the global invoice and her factura window), whichever path settles it and however late.
   * `now` when the provider gives none; never later than `now`.
   */
  paidAt?: Date | null;
  now?: Date;
}

/** The columns a payment writes on its order (kept, or cancelled at payment). */
function paidColumns(input: PaymentConfirmation, now: Date) {
  const ship = input.shipping;
  return {
    status: "pendiente" as const,
    customer_name: input.customerName,
    customer_email: input.customerEmail,
    search_text: orderSearchKey(input.orderId, input.customerName, input.customerEmail),
    email_key: emailKey(input.customerEmail),
    card_fingerprint: input.cardFingerprint || null,
    card_funding: input.cardFunding || null,
    address_key: addressKey(ship),
    payment_id: input.paymentId || null,
    installment_months: input.installmentMonths ?? null,
    ...shippingChargeColumns(input.shippingRate ?? null),
    ...(ship ? addressColumns(ship) : {}),
    paid_at: toTimestamp(paidMoment(input.paidAt, now)),
    updated_at: toTimestamp(now),
  };
}

/**
 * The provider's moment of payment, when it gave a real one no later than now and settled within
 * hours of it (a webhook seconds late across midnight on the last day of a month keeps the sale in
 * that month); else now. One settled days late (an outage, a sweep of a voucher) is dated when the
 * shop learnt of it: its month's report and global invoice may already be closed, and the sale
 * must land in one still open, never in none.
 */
function paidMoment(paidAt: Date | null | undefined, now: Date): Date {
  if (!paidAt || Number.isNaN(paidAt.getTime()) || paidAt > now) return now;
  if (now.getTime() - paidAt.getTime() > LATE_SETTLEMENT_MS) return now;
  return paidAt;
}

/** How late a settlement may be and still take the provider's moment of payment. */
const LATE_SETTLEMENT_MS = 6 * 3_600_000;

/**
 * The shipping a payment brought, as columns: the total is recomputed from the stored pieces
 * (total less the shipping recorded so far), so it is right whichever shipping was there before.
 */
/** The shipping chosen, and the total it makes (the pieces + it): the same when applied twice. */
export function shippingChargeColumns(rate: ShippingChoice | null) {
  const cents = rate?.cents ?? 0;
  return {
    shipping_cents: cents,
    shipping_method: rate?.method ?? null,
    shipping_label: rate?.label ?? null,
    total_cents: sql<number>`total_cents - shipping_cents + ${cents}`,
  };
}

/** How long the refunds job leaves a new refund to the code that recorded it. */
const REFUND_SWEEP_DELAY_MS = 2 * 60_000;

/**
 * The order just paid takes its buyer past a drop's limit: it is cancelled (a conditional move),
 * its pieces go back to stock (and so to the next in line), and its refund is recorded, to ask.
 */
async function cancelIfOverLimit(trx: Db, orderId: string, now: Date): Promise<boolean> {
  const over = await overPerPersonLimit(trx, orderId);
  if (!over) return false;
  return cancelAtPayment(trx, orderId, "cancelOverLimit", over.reason, now);
}

/**
 * Paid after its hold expired, and every piece was sold meanwhile: nothing can be sent, so the
 * order is cancelled and the whole payment (its shipping too) refunded through the provider, as
 * over the limit. No piece was taken, so none goes back.
 */
function cancelSoldOut(trx: Db, orderId: string, now: Date): Promise<boolean> {
  return cancelAtPayment(trx, orderId, "cancelSoldOut", SOLD_OUT_AT_PAYMENT, now);
}

/** How a charge differs from what the order asks; null when it is the order's (or the order is unknown). */
async function mismatchOf(
  trx: Db,
  orderId: string,
  charged: Charged,
  rate: ShippingChoice | null,
): Promise<ChargeMismatch | null> {
  const order = await trx
    .selectFrom("orders")
    .select(["total_cents", "shipping_cents", "currency"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order) return null;
  return chargeMismatch(
    { totalCents: order.total_cents, shippingCents: order.shipping_cents, currency: order.currency },
    charged,
    rate?.cents ?? 0,
  );
}

/**
 * A charge that is not what the order asks, for an order still unpaid (waiting, or expired): the
 * money is real, so the order records it (the buyer, the provider's payment, when) and is cancelled
 * at once with a refund of what was charged, asked of the provider by the caller like any
 * cancellation at payment; the owner sees it in 'Cancelados' with both amounts on its timeline.
 * Never taken as paid: nothing is shipped, numbered or confirmed. An order already settled (a
 * replay, another server first) is left as it is.
 */
async function cancelMismatch(
  trx: Db,
  orderId: string,
  paid: ReturnType<typeof paidColumns>,
  wrong: ChargeMismatch,
  now: Date,
): Promise<PaidOutcome> {
  // One conditional move per status, so only the one still holding its pieces gives them back.
  for (const from of movableFrom("cancelMismatch")) {
    const claimed = await trx
      .updateTable("orders")
      .set({ ...paid, status: "cancelado", stock_issue: null, missing_refund_status: null })
      .where("id", "=", orderId)
      .where("status", "=", from)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    // An expired hold gave its pieces back when it ended.
    if (from === "esperando_pago")
      await putPiecesBack(trx, await heldByOrder(trx, orderId), `cancelacion:${orderId}`, now);
    await insertRefund(trx, orderId, wrong.refundCents, wrong.currency, CHARGE_MISMATCH, now);
    await recordEvent(trx, orderId, "cobro_distinto", wrong.detail, now);
    return "cancelled_mismatch";
  }
  const exists = await trx.selectFrom("orders").select("id").where("id", "=", orderId).executeTakeFirst();
  return exists ? "already_paid" : "unknown_order";
}

/** Cancels the order just paid (a conditional move), gives back what it holds, and records its refund. */
async function cancelAtPayment(
  trx: Db,
  orderId: string,
  move: "cancelOverLimit" | "cancelSoldOut",
  reason: string,
  now: Date,
): Promise<boolean> {
  const cancelled = await trx
    .updateTable("orders")
    // The refund covers the whole order: nothing is left to refund by hand, nor apart.
    .set({
      status: "cancelado",
      stock_issue: null,
      missing_refund_status: null,
      updated_at: toTimestamp(now),
    })
    .where("id", "=", orderId)
    .where("status", "in", movableFrom(move))
    .executeTakeFirst();
  if (Number(cancelled.numUpdatedRows) !== 1) return false;
  await putPiecesBack(trx, await heldByOrder(trx, orderId), `cancelacion:${orderId}`, now);
  const order = await trx
    .selectFrom("orders")
    .select(["total_cents", "currency"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  await insertRefund(trx, orderId, order.total_cents, order.currency, reason, now);
  return true;
}

/** Records the refund a cancellation at payment owes, to ask of the provider that took the payment. */
async function insertRefund(
  trx: Db,
  orderId: string,
  amountCents: number,
  currency: string,
  reason: string,
  now: Date,
): Promise<void> {
  const order = await trx
    .selectFrom("orders")
    .select("payment_provider")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("refunds")
    .values({
      order_id: orderId,
      amount_cents: amountCents,
      currency,
      provider: order.payment_provider,
      reason,
      status: "pendiente",
      // The caller asks the provider right away; the sweep only if that did not happen (a crash).
      next_attempt_at: toTimestamp(new Date(now.getTime() + REFUND_SWEEP_DELAY_MS)),
      created_at: toTimestamp(now),
    })
    .onConflict((oc) => oc.column("order_id").doNothing())
    .execute();
}

/** Records a payment event id; false when it was already processed (a replay). */
export async function recordPaymentEvent(
  db: Db,
  id: string,
  type: string,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .insertInto("payment_events")
    .values({ id, type, received_at: toTimestamp(now) })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
