import { log } from "~/config/log.server";
import { applyPaymentEvent } from "~/orders/payment-events.server";
import { InvalidWebhook, type PaymentEvent } from "~/orders/payment-port";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/api.stripe-webhook";

/** POST /api/stripe/webhook: Stripe's events, verified by their signature on the raw body. */
export async function action({ request, context }: Route.ActionArgs) {
  const { database, payments, mail } = context.get(servicesContext);
  if (!payments.parseWebhook) return Response.json({ message: "No encontrado" }, { status: 404 });
  const payload = await request.text();
  let event: PaymentEvent;
  try {
    event = payments.parseWebhook(payload, request.headers.get("stripe-signature") ?? "");
  } catch (error) {
    if (error instanceof InvalidWebhook) {
      if (error.reason === "evento") log.warn({ error: error.message }, "Webhook de pago ilegible");
      else badSignature();
      const message = error.reason === "firma" ? "Firma inválida." : "Evento inválido.";
      return Response.json({ message }, { status: 400 });
    }
    throw error;
  }
  const outcome = await applyPaymentEvent(database.db, event, new Date(), payments);
  // The confirmation e-mail (or, over the per-person limit, the refund's) was queued with the
  // payment; send it after answering Stripe (which wants a quick 2xx), or the scheduler will.
  if (outcome === "paid" || outcome === "cancelled") mail.sendSoon();
  return Response.json({ received: true, outcome });
}

/**
 * Refused signatures, said at most once a minute: anyone may post here, but a secret mistyped or
 * rotated at Stripe refuses every real event too, and vouchers paid meanwhile wait for the sweep.
 */
let refusedSinceSaid = 0;
let saidAt = Number.NEGATIVE_INFINITY;
function badSignature(now = Date.now()): void {
  refusedSinceSaid++;
  if (now - saidAt < 60_000) return;
  log.error(
    { refused: refusedSinceSaid },
    "Webhooks de pago con firma inválida: si no son de un extraño, revisa STRIPE_WEBHOOK_SECRET (¿se cambió el secreto en Stripe?)",
  );
  saidAt = now;
  refusedSinceSaid = 0;
}

export function loader() {
  return Response.json({ message: "Método no permitido." }, { status: 405, headers: { Allow: "POST" } });
}
