import type { Db } from "~/db/database.server";
import { toDate, toTimestamp } from "~/db/database.server";
import type { InvoiceRequestsTable } from "~/db/schema";
import { formatShopDateTime } from "~/lib/dates";
import { INVOICE_REQUEST_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import { hasBuyer, type Order } from "~/orders/order";
import { getOrder } from "~/orders/queries.server";
import { refundedAfterSale } from "~/orders/return-refunds.server";
import type { InvoiceRequestInput } from "./invoice-form";
import type { InvoiceRequest, InvoicingProvider } from "./invoicing-port";
import { invoiceDeadline, invoiceWindowOpen, monthClosedMessage, shopMonthRange } from "./month-rule";
import type { GlobalSaleRow, InvoiceRequestRow } from "./sales";

/*
 * 'Requiero factura' (issue 27, decision 45): a buyer's request for her order's CFDI, one per order,
 * taken while the month she paid in lasts; the owner's list of requests and the month's sales
 * without one (the global invoice).
 */

/** A paid order that is still a sale: not cancelled (cancelling refunds the whole of it). */
const SALE_STATUSES = ["pendiente", "enviado", "archivado"] as const;

/** A request as stored. */
export interface StoredInvoiceRequest {
  orderId: string;
  rfc: string;
  name: string;
  postalCode: string;
  regimen: string;
  uso: string;
  email: string;
  requestedAt: Date;
  updatedAt: Date;
  status: InvoiceRequestsTable["status"];
  reference: string | null;
  notes: string | null;
}

/**
 * Whether the buyer may ask now: `abierta` until the end of the month she paid in (the request, if
 * she already made one, may still be corrected); `cerrada` after it; `sin_pago` for an order that is
 * not (or no longer) a sale. The messages are the buyer's, in Spanish.
 */
export type InvoiceStanding =
  | { kind: "abierta"; until: string; request: StoredInvoiceRequest | null }
  | { kind: "cerrada"; message: string; request: StoredInvoiceRequest | null }
  | { kind: "sin_pago"; message: string; request: StoredInvoiceRequest | null };

const NOT_A_SALE = {
  unpaid: "Podrás pedir tu factura en cuanto se acredite tu pago, dentro del mismo mes.",
  cancelled: "Este pedido se canceló y se reembolsó: no hay una venta que facturar.",
};

function fromRow(row: {
  order_id: string;
  rfc: string;
  name: string;
  postal_code: string;
  regimen: string;
  uso: string;
  email: string;
  requested_at: Date | string;
  updated_at: Date | string;
  status: InvoiceRequestsTable["status"];
  provider_reference: string | null;
  notes: string | null;
}): StoredInvoiceRequest {
  return {
    orderId: row.order_id,
    rfc: row.rfc,
    name: row.name,
    postalCode: row.postal_code,
    regimen: row.regimen,
    uso: row.uso,
    email: row.email,
    requestedAt: toDate(row.requested_at),
    updatedAt: toDate(row.updated_at),
    status: row.status,
    reference: row.provider_reference,
    notes: row.notes,
  };
}

export async function storedRequest(db: Db, orderId: string): Promise<StoredInvoiceRequest | null> {
  const row = await db
    .selectFrom("invoice_requests")
    .selectAll()
    .where("order_id", "=", orderId)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** Where an order stands for a factura at `now`. */
export function standingOf(order: Order, request: StoredInvoiceRequest | null, now: Date): InvoiceStanding {
  if (order.status === "cancelado") return { kind: "sin_pago", message: NOT_A_SALE.cancelled, request };
  if (!order.paidAt || !(SALE_STATUSES as readonly string[]).includes(order.status)) {
    return { kind: "sin_pago", message: NOT_A_SALE.unpaid, request };
  }
  if (!invoiceWindowOpen(order.paidAt, now)) {
    const message = request
      ? "El plazo para corregir los datos de tu factura terminó con el mes en que pagaste. Si algo no coincide con tu Constancia, escríbenos."
      : monthClosedMessage(order.paidAt);
    return { kind: "cerrada", message, request };
  }
  // The last minute she may ask in ("30 nov 2026, 23:59").
  const until = formatShopDateTime(new Date(invoiceDeadline(order.paidAt).getTime() - 1000));
  return { kind: "abierta", until, request };
}

/** The order a buyer's page is for, and its standing; null when there is no buyer's order (as 'Mi pedido'). */
export async function invoiceStandingOf(
  db: Db,
  /** The order, or its number to read it by. */
  ref: string | Order,
  now = new Date(),
): Promise<{ order: Order; standing: InvoiceStanding } | null> {
  const order = typeof ref === "string" ? await getOrder(db, ref) : ref;
  if (!order || !hasBuyer(order)) return null;
  return { order, standing: standingOf(order, await storedRequest(db, order.id), now) };
}

export type RequestAnswer =
  | { ok: true; request: StoredInvoiceRequest; updated: boolean }
  | { ok: false; reason: "no_encontrado" | "cerrada" | "sin_pago" | "muy_pronto"; message: string };

/** How soon after one submission another is taken (a correction is one a minute at most). */
export const RESUBMIT_AFTER_MS = 60_000;

const tooSoon = {
  ok: false,
  reason: "muy_pronto",
  message: "Acabas de enviar tus datos. Espera un minuto antes de volver a corregirlos.",
} as const;

/**
 * Records a buyer's request (or, within the month, her corrected data: one request per order),
 * passes it to the invoicing provider and queues her acknowledgement (the caller sends it soon). Refused after the month she paid in, and for an order that
 * is not a sale.
 */
export async function requestInvoice(
  db: Db,
  invoicing: InvoicingProvider,
  orderId: string,
  input: InvoiceRequestInput,
  now = new Date(),
): Promise<RequestAnswer> {
  const found = await invoiceStandingOf(db, orderId, now);
  if (!found) return { ok: false, reason: "no_encontrado", message: "Pedido no encontrado." };
  const { order, standing } = found;
  if (standing.kind !== "abierta") return { ok: false, reason: standing.kind, message: standing.message };
  // Each submission asks the invoicing provider and sends an e-mail: one a minute is a buyer's pace.
  const last = standing.request?.updatedAt.getTime();
  if (last !== undefined && now.getTime() - last < RESUBMIT_AFTER_MS) return tooSoon;
  const at = toTimestamp(now);
  const fields = {
    rfc: input.rfc,
    name: input.nombre,
    postal_code: input.codigoPostal,
    regimen: input.regimen,
    uso: input.uso,
    email: input.correo,
    updated_at: at,
    status: "recibida" as const,
    provider: invoicing.name,
    provider_reference: null,
    notes: null,
  };
  // One per order: a second request while the month lasts replaces the data of the first — not
  // within a minute of the last, said again in the write itself (two at once: one is taken).
  const cutoff = toTimestamp(new Date(now.getTime() - RESUBMIT_AFTER_MS));
  const written = await db
    .insertInto("invoice_requests")
    .values({ order_id: orderId, requested_at: at, ...fields })
    .onConflict((oc) =>
      oc.column("order_id").doUpdateSet(fields).where("invoice_requests.updated_at", "<=", cutoff),
    )
    .executeTakeFirst();
  if (Number(written.numInsertedOrUpdatedRows ?? 0) === 0) return tooSoon;
  const request: InvoiceRequest = {
    orderId,
    rfc: input.rfc,
    name: input.nombre,
    postalCode: input.codigoPostal,
    regimen: input.regimen,
    uso: input.uso,
    email: input.correo,
    totalCents: order.totalCents,
    shippingCents: order.shippingRate?.cents ?? 0,
    lines: order.lines.map((l) => ({ name: l.name, quantity: l.quantity, unitPriceCents: l.unitPriceCents })),
    paymentMethod: order.voucher?.method ?? null,
    cardFunding: order.cardFunding,
    paidAt: order.paidAt ?? now,
  };
  let outcome: { status: InvoiceRequestsTable["status"]; reference: string | null; notes: string | null };
  try {
    outcome = await invoicing.submit(request);
  } catch (error) {
    // Recorded all the same: the owner sees why and the accountant can stamp it by hand.
    outcome = {
      status: "recibida",
      reference: null,
      notes: `El proveedor no respondió: ${(error as Error).message}`.slice(0, 500),
    };
  }
  await db
    .updateTable("invoice_requests")
    .set({ status: outcome.status, provider_reference: outcome.reference, notes: outcome.notes })
    .where("order_id", "=", orderId)
    .execute();
  const stored = await storedRequest(db, orderId);
  if (!stored) return { ok: false, reason: "no_encontrado", message: "Pedido no encontrado." };
  const updated = standing.request !== null;
  // Her acknowledgement (one per submission: a correction is acknowledged too), to the order's own
  // address: the one typed for the factura may be anyone's, and the e-mail links her order.
  await queueEmail(db, {
    kind: INVOICE_REQUEST_EMAIL,
    recipient: order.customerEmail,
    orderId,
    dedupeKey: `${INVOICE_REQUEST_EMAIL}:${orderId}:${at}`,
    payload: { corrected: updated },
    now,
  });
  return { ok: true, request: stored, updated };
}

/** The requests for sales paid in a month ("2026-11"), newest first. */
export async function invoiceRequestsOf(db: Db, month: string): Promise<InvoiceRequestRow[]> {
  const { start, end } = shopMonthRange(month);
  const rows = await db
    .selectFrom("invoice_requests as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select([
      "r.order_id",
      "r.rfc",
      "r.name",
      "r.postal_code",
      "r.regimen",
      "r.uso",
      "r.email",
      "r.requested_at",
      "r.status",
      "r.provider_reference",
      "o.paid_at",
      "o.total_cents",
      "o.payment_method",
      "o.card_funding",
      "o.status as order_status",
    ])
    .where("o.paid_at", ">=", toTimestamp(start))
    .where("o.paid_at", "<", toTimestamp(end))
    .orderBy("r.requested_at", "desc")
    .orderBy("r.order_id")
    .execute();
  const refunded = await refundedAfterSale(
    db,
    rows.map((r) => r.order_id),
  );
  return rows.map((r) => ({
    orderId: r.order_id,
    paidAt: toDate(r.paid_at ?? r.requested_at),
    requestedAt: toDate(r.requested_at),
    rfc: r.rfc,
    name: r.name,
    postalCode: r.postal_code,
    regimen: r.regimen,
    uso: r.uso,
    email: r.email,
    totalCents: r.total_cents,
    paymentMethod: r.payment_method,
    cardFunding: r.card_funding,
    // A sale cancelled after the request (refunded whole) must not be invoiced.
    status: r.order_status === "cancelado" ? "pedido_cancelado" : r.status,
    reference: r.provider_reference,
    refundedCents: refunded.get(r.order_id) ?? 0,
  }));
}

/** A month's paid sales (not cancelled) nobody asked a factura for: the global invoice's, oldest first. */
export async function globalInvoiceSales(db: Db, month: string): Promise<GlobalSaleRow[]> {
  const { start, end } = shopMonthRange(month);
  const rows = await db
    .selectFrom("orders as o")
    .leftJoin("invoice_requests as r", "r.order_id", "o.id")
    .select(["o.id", "o.paid_at", "o.total_cents", "o.shipping_cents", "o.payment_method", "o.card_funding"])
    .where("r.order_id", "is", null)
    .where("o.status", "in", [...SALE_STATUSES])
    .where("o.paid_at", ">=", toTimestamp(start))
    .where("o.paid_at", "<", toTimestamp(end))
    .orderBy("o.paid_at")
    .orderBy("o.id")
    .execute();
  const refunded = await refundedAfterSale(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    orderId: r.id,
    paidAt: toDate(r.paid_at ?? start),
    totalCents: r.total_cents,
    shippingCents: r.shipping_cents,
    paymentMethod: r.payment_method,
    cardFunding: r.card_funding,
    refundedCents: refunded.get(r.id) ?? 0,
  }));
}

/** What 'Mi pedido' says about a factura: a sentence, and whether it links the factura's page. */
export function invoiceNote(standing: InvoiceStanding): { text: string; link: string | null } | null {
  const { request } = standing;
  if (standing.kind === "abierta") {
    return request
      ? {
          text: `Pediste factura a nombre de ${request.name} (RFC ${request.rfc}). Puedes corregir tus datos hasta el ${standing.until}.`,
          link: "Ver o corregir mi solicitud de factura",
        }
      : {
          text: `¿Necesitas factura (CFDI)? Puedes pedirla hasta el ${standing.until}, dentro del mes en que pagaste.`,
          link: "Requiero factura",
        };
  }
  if (standing.kind === "cerrada") {
    return request
      ? { text: `Pediste factura a nombre de ${request.name} (RFC ${request.rfc}).`, link: null }
      : {
          text: "El plazo para pedir factura terminó con el mes en que pagaste: tu compra entró en la factura global del mes.",
          link: null,
        };
  }
  return null;
}
