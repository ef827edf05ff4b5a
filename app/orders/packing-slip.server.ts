import { metalFactsLine } from "~/catalogue/metal";
import type { ShopDetails } from "~/config/shop-details";
import type { Db } from "~/db/database.server";
import { getDeskOrder } from "./desk.server";
import { editionCertificates, editionText } from "./editions.server";
import { lineMetalFacts } from "./line-metal.server";
import type { PackingSlipData } from "./packing-slip";

/** A paid order's packing slip (one order's page, or several printed at once); null if unknown. */
export async function packingSlip(
  db: Db,
  orderId: string,
  shop: ShopDetails,
): Promise<PackingSlipData | null> {
  const order = await getDeskOrder(db, orderId);
  if (!order) return null;
  const [metal, certificates] = await Promise.all([
    lineMetalFacts(db, order.id),
    editionCertificates(db, order.id),
  ]);
  return {
    order,
    certificates: certificates.map((c) => ({
      name: c.name,
      edition: editionText([c.number], c.size),
      metal: metalFactsLine(c.metal),
    })),
    metal: metal.map(metalFactsLine),
    shop: { name: shop.name, email: shop.email, whatsapp: shop.whatsapp },
  };
}
