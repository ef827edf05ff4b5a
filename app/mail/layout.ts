import type { PublicShopSettings } from "~/config/env.server";

/** The plain-text closing line with the shop's contact. */
export function contactLine(shop: PublicShopSettings): string {
  return `¿Dudas? Escríbenos a ${shop.email} o por WhatsApp: https://wa.me/${shop.whatsapp}`;
}
