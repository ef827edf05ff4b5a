import type { Db } from "~/db/database.server";
import { isOrderId } from "~/orders/ids";
import type { LinkedOrder, OrderPageLinks } from "~/orders/order-page-link.server";

/** What a page shows for an order it cannot name: nothing of any order. */
export function orderNotFound(): Response {
  return new Response("Pedido no encontrado", { status: 404 });
}

/**
 * A link of the order signed before its generation was raised (its e-mail corrected, or the owner
 * renewed it): 410, a page that says so and how to get the current one, nothing of the order.
 */
export function orderLinkGone(): Response {
  return new Response("Este enlace ya no es válido", { status: 410 });
}

/** What a buyer's signed address names: the order's number from the path, and its `firma`. */
export interface SignedOrderRef {
  orderId: string;
  token: string;
}

/**
 * The order number and signature of a buyer's address ('Mi pedido', its return form, its factura),
 * before anything is read: a malformed number or no signature throws the 404 that shows nothing.
 */
export function signedOrderRef(request: Request, params: { orderId?: string }): SignedOrderRef {
  const orderId = params.orderId ?? "";
  const token = new URL(request.url).searchParams.get("firma");
  if (!isOrderId(orderId) || !token) throw orderNotFound();
  return { orderId, token };
}

/**
 * The order as the page read it, once its signature is checked against the order's current link
 * generation: an unknown order or a signature the shop never made throws a 404, a link renewed
 * since a 410 (neither shows anything of the order).
 */
export function requireCurrentLink<T extends LinkedOrder>(
  links: OrderPageLinks,
  ref: SignedOrderRef,
  order: T | null,
): T {
  if (!order || order.id !== ref.orderId) throw orderNotFound();
  const check = links.check(order, ref.token);
  if (check === "anterior") throw orderLinkGone();
  if (check !== "vigente") throw orderNotFound();
  return order;
}

/**
 * The same for a form post that reads nothing of the order itself: its link generation, one read
 * by its primary key.
 */
export async function signedOrder(
  db: Db,
  links: OrderPageLinks,
  request: Request,
  params: { orderId?: string },
): Promise<LinkedOrder> {
  const ref = signedOrderRef(request, params);
  const row = await db
    .selectFrom("orders")
    .select(["id", "link_version"])
    .where("id", "=", ref.orderId)
    .executeTakeFirst();
  return requireCurrentLink(links, ref, row ? { id: row.id, linkVersion: row.link_version } : null);
}
