import Stripe from "stripe";
import type { PaymentEvent, PaymentProvider } from "~/orders/payment-port";
import type { FakeStripe } from "./fake-stripe";

const signer = new Stripe("sk_test_123");
let eventNumber = 0;

/**
 * Stripe's event of `type` for a Checkout session as the stand-in has it now (`change` laid over
 * it), signed with `webhookSecret` as Stripe signs, and read by the shop's own webhook parser, as
 * the webhook route reads it. `id`: the event's (a new one each call by default); `created`: when
 * Stripe dated it (left out, the event says no time).
 */
export function signedSessionEvent(
  fake: FakeStripe,
  payments: PaymentProvider,
  webhookSecret: string,
  type: string,
  sessionId: string,
  options: { id?: string; created?: Date; change?: Record<string, unknown> } = {},
): PaymentEvent {
  const payload = JSON.stringify({
    id: options.id ?? `evt_prueba_${++eventNumber}`,
    object: "event",
    type,
    ...(options.created ? { created: Math.floor(options.created.getTime() / 1000) } : {}),
    data: { object: { ...fake.sessions.get(sessionId), ...options.change } },
  });
  const event = payments.parseWebhook?.(
    payload,
    signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
  );
  if (!event) throw new Error("no webhooks");
  return event;
}
