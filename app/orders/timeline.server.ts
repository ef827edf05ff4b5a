import { type Db, toDate } from "~/db/database.server";
import type { OrderEventsTable } from "~/db/schema";
import { formatMXN } from "~/lib/money";
import { mailKindLabel } from "~/mail/kinds";
import { type EmailState, emailsOfOrder } from "~/mail/queue.server";
import { emailKey } from "./buyer-keys";
import { CHARGE_MISMATCH, type Order, REFUNDED_BY_HAND, SHOP_CANCELLATION } from "./order";

export interface TimelineEntry {
  at: Date;
  title: string;
  detail: string;
  /** For e-mails: which one, how it stands, and whether 'Reenviar' applies. */
  email?: { id: string; state: EmailState };
}

/** What happened to a paid order, oldest first: created, paid, e-mails, shipped, archived. */
export async function orderTimeline(db: Db, order: Order): Promise<TimelineEntry[]> {
  const [events, emails, refund] = await Promise.all([
    db.selectFrom("order_events").selectAll().where("order_id", "=", order.id).execute(),
    emailsOfOrder(db, order.id),
    db
      .selectFrom("refunds")
      .select(["created_at", "reason", "amount_cents", "status", "provider_refund_id", "refunded_at"])
      .where("order_id", "=", order.id)
      .executeTakeFirst(),
  ]);
  const entries: TimelineEntry[] = [{ at: order.createdAt, title: "Pedido creado", detail: order.total }];
  // A charge of another amount was received, never taken as the order's payment (its own event says why).
  const mismatch = refund?.reason === CHARGE_MISMATCH;
  if (order.paidAt)
    entries.push({
      at: order.paidAt,
      title: mismatch ? "Cobro recibido" : "Pago confirmado",
      detail: order.customerEmail,
    });
  // A cancellation at payment (over the per-person limit, or its pieces sold meanwhile) and a
  // refund the provider made leave no event of their own: told from the refund's record. The
  // shop's own cancellation, a charge mismatch and a refund by hand have their events.
  if (refund && refund.reason !== SHOP_CANCELLATION && !mismatch)
    entries.push({
      at: toDate(refund.created_at),
      title: "Cancelado al confirmar el pago",
      detail: refund.reason,
    });
  if (refund?.status === "hecho" && refund.refunded_at && refund.provider_refund_id !== REFUNDED_BY_HAND)
    entries.push({
      at: toDate(refund.refunded_at),
      title: "Reembolsado por el proveedor de pagos",
      detail: `${formatMXN(refund.amount_cents)}${refund.provider_refund_id ? ` · referencia ${refund.provider_refund_id}` : ""}`,
    });
  const titles: Record<OrderEventsTable["kind"], string> = {
    enviado: "Enviado",
    guia_corregida: "Guía corregida",
    datos_corregidos: "Datos del comprador corregidos",
    archivado: "Archivado",
    desarchivado: "Desarchivado",
    correo_reenviado: "Correo reenviado",
    cancelado: "Cancelado por la tienda",
    reembolso_rechazado: "Reembolso rechazado",
    reembolso_a_mano: "Reembolsado a mano por la tienda",
    faltantes_reembolsados: "Piezas faltantes reembolsadas",
    cobro_distinto: "Cobro distinto del total: cancelado",
    ficha_cancelada: "Ficha cancelada por el máximo por persona",
    entrega_registrada: "Fecha de entrega registrada",
    enlace_renovado: "Enlace de «Mi pedido» renovado",
    borrado: "Borrado del historial",
    devolucion_solicitada: "Devolución solicitada",
    devolucion_aceptada: "Devolución aceptada",
    devolucion_rechazada: "Devolución rechazada",
    devolucion_recibida: "Devolución recibida",
    devolucion_reembolsada: "Devolución reembolsada",
    devolucion_cerrada: "Devolución cerrada sin reembolso",
  };
  for (const e of events) entries.push({ at: toDate(e.created_at), title: titles[e.kind], detail: e.detail });
  for (const e of emails) {
    // Every e-mail of an order is its buyer's: one to an address corrected since says so (its
    // 'Reenviar' sends the copy to the address the order has now).
    const to =
      emailKey(e.recipient) === emailKey(order.customerEmail)
        ? e.recipient
        : `${e.recipient} (dirección anterior)`;
    const detail = {
      enviado: `Enviado a ${to}`,
      en_cola: `En cola para ${to}`,
      reintentando: `Falló, se reintentará: ${e.lastError}`,
      fallo: `Falló: ${e.lastError}`,
    }[e.state];
    entries.push({
      at: e.sentAt ?? e.createdAt,
      title: mailKindLabel(e.kind),
      detail,
      email: { id: e.id, state: e.state },
    });
  }
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}
