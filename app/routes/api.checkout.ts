import { z } from "zod";
import { browserIdContext } from "~/lib/client-address";
import { isId } from "~/lib/ids";
import { isSameOrigin, shopOrigin } from "~/lib/origin.server";
import { cancelPath } from "~/orders/cancel-link.server";
import { type CheckoutResult, startCheckout } from "~/orders/checkout.server";
import { MAX_ORDER_LINES } from "~/orders/limits";
import { successPath } from "~/orders/success-link.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/api.checkout";

/**
 * What the drawer sends: ids (checked for their shape before any query) and whole quantities.
 * Anything else in the body is ignored; how many pieces one order may have is the domain's rule
 * (orders/limits.ts), said in its own words.
 */
const checkoutRequest = z.object({
  cart: z
    .array(
      z.object({
        product: z.object({ id: z.string().refine(isId) }),
        dropId: z.string().refine(isId),
        quantity: z.int().min(1),
      }),
    )
    .min(1)
    .max(MAX_ORDER_LINES),
});

const STATUS: Record<Exclude<CheckoutResult, { ok: true }>["reason"], number> = {
  carrito_vacio: 400,
  no_existe: 409,
  coleccion_cerrada: 409,
  sin_stock: 409,
  limite_piezas: 400,
  limite_total: 400,
  limite_coleccion: 400,
  pago_en_curso: 409,
  pago_no_disponible: 502,
};

/** POST /api/checkout { cart: [{ product: { id }, dropId, quantity }] } -> { url } or { message }. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ message: "Método no permitido." }, { status: 405 });
  const { database, payments, config, cancelLinks, successLinks } = context.get(servicesContext);
  const browser = context.get(browserIdContext);
  const origin = shopOrigin(context);
  // Only the shop's own pages may start a checkout: a JSON body (a cross-site form cannot send
  // one without the browser asking first) and, when the browser says where it comes from, our origin.
  if (!(request.headers.get("content-type") ?? "").startsWith("application/json")) {
    return Response.json({ message: "La solicitud debe ser JSON." }, { status: 415 });
  }
  if (!isSameOrigin(request, config, { allowUnknown: true })) {
    return Response.json({ message: "Solicitud no permitida." }, { status: 403 });
  }
  const headers = { "Cache-Control": "no-store" };
  const parsed = checkoutRequest.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return Response.json(
      { message: "El carrito no es válido. Revisa las piezas e intenta de nuevo." },
      { status: 400, headers },
    );
  }
  const lines = parsed.data.cart.map((l) => ({
    productId: l.product.id,
    dropId: l.dropId,
    quantity: l.quantity,
  }));
  const result = await startCheckout(
    database.db,
    payments,
    lines,
    {
      // Both signed for this browser: only it sees the order's details, or gives the pieces back.
      success: (orderId) => `${origin}${successPath(successLinks, orderId, browser)}`,
      cancel: (orderId) => `${origin}${cancelPath(cancelLinks, orderId, browser)}`,
    },
    browser,
    config.orderCeilings,
  );
  if (result.ok) return Response.json({ url: result.url }, { headers });
  return Response.json({ message: result.message }, { status: STATUS[result.reason], headers });
}

export function loader() {
  return Response.json(
    { message: "Usa POST para iniciar el pago." },
    { status: 405, headers: { Allow: "POST" } },
  );
}
