import type { OrderPageLinks } from "~/orders/order-page-link.server";

/** The buyer's 'Requiero factura' page of an order: signed with 'Mi pedido''s own signature. */
export function invoicePagePath(links: OrderPageLinks, orderId: string): string {
  return `/mi-pedido/${encodeURIComponent(orderId)}/factura?firma=${links.sign(orderId)}`;
}
