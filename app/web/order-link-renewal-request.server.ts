import type { Db } from "~/db/database.server";
import { renewOrderPageLink } from "~/orders/order-page-renewal.server";

/** A desk answer's status and what it says. */
export interface OrderLinkRenewalAnswer {
  status: number;
  body: { ok: boolean; message: string };
}

/** What the owner reads once the link is renewed: what changed, and how the buyer gets the new one. */
export const LINK_RENEWED =
  "Enlace de «Mi pedido» renovado: el anterior ya no abre el pedido. La clienta ve el nuevo buscando su pedido con su número y su correo en /mi-pedido, o en cualquiera de sus correos que le reenvíes desde el Historial.";

/**
 * 'Renovar enlace de «Mi pedido»' on the order's page (intent `enlace`): the order's link
 * generation raised, with its event. An unknown order is not found (404); an unpaid one has no
 * page to renew (409), as the desk says in Spanish.
 */
export async function orderLinkRenewalAnswer(db: Db, orderId: string): Promise<OrderLinkRenewalAnswer> {
  const result = await renewOrderPageLink(db, orderId);
  if (result.ok) return { status: 200, body: { ok: true, message: LINK_RENEWED } };
  if (result.reason === "no_encontrado")
    return { status: 404, body: { ok: false, message: "Pedido no encontrado." } };
  return {
    status: 409,
    body: {
      ok: false,
      message: "Este pedido no se pagó: no tiene una página de «Mi pedido» que renovar.",
    },
  };
}
