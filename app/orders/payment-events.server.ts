import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { chosenShipping } from "~/settings/shipping-rates";
import { detachBrowser, releaseHold } from "./holds.server";
import { recordPaymentEvent } from "./payment.server";
import type { PaymentEvent, PaymentProvider } from "./payment-port";
import { settlePayment } from "./settle-payment.server";
import { recordVoucher } from "./voucher-limit.server";

export type PaymentEventOutcome =
  | "duplicate"
  | "paid"
  /**
   * Paid beyond a drop's per-person limit, late with every piece gone, or another amount or
   * currency than the order's: cancelled, and refunded when the provider answered.
   */
  | "cancelled"
  | "awaiting_payment"
  | "released"
  | "ignored";

/**
 * Applies one provider event. Events arrive at least once, out of order, for days: every step is
 * an idempotent transition on the order, and the event id is recorded only after it was applied,
 * so a failure here makes the provider retry rather than lose the event.
 *
 * With the provider, a payment's details the event leaves out (the card's fingerprint) are asked
 * of it before the order is confirmed, and an order cancelled over the per-person limit is refunded
 * at once (if the provider fails, the sweep retries the refund; the event is done).
 */
export async function applyPaymentEvent(
  db: Db,
  event: PaymentEvent,
  now = new Date(),
  payments?: PaymentProvider,
): Promise<PaymentEventOutcome> {
  const seen = await db
    .selectFrom("payment_events")
    .select("id")
    .where("id", "=", event.id)
    .executeTakeFirst();
  if (seen) return "duplicate";
  const outcome = await apply(db, event, now, payments);
  await recordPaymentEvent(db, event.id, event.type, now);
  return outcome;
}

/**
 * Why an event must not touch its order: it names an order we do not have, or a session that is
 * not the one the order opened. Null when it may be applied. (A paid event's amount and currency
 * are compared where every payment is settled, confirmPayment: one of another amount is cancelled
 * and refunded there, never dropped.)
 */
async function mismatch(db: Db, event: Exclude<PaymentEvent, { kind: "ignored" }>): Promise<string | null> {
  const order = await db
    .selectFrom("orders")
    .select("payment_session_id")
    .where("id", "=", event.orderId)
    .executeTakeFirst();
  if (!order) return "pedido desconocido";
  if (order.payment_session_id !== event.sessionId) return `sesión ${event.sessionId} no es la del pedido`;
  return null;
}

async function apply(
  db: Db,
  event: PaymentEvent,
  now: Date,
  payments: PaymentProvider | undefined,
): Promise<PaymentEventOutcome> {
  if (event.kind !== "ignored") {
    const wrong = await mismatch(db, event);
    if (wrong) {
      // Signed, so it came from the provider; still, it changes nothing (one line for the owner's logs).
      log.warn(
        { eventId: event.id, eventType: event.type, orderId: event.orderId, reason: wrong },
        "Evento de pago ignorado",
      );
      return "ignored";
    }
  }
  switch (event.kind) {
    case "paid": {
      // Throws when the provider does not answer: the event is retried, nothing was changed.
      const details = payments ? await payments.getSession(event.sessionId) : null;
      // A replay of an order already cancelled over the limit still owes its refund if it is not made.
      const { cancelled } = await settlePayment(
        db,
        payments,
        {
          orderId: event.orderId,
          customerName: event.customerName,
          customerEmail: event.customerEmail,
          shipping: event.shipping,
          paymentId: details?.paymentId ?? event.paymentId ?? null,
          cardFingerprint: details?.cardFingerprint ?? null,
          cardFunding: details?.cardFunding ?? null,
          installmentMonths: details?.installmentMonths ?? null,
          shippingRate: chosenShipping(event.shippingRate, details?.shippingRate),
          // What the signed event says was charged: compared with the order before it is settled.
          charged: { amountCents: event.amountCents, currency: event.currency },
          // When she paid: the charge's own time when the provider told it (what the sweeper and
          // the return page read too), else the event's.
          paidAt: details?.paidAt ?? event.paidAt ?? null,
          now,
        },
        { refundIfPending: true },
      );
      return cancelled ? "cancelled" : "paid";
    }
    case "awaiting_payment": {
      // Delayed payment methods complete the session unpaid; a paid or failed event follows. The
      // voucher the buyer got is recorded and holds the pieces until it expires (decision 42); over
      // a drop's per-person limit it is cancelled (voucher-limit.server.ts).
      // Throws when the provider does not answer: the event is retried.
      const state = payments ? await payments.getSession(event.sessionId) : null;
      if (payments && state?.voucher && !state.paid)
        await recordVoucher(db, payments, event.orderId, state.voucher, state, now);
      // Either way the payment page is done with: its browser may start another checkout meanwhile.
      else await detachBrowser(db, event.orderId);
      return "awaiting_payment";
    }
    case "failed":
    case "expired":
      await releaseHold(db, event.orderId, now); // does nothing if the order was paid
      return "released";
    default:
      return "ignored";
  }
}
