import type { LinkedOrder, OrderPageLinks } from "~/orders/order-page-link.server";

/** The buyer's 'Requiero factura' page of an order: signed with 'Mi pedido''s own signature. */
export function invoicePagePath(links: OrderPageLinks, order: LinkedOrder): string {
  return `/mi-pedido/${encodeURIComponent(order.id)}/factura?firma=${links.sign(order)}`;
}
