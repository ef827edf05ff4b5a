import { deliverPendingEmails } from "~/orders/emails.server";
import { handleStripeEvent } from "~/payments/stripe-webhook.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/api.stripe-webhook";

/** POST /api/stripe/webhook: Stripe's events, verified by their signature on the raw body. */
export async function action({ request, context }: Route.ActionArgs) {
  const { database, stripe, mailer, config } = context.get(servicesContext);
  if (!stripe) return Response.json({ message: "No encontrado" }, { status: 404 });
  const payload = await request.text();
  let event: ReturnType<typeof stripe.client.webhooks.constructEvent>;
  try {
    event = stripe.client.webhooks.constructEvent(
      payload,
      request.headers.get("stripe-signature") ?? "",
      stripe.webhookSecret,
    );
  } catch {
    return Response.json({ message: "Firma inválida." }, { status: 400 });
  }
  const outcome = await handleStripeEvent(database.db, event);
  if (outcome === "paid") {
    // The confirmation e-mail was queued with the payment; send it after answering Stripe (which
    // wants a quick 2xx), or the sweeper will.
    void deliverPendingEmails(database.db, mailer, config.shop).catch((error) => console.error(error));
  }
  return Response.json({ received: true, outcome });
}

export function loader() {
  return Response.json({ message: "Método no permitido." }, { status: 405 });
}
