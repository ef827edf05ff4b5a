import type { Database } from "~/db/database.server";
import type { CheckoutLine } from "~/orders/cart-read.server";
import { type HeldOrder, setPaymentSession } from "~/orders/holds.server";
import { applyPaymentEvent } from "~/orders/payment-events.server";
import { createStripeClient, createStripePayments } from "~/payments/stripe-payments.server";
import { type FakeStripe, payByCard, STRIPE_SHOPPER } from "./fake-stripe";
import { hold } from "./orders";
import { signedSessionEvent } from "./stripe-events";

/** The shop's Stripe payments, through the real SDK, against the local stand-in. */
export function stripePaymentsAt(fake: FakeStripe, webhookSecret: string) {
  return createStripePayments(
    createStripeClient({ secretKey: "sk_test_123", webhookSecret, apiBase: fake.url }),
    { webhookSecret },
  );
}

/**
 * An order held and paid by card at the stand-in, as a buyer does on Stripe's page (the card's
 * fingerprint names her e-mail), and its `checkout.session.completed` signed like Stripe's and
 * applied by the shop. Returns the order as held, its PaymentIntent and the payments used.
 */
export async function orderPaidByCard(
  database: Database,
  fake: FakeStripe,
  options: {
    lines: CheckoutLine[];
    email: string;
    webhookSecret: string;
    funding?: "credit" | "debit" | "prepaid" | "unknown";
    /** Runs after the card is charged and before the shop hears of it (a webhook that comes late). */
    beforeWebhook?: (order: HeldOrder) => Promise<void>;
    /** When Stripe dated the event (its `created`); left out, the event says no time. */
    eventCreated?: Date;
    /** When the shop applies the event (now by default). */
    now?: Date;
  },
): Promise<{ order: HeldOrder; paymentIntent: string; payments: ReturnType<typeof stripePaymentsAt> }> {
  const payments = stripePaymentsAt(fake, options.webhookSecret);
  const order = await hold(database.db, { lines: options.lines, provider: "stripe" });
  const session = await payments.createSession(order, {
    success: "https://t.example/s",
    cancel: "https://t.example/c",
  });
  await setPaymentSession(database.db, order.id, session);
  const paymentIntent = payByCard(fake, session.id, {
    amount: order.totalCents,
    fingerprint: `fp_${options.email}`,
    ...(options.funding ? { funding: options.funding } : {}),
    shopper: { customer_details: { ...STRIPE_SHOPPER.customer_details, email: options.email } },
  });
  await options.beforeWebhook?.(order);
  const event = signedSessionEvent(
    fake,
    payments,
    options.webhookSecret,
    "checkout.session.completed",
    session.id,
    {
      ...(options.eventCreated ? { created: options.eventCreated } : {}),
    },
  );
  await applyPaymentEvent(database.db, event, options.now ?? new Date(), payments);
  return { order, paymentIntent, payments };
}
