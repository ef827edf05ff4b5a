import type { Db } from "~/db/database.server";
import { createOrderLinks } from "./cancel-link.server";

/**
 * 'Mi pedido' (issue 27): every e-mail to a buyer links her order's page, signed for the order
 * (no account, no browser: she opens it from her phone's mail app or her computer alike). A
 * changed number or signature opens nothing.
 *
 * The signature also covers the order's link generation (`orders.link_version`) once it is above
 * 0: raised when the owner corrects the buyer's e-mail or renews the link, it stops every link
 * signed before (whoever received the confirmation at a mistyped address, a link forwarded by
 * mistake). Generation 0 signs the order id alone, as every link e-mailed before generations
 * existed, so those keep working until their order's generation is raised.
 */
export interface OrderPageLinks {
  sign(order: LinkedOrder): string;
  /**
   * `vigente`: signed for the order's current generation; `anterior`: signed for one of its
   * earlier generations (a link renewed since); `ninguna`: no link the shop signed for it.
   */
  check(order: LinkedOrder, token: string | null): LinkCheck;
}

/** What signing an order's link needs: its number and its current link generation. */
export interface LinkedOrder {
  id: string;
  linkVersion: number;
}

export type LinkCheck = "vigente" | "anterior" | "ninguna";

/**
 * How many earlier generations an old link is recognised among (to tell it "no longer valid"
 * rather than "not found"); older ones are just not found. Each is one HMAC.
 */
export const EARLIER_GENERATIONS_TOLD = 50;

export function createOrderPageLinks(secret: string): OrderPageLinks {
  const links = createOrderLinks(secret, "enlace-mi-pedido");
  const part = (version: number) => (version > 0 ? `v${version}` : null);
  return {
    sign: (order) => links.sign(order.id, part(order.linkVersion)),
    check(order, token) {
      if (!token) return "ninguna";
      if (links.verify(order.id, part(order.linkVersion), token)) return "vigente";
      const oldest = Math.max(0, order.linkVersion - EARLIER_GENERATIONS_TOLD);
      for (let version = order.linkVersion - 1; version >= oldest; version--) {
        if (links.verify(order.id, part(version), token)) return "anterior";
      }
      return "ninguna";
    },
  };
}

/** The order's return form ('Pedir una devolución'), as a path of the shop, signed like its page. */
export function orderReturnPath(links: OrderPageLinks, order: LinkedOrder): string {
  return `/mi-pedido/${encodeURIComponent(order.id)}/devolucion?firma=${links.sign(order)}`;
}

/** The order's page, as a path of the shop. */
export function orderPagePath(links: OrderPageLinks, order: LinkedOrder): string {
  return `/mi-pedido/${encodeURIComponent(order.id)}?firma=${links.sign(order)}`;
}

/**
 * An order's page as an absolute address for an e-mail: at the shop's public address, else where
 * the order was bought; null when neither is known. Read when the e-mail is rendered, so it is
 * signed for the order's generation at that moment.
 */
export async function orderPageUrlOf(
  db: Db,
  pages: { links: OrderPageLinks; publicUrl: string | undefined },
  orderId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom("orders")
    .select(["site_url", "link_version"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  return row
    ? orderPageUrl(pages, { id: orderId, linkVersion: row.link_version, siteUrl: row.site_url ?? null })
    : null;
}

/** The same, for an order already read (`siteUrl`: where it was bought). */
export function orderPageUrl(
  pages: { links: OrderPageLinks; publicUrl: string | undefined },
  order: LinkedOrder & { siteUrl: string | null },
): string | null {
  const origin = pages.publicUrl ?? order.siteUrl;
  return origin ? `${new URL(origin).origin}${orderPagePath(pages.links, order)}` : null;
}
