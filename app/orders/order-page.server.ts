import type { Db } from "~/db/database.server";
import { formatShopDateTime } from "~/lib/dates";
import { formatMXN } from "~/lib/money";
import type { Carrier } from "~/settings/carriers";
import { withTrackingLink } from "~/settings/carriers";
import { emailKey } from "./buyer-keys";
import { deliveredAt } from "./delivery.server";
import { planLine } from "./emails/order-parts";
import { type VoucherView, voucherView } from "./emails/voucher";
import { isOrderId } from "./ids";
import {
  hasBuyer,
  missingPiecesNotice,
  nothingToSend,
  type Order,
  REFUND_FOR_NOTHING_SENT,
  REFUNDED_BY_HAND,
  shippingLineOf,
} from "./order";
import type { LinkedOrder } from "./order-page-link.server";
import { getOrder } from "./queries.server";
import { returnWindowEnd } from "./return-window.server";
import { addressLines } from "./shipping";
import { PAYMENT_METHOD_LABELS, voucherDeadlineText } from "./vouchers";

/*
 * 'Mi pedido' (issue 27): the buyer's own page for an order — where it is, what is in it, where it
 * goes and what she can do next — opened from a signed link (every e-mail has one) or found by its
 * number and her e-mail.
 */

/**
 * The order a buyer asks for by its number and e-mail, or null. The same null for a number that
 * does not exist, an e-mail that is not the order's, or an order nobody has paid (no e-mail yet):
 * the answer never tells which.
 */
export async function findBuyerOrder(db: Db, number: string, email: string): Promise<LinkedOrder | null> {
  const id = number
    .trim()
    .toUpperCase()
    .replace(/^OL(?=[A-Z0-9]{8}$)/, "OL-");
  const key = emailKey(email);
  if (!isOrderId(id) || key === null) return null;
  const row = await db
    .selectFrom("orders")
    .select(["id", "link_version"])
    .where("id", "=", id)
    .where("email_key", "=", key)
    .executeTakeFirst();
  // With its link's generation: the page she is sent to is signed for the current one.
  return row ? { id: row.id, linkVersion: row.link_version } : null;
}

/** One step of the order's life as the buyer reads it. */
export interface OrderStep {
  label: string;
  /** When it happened, in Mexico City time; null: not yet. */
  at: string | null;
  detail: string | null;
  link: { href: string; text: string } | null;
}

export interface OrderPage {
  id: string;
  status: string;
  placedAt: string;
  lines: { name: string; quantity: number; lineTotal: string; edition: string | null }[];
  shippingLine: { label: string; amount: string } | null;
  total: string;
  plan: string | null;
  address: string[];
  steps: OrderStep[];
  /** What the buyer can do now, in a sentence or two. */
  next: string;
  /** Pieces her late payment (a voucher paid after its hold ended) found gone, and their refund; else null. */
  missing: string | null;
  /** Until when she may ask to return it (once delivered), or that the window has closed; null before delivery. */
  returns: string | null;
  voucher: VoucherView | null;
}

