import { isSameOrigin, publicOrigin } from "~/lib/origin.server";
import { startCheckout } from "~/orders/checkout.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/api.checkout";

/** POST /api/checkout { cart: [{ product: { id }, dropId, quantity }] } -> { url } or { message }. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ message: "Método no permitido." }, { status: 405 });
  const { database, payments, config } = context.get(servicesContext);
  const origin = publicOrigin(request, config);
  // Only the shop's own pages may start a checkout: a JSON body (a cross-site form cannot send
  // one without the browser asking first) and, when the browser says where it comes from, our origin.
  if (!(request.headers.get("content-type") ?? "").startsWith("application/json")) {
    return Response.json({ message: "La solicitud debe ser JSON." }, { status: 415 });
  }
  if (!isSameOrigin(request, config, { allowUnknown: true })) {
    return Response.json({ message: "Solicitud no permitida." }, { status: 403 });
  }
  const body = await request.json().catch(() => null);
  const result = await startCheckout(database.db, payments, body, {
    success: `${origin}/success`,
    cancel: (orderId) => `${origin}/cancel?pedido=${encodeURIComponent(orderId)}`,
  });
  const headers = { "Cache-Control": "no-store" };
  if (result.status === 200) return Response.json({ url: result.url }, { headers });
  return Response.json({ message: result.message }, { status: result.status, headers });
}

export function loader() {
  return Response.json({ message: "Usa POST para iniciar el pago." }, { status: 405 });
}
