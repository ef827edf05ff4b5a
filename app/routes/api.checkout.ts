import { answerCheckout } from "~/http/checkout.server";
import { browserIdContext } from "~/lib/client-address";
import { isSameOrigin, shopOrigin } from "~/lib/origin.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/api.checkout";

/**
 * POST /api/checkout { cart: [{ product: { id }, dropId, quantity }] } -> { url } or { message }.
 * The server answers it before React Router (server/checkout-endpoint.ts); this is the same
 * answer for a request that reaches the router.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ message: "Método no permitido." }, { status: 405 });
  const services = context.get(servicesContext);
  const answer = await answerCheckout(services, {
    contentType: request.headers.get("content-type"),
    sameOrigin: isSameOrigin(request, services.config, { allowUnknown: true }),
    body: await request.text().catch(() => null),
    browser: context.get(browserIdContext),
    origin: shopOrigin(context),
  });
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return Response.json(
    { message: "Usa POST para iniciar el pago." },
    { status: 405, headers: { Allow: "POST" } },
  );
}