/** The order as its buyer's page shows it; null when there is nothing a buyer could have bought. */
export async function orderPageOf(
  db: Db,
  /** The order, or its number to read it by (a page that reads it for other parts passes it). */
  ref: string | Order,
  shop: { carriers: readonly Carrier[]; deliveryDays: number },
  now = new Date(),
): Promise<OrderPage | null> {
  const { carriers } = shop;
  const found = typeof ref === "string" ? await getOrder(db, ref) : ref;
  // An order never paid nor given a voucher has no buyer (no e-mail): nothing to show.
  if (!found || !hasBuyer(found)) return null;
  const order = withTrackingLink(found, carriers);
  const at = (date: Date | null) => (date ? formatShopDateTime(date) : null);
  const steps: OrderStep[] = [];
  let returnUntil: Date | null = null;
  let isDelivered = false;
  let assumedDelivered = false;
  if (order.voucher) {
    steps.push({
      label: `Ficha de pago: ${PAYMENT_METHOD_LABELS[order.voucher.method]}`,
      at: at(order.createdAt),
      detail:
        order.status === "esperando_pago"
          ? `Pagable hasta el ${voucherDeadlineText(order.voucher.expiresAt)}`
          : null,
      link: null,
    });
  }
  // A voucher that ran out unpaid, or was cancelled before it was paid: no 'Pagado · pendiente'.
  if (order.paidAt || (order.status !== "expirado" && !order.voucherCancelled)) {
    steps.push({ label: "Pagado", at: at(order.paidAt), detail: null, link: null });
  }
  if (order.voucherCancelled) {
    steps.push({
      label: "Ficha cancelada",
      at: at(order.voucherCancelled.at),
      detail: order.voucherCancelled.reason,
      link: null,
    });
  } else if (order.status === "cancelado") {
    const refunded = order.cancellation?.refund === "hecho";
    steps.push({
      label: refunded ? "Cancelado y reembolsado" : "Cancelado; estamos haciendo tu reembolso",
      at: at(order.cancellation?.refundedAt ?? null),
      detail: order.cancellation?.reason ?? null,
      link: null,
    });
  } else if (order.status !== "expirado") {
    steps.push({
      label: "Enviado",
      at: at(order.shippedAt),
      detail: order.carrier && order.trackingNumber ? `${order.carrier}, guía ${order.trackingNumber}` : null,
      link: order.trackingUrl ? { href: order.trackingUrl, text: "Sigue tu envío" } : null,
    });
    const delivered = deliveredAt(order, shop.deliveryDays, now);
    steps.push({
      label: "Entregado",
      at: delivered ? formatShopDateTime(delivered.at) : null,
      detail: delivered?.assumed ? "Lo damos por entregado; si aún no te llega, escríbenos." : null,
      link: null,
    });
    if (delivered) returnUntil = returnWindowEnd(delivered.at);
    isDelivered = delivered !== null;
    assumedDelivered = delivered?.assumed === true;
  }
  return {
    id: order.id,
    status: isDelivered
      ? "Entregado"
      : order.status === "pendiente" && nothingToSend(order)
        ? "Pagado: te devolveremos tu pago"
        : statusText(order.status),
    placedAt: formatShopDateTime(order.createdAt),
    lines: order.lines.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      lineTotal: formatMXN(l.unitPriceCents * l.quantity),
      edition: l.edition,
    })),
    shippingLine: shippingLineOf(order),
    total: order.total,
    plan: planLine(order),
    address: order.shipping ? addressLines(order.shipping) : [],
    steps,
    next: isDelivered
      ? assumedDelivered
        ? // Counted, not known: said as the step beside it says it.
          "Ya pasó el tiempo de entrega de la paquetería. ¿No te ha llegado, o algo no está como esperabas? Escríbenos: lo resolvemos contigo."
        : "Tu pedido ya llegó. ¿Algo no está como esperabas? Escríbenos: lo resolvemos contigo."
      : order.status === "pendiente" && nothingToSend(order)
        ? REFUND_FOR_NOTHING_SENT
        : order.voucherCancelled
          ? VOUCHER_CANCELLED_NEXT
          : nextStep(
              order.status,
              Boolean(order.trackingUrl),
              order.cancellation,
              order.voucher?.method ?? null,
            ),
    // A cancelled order's step says why and how its refund stands: no promise to write about it.
    missing: order.status === "cancelado" ? null : missingPiecesNotice(order),
    returns:
      returnUntil === null
        ? null
        : returnUntil > now
          ? `Tienes hasta el ${formatShopDateTime(returnUntil)} para pedir una devolución: 5 días hábiles desde la entrega (Ley Federal de Protección al Consumidor, art. 56). Te devolvemos el precio de las piezas; el envío de regreso corre por tu cuenta, salvo si la pieza llegó dañada o no es la que pediste.`
          : `El plazo para pedir una devolución terminó el ${formatShopDateTime(returnUntil)} (5 días hábiles desde la entrega).`,
    voucher: voucherView(order),
  };
}

/** A voucher cancelled over the per-person limit before it was paid: nothing to pay, nothing to give back. */
const VOUCHER_CANCELLED_NEXT =
  "Tu ficha ya no se puede pagar: no la pagues. No se te cobró nada. Si crees que es un error, escríbenos y lo revisamos.";

function statusText(status: string): string {
  switch (status) {
    case "esperando_pago":
      return "Esperando tu pago";
    case "pendiente":
      return "Pagado: lo estamos preparando";
    case "enviado":
    case "archivado":
      return "Enviado";
    case "cancelado":
      return "Cancelado";
    default:
      return "Pago vencido";
  }
}

function nextStep(
  status: string,
  tracked: boolean,
  cancellation: Order["cancellation"],
  /** Paid with a ficha: cash at OXXO (refunded by the shop's own transfer) or a SPEI transfer. */
  voucher: "oxxo" | "spei" | null,
): string {
  const paidByVoucher = voucher !== null;
  const refunded = cancellation?.refund === "hecho";
  switch (status) {
    case "esperando_pago":
      return "Paga tu ficha antes de que venza: en cuanto se acredite te llega la confirmación y preparamos tus piezas.";
    case "pendiente":
      return "Hacemos y empacamos tus piezas a mano en el taller. Cuando salgan te escribimos con la paquetería y el número de guía.";
    case "enviado":
    case "archivado":
      return tracked
        ? "Tu pedido va en camino: sigue tu envío con el enlace de la paquetería. ¿Algo no llegó como esperabas? Escríbenos."
        : "Tu pedido va en camino. ¿Algo no llegó como esperabas? Escríbenos.";
    case "cancelado":
      if (refunded && (cancellation?.refundId === REFUNDED_BY_HAND || paidByVoucher)) {
        return "Te devolvimos el total. Si tienes dudas, escríbenos.";
      }
      return refunded
        ? "Te devolvimos el total al mismo medio con que pagaste. Si tienes dudas, escríbenos."
        : voucher === "oxxo"
          ? "Como pagaste en efectivo en OXXO, te devolvemos el total por transferencia: te escribiremos para pedirte la cuenta (o escríbenos tú con ella)."
          : paidByVoucher
            ? "Estamos haciendo el reembolso del total; te escribimos en cuanto esté hecho."
            : "Estamos haciendo el reembolso del total al mismo medio con que pagaste; te escribimos en cuanto esté hecho.";
    default:
      return "Este pedido no se pagó a tiempo y sus piezas volvieron a la tienda.";
  }
}
