import { sql } from "kysely";
import { type Db, toTimestamp } from "~/db/database.server";
import { CONFIRMATION_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import type { ShippingChoice } from "~/settings/shipping-rates";
import { addressKey, emailKey } from "./buyer-keys";
import { numberEditionPieces } from "./editions.server";
import { SOLD_OUT_AT_PAYMENT } from "./order";
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
 */
export async function confirmPayment(
  db: Db,
  input: {
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
    now?: Date;
  },
): Promise<PaidOutcome> {
  const now = input.now ?? new Date();
  const ship = input.shipping;
  const paid = {
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
    paid_at: toTimestamp(now),
    updated_at: toTimestamp(now),
  };
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
    .select(["total_cents", "currency", "payment_provider"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("refunds")
    .values({
      order_id: orderId,
      amount_cents: order.total_cents,
      currency: order.currency,
      provider: order.payment_provider,
      reason,
      status: "pendiente",
      // The caller asks the provider right away; the sweep only if that did not happen (a crash).
      next_attempt_at: toTimestamp(new Date(now.getTime() + REFUND_SWEEP_DELAY_MS)),
      created_at: toTimestamp(now),
    })
    .onConflict((oc) => oc.column("order_id").doNothing())
    .execute();
  return true;
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
