import type { Db } from "~/db/database.server";
import type { Charged } from "./charged";
import { refundMissingPieces } from "./missing-refund.server";
import { countPaidOrder } from "./paid-count.server";
import { confirmPayment, type PaidOutcome, type PaymentConfirmation } from "./payment.server";
import type { PaymentProvider, PaymentState } from "./payment-port";
import { refundOrder } from "./refunds.server";

/**
 * A payment the provider (or the demo page) confirmed, settled the one way every path takes (the
 * webhook, the sweeper, the return page, the demo page): the order paid, or cancelled (over a
 * drop's per-person limit, paid late with every piece gone, or charged another amount or currency
 * than its total) with its refund asked of the provider; counted once in the shop's metrics. What
 * the provider charged is required: confirmPayment compares it with the order before anything.
 */
export async function settlePayment(
  db: Db,
  payments: PaymentProvider | null | undefined,
  input: PaymentConfirmation & { charged: Charged },
  options: {
    /**
     * A replayed confirmation of an order cancelled before its refund was made asks for the
     * refund again (the webhook: the provider retries until it is answered).
     */
    refundIfPending?: boolean;
  } = {},
): Promise<{ outcome: PaidOutcome; cancelled: boolean }> {
  const outcome = await confirmPayment(db, input);
  await countPaidOrder(db, input.orderId, outcome);
  const cancelled =
    outcome === "cancelled_over_limit" ||
    outcome === "cancelled_sold_out" ||
    outcome === "cancelled_mismatch" ||
    (outcome === "already_paid" &&
      options.refundIfPending === true &&
      (await pendingRefund(db, input.orderId)));
  if (cancelled && payments) await refundOrder(db, payments, input.orderId, input.now);
  // Paid late with some pieces gone: their price goes back through the provider now (the
  // refunds job asks again if it does not answer).
  if (outcome === "paid_after_expiry_short" && payments)
    await refundMissingPieces(db, payments, input.orderId, input.now);
  return { outcome, cancelled };
}

/** A confirmation for an order cancelled before its refund was made: the refund is still owed. */
async function pendingRefund(db: Db, orderId: string): Promise<boolean> {
  const row = await db
    .selectFrom("refunds")
    .select("order_id")
    .where("order_id", "=", orderId)
    .where("status", "=", "pendiente")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A session the provider itself says is paid (asked with the shop's key, not told by an event),
 * settled from what it says: the sweeper finding a hold paid, the buyer back on the return page
 * before the provider's event came.
 */
export function settlePaidSession(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
  state: PaymentState,
  now: Date,
): ReturnType<typeof settlePayment> {
  return settlePayment(db, payments, {
    orderId,
    customerName: state.customerName,
    customerEmail: state.customerEmail,
    shipping: state.shipping,
    paymentId: state.paymentId ?? null,
    cardFingerprint: state.cardFingerprint ?? null,
    cardFunding: state.cardFunding ?? null,
    installmentMonths: state.installmentMonths ?? null,
    shippingRate: state.shippingRate ?? null,
    charged: { amountCents: state.amountCents, currency: state.currency },
    paidAt: state.paidAt ?? null,
    now,
  });
}
