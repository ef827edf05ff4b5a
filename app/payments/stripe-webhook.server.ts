import type Stripe from "stripe";
import type { Db } from "~/db/database.server";
import { confirmPayment, recordPaymentEvent, releaseHold } from "~/orders/orders.server";
import { shippingOf } from "./stripe-payments.server";

export type WebhookOutcome = "duplicate" | "paid" | "awaiting_payment" | "released" | "ignored";

/**
 * Applies one Stripe event. Events arrive at least once, out of order, for days: every step is an
 * idempotent transition on the order, and the event id is recorded only after it was applied, so
 * a failure here makes Stripe retry rather than lose the event.
 */
export async function handleStripeEvent(
  db: Db,
  event: Stripe.Event,
  now = new Date(),
): Promise<WebhookOutcome> {
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

async function apply(db: Db, event: Stripe.Event, now: Date): Promise<WebhookOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      const orderId = session.metadata?.order_id ?? session.client_reference_id;
      if (!orderId) return "ignored";
      // Delayed payment methods complete the session unpaid; async_payment_succeeded follows.
      if (session.payment_status !== "paid") return "awaiting_payment";
      await confirmPayment(db, {
        orderId,
        customerName: session.customer_details?.name ?? "",
        customerEmail: session.customer_details?.email ?? "",
        shipping: shippingOf(session),
        now,
      });
      return "paid";
    }
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired": {
      const session = event.data.object;
      const orderId = session.metadata?.order_id ?? session.client_reference_id;
      if (!orderId) return "ignored";
      await releaseHold(db, orderId, now); // does nothing if the order was paid
      return "released";
    }
    default:
      return "ignored";
  }
}
