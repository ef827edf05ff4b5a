import { createOrderLinks, type OrderLinks } from "./cancel-link.server";

/**
 * The /success page shows the order's number, pieces, total and e-mail only to the browser that
 * paid: the address the payment page returns to is signed for the order and the browser's
 * `navegador` cookie. The bare /success, or the link opened in another browser (shared in a
 * chat), shows the thanks without any detail.
 */
export type SuccessLinks = OrderLinks;

export function createSuccessLinks(secret: string): SuccessLinks {
  return createOrderLinks(secret, "enlace-gracias");
}

/** The address of the /success page for an order, signed for the browser. */
export function successPath(links: SuccessLinks, orderId: string, browser: string | null): string {
  return `/success?pedido=${encodeURIComponent(orderId)}&firma=${links.sign(orderId, browser)}`;
}
