import { z } from "zod";
import { cartProducts } from "~/catalogue/views.server";
import { isId } from "~/lib/ids";
import { browserIdContext } from "~/web/client-address";
import { onlyGet } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/api.cart";

// Ids are checked for their shape before any query.
const query = z.array(z.string().refine(isId)).max(50);

/** GET /api/cart?id=…: current name, price, image, stock and availability of the cart's products. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const ids = query.safeParse(new URL(request.url).searchParams.getAll("id"));
  if (!ids.success) return Response.json({ message: "Solicitud inválida." }, { status: 400 });
  const { database, media } = context.get(servicesContext);
  // The browser's own unpaid checkout holds pieces it may still pay for: not gone for its drawer.
  const browser = context.get(browserIdContext);
  const products = await cartProducts(database.db, media, ids.data, new Date(), browser);
  return Response.json({ products }, { headers: { "Cache-Control": "no-store" } });
}

export const action = onlyGet;
