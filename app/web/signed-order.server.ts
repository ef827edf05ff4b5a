import { isOrderId } from "~/orders/ids";
import type { OrderPageLinks } from "~/orders/order-page-link.server";

/** What a page shows for an order it cannot name: nothing of any order. */
export function orderNotFound(): Response {
  return new Response("Pedido no encontrado", { status: 404 });
}

/**
 * The order a buyer's signed address names ('Mi pedido', its return form, its factura): its number
 * from the path and the `firma` of its link. A changed number or signature throws a 404 that shows
 * nothing of any order.
 */
export function signedOrderId(request: Request, params: { orderId?: string }, links: OrderPageLinks): string {
  const orderId = params.orderId ?? "";
  if (!isOrderId(orderId) || !links.verify(orderId, new URL(request.url).searchParams.get("firma"))) {
    throw orderNotFound();
  }
  return orderId;
}
