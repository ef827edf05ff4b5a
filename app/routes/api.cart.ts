import { z } from "zod";
import { getProductsWithDrops } from "~/catalogue/catalogue.server";
import { isDropPurchasable } from "~/catalogue/drop-time";
import { variantUrl } from "~/media/media.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/api.cart";

const query = z.array(z.string().regex(/^[a-z0-9]{1,64}$/)).max(50);

/** GET /api/cart?id=…: current name, price, image, stock and availability of the cart's products. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const ids = query.safeParse(new URL(request.url).searchParams.getAll("id"));
  if (!ids.success) return Response.json({ message: "Solicitud inválida." }, { status: 400 });
  const { database, media } = context.get(servicesContext);
  const now = new Date();
  const rows = await getProductsWithDrops(database.db, ids.data);
  const products = rows.map(({ product, drop }) => ({
    id: product.id,
    name: product.name,
    priceCents: product.priceCents,
    stock: product.stock,
    image: product.image ? variantUrl(media, product.image, 0) : null,
    purchasable: isDropPurchasable(drop, now),
  }));
  return Response.json({ products }, { headers: { "Cache-Control": "no-store" } });
}
