import type { Db } from "~/db/database.server";
import { releaseHold } from "./holds.server";
import { confirmPayment, recordPaymentEvent } from "./payment.server";
import type { PaymentEvent } from "./payment-port";

export type PaymentEventOutcome = "duplicate" | "paid" | "awaiting_payment" | "released" | "ignored";

/**
 * Applies one provider event. Events arrive at least once, out of order, for days: every step is
 * an idempotent transition on the order, and the event id is recorded only after it was applied,
 * so a failure here makes the provider retry rather than lose the event.
 */
export async function applyPaymentEvent(
  db: Db,
  event: PaymentEvent,
  now = new Date(),
): Promise<PaymentEventOutcome> {
  const seen = await db
    .selectFrom("payment_events")
    .select("id")
    .where("id", "=", event.id)
    .executeTakeFirst();
  if (seen) return "duplicate";
  const outcome = await apply(db, event, now);
  await recordPaymentEvent(db, event.id, event.type, now);
  return outcome;
}

async function apply(db: Db, event: PaymentEvent, now: Date): Promise<PaymentEventOutcome> {
  switch (event.kind) {
    case "paid":
      await confirmPayment(db, {
        orderId: event.orderId,
        customerName: event.customerName,
        customerEmail: event.customerEmail,
        shipping: event.shipping,
        now,
      });
      return "paid";
    case "awaiting_payment":
      // Delayed payment methods complete the session unpaid; a paid event follows.
      return "awaiting_payment";
    case "failed":
    case "expired":
      await releaseHold(db, event.orderId, now); // does nothing if the order was paid
      return "released";
    default:
      return "ignored";
  }
}
