import type { Db } from "~/db/database.server";
import { createOrderLinks } from "./cancel-link.server";

/**
 * 'Mi pedido' (issue 27): every e-mail to a buyer links her order's page, signed for the order
 * (no account, no browser: she opens it from her phone's mail app or her computer alike). A
 * changed number or signature opens nothing.
 */
export interface OrderPageLinks {
  sign(orderId: string): string;
  verify(orderId: string, token: string | null): boolean;
}

export function createOrderPageLinks(secret: string): OrderPageLinks {
  const links = createOrderLinks(secret, "enlace-mi-pedido");
  return {
    sign: (orderId) => links.sign(orderId, null),
    verify: (orderId, token) => links.verify(orderId, null, token),
  };
}

/** The order's return form ('Pedir una devolución'), as a path of the shop, signed like its page. */
export function orderReturnPath(links: OrderPageLinks, orderId: string): string {
  return `/mi-pedido/${encodeURIComponent(orderId)}/devolucion?firma=${links.sign(orderId)}`;
}

/** The order's page, as a path of the shop. */
export function orderPagePath(links: OrderPageLinks, orderId: string): string {
  return `/mi-pedido/${encodeURIComponent(orderId)}?firma=${links.sign(orderId)}`;
}

/**
 * An order's page as an absolute address for an e-mail: at the shop's public address, else where
 * the order was bought; null when neither is known.
 */
export async function orderPageUrlOf(
  db: Db,
  pages: { links: OrderPageLinks; publicUrl: string | undefined },
  orderId: string,
): Promise<string | null> {
  const row = await db.selectFrom("orders").select("site_url").where("id", "=", orderId).executeTakeFirst();
  return row ? orderPageUrl(pages, row.site_url, orderId) : null;
}

/** The same, for an order already read (`siteUrl`: where it was bought). */
export function orderPageUrl(
  pages: { links: OrderPageLinks; publicUrl: string | undefined },
  siteUrl: string | null,
  orderId: string,
): string | null {
  const origin = pages.publicUrl ?? siteUrl;
  return origin ? `${new URL(origin).origin}${orderPagePath(pages.links, orderId)}` : null;
}
