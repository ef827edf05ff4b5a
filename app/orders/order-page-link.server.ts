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

/** The order's page, as a path of the shop. */
export function orderPagePath(links: OrderPageLinks, orderId: string): string {
  return `/mi-pedido/${encodeURIComponent(orderId)}?firma=${links.sign(orderId)}`;
}
