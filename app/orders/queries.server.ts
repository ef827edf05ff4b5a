import type { Selectable } from "kysely";
import { type Db, toDate } from "~/db/database.server";
import type { OrdersTable, RefundsTable, VoucherCancellationsTable } from "~/db/schema";
import { formatMXN } from "~/lib/money";
import { trackingLink } from "~/settings/carriers";
import { isShippingMethod, type ShippingChoice } from "~/settings/shipping-rates";
import { editionTexts } from "./editions.server";
import {
  CHARGE_MISMATCH,
  type Order,
  REFUND_IN_PROGRESS,
  REFUNDED_BY_HAND,
  SHOP_CANCELLATION,
  SOLD_OUT_AT_PAYMENT,
} from "./order";
import { isByHandReason, isNoAnswer } from "./refund-timing";

type OrderRow = Selectable<OrdersTable>;
type RefundRow = Selectable<RefundsTable>;
type VoucherCancellationRow = Selectable<VoucherCancellationsTable>;
type LineRow = {
  order_id: string;
  name: string;
  quantity: number;
  unit_price_cents: number;
  missing: number;
  /** 'Pieza 7 de 30', when the line's units were numbered at payment. */
  edition?: string | null;
};

/** The shipping an order recorded (decision 43); null for one paid with none chosen (or from before). */
function shippingRateOf(row: OrderRow): ShippingChoice | null {
  if (!row.shipping_label && !row.shipping_cents) return null;
  return {
    method: isShippingMethod(row.shipping_method) ? row.shipping_method : null,
    label: row.shipping_label ?? "Envío",
    cents: row.shipping_cents ?? 0,
  };
}

/** The one mapping from stored rows to an `Order` (`lines`: this order's, in their order). */
export function toOrder(
  row: OrderRow,
  lines: LineRow[],
  refund?: RefundRow | null,
  voucherCancellation?: VoucherCancellationRow | null,
): Order {
  return {
    id: row.id,
    status: row.status,
    totalCents: row.total_cents,
    total: formatMXN(row.total_cents),
    currency: row.currency,
    createdAt: toDate(row.created_at),
    paidAt: row.paid_at ? toDate(row.paid_at) : null,
    shippedAt: row.shipped_at ? toDate(row.shipped_at) : null,
    removedAt: row.removed_at ? toDate(row.removed_at) : null,
    expiresAt: toDate(row.expires_at),
    installmentMonths: row.installment_months ?? null,
    cardFunding: row.card_funding ?? null,
    siteUrl: row.site_url ?? null,
    linkVersion: row.link_version ?? 0,
    deliveredAt: row.delivered_at ? toDate(row.delivered_at) : null,
    deliveryDays: row.delivery_days ?? null,
    deliveryBusinessDays: row.delivery_business_days === 1,
    voucher:
      row.payment_method && row.voucher_reference && row.voucher_expires_at
        ? {
            method: row.payment_method,
            reference: row.voucher_reference,
            clabe: row.voucher_clabe ?? null,
            url: row.voucher_url ?? null,
            expiresAt: toDate(row.voucher_expires_at),
          }
        : null,
    shippingRate: shippingRateOf(row),
    piecesCents: row.total_cents - (row.shipping_cents ?? 0),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    paymentSessionId: row.payment_session_id,
    stockIssue: row.stock_issue,
    missingRefundedAt: row.missing_refunded_at ? toDate(row.missing_refunded_at) : null,
    missingRefund:
      row.missing_refund_status || row.missing_refund_error
        ? {
            status: row.missing_refund_status ?? "a_mano",
            error: row.missing_refund_error ?? null,
            inProgress: row.missing_refund_error === REFUND_IN_PROGRESS,
            noAnswer: row.missing_refund_status === "pendiente" && isNoAnswer(row.missing_refund_error),
            byHand: row.missing_refund_id === REFUNDED_BY_HAND,
          }
        : null,
    shipping: row.ship_line1
      ? {
          name: row.ship_name ?? "",
          phone: row.ship_phone ?? "",
          line1: row.ship_line1,
          line2: row.ship_line2 ?? "",
          city: row.ship_city ?? "",
          state: row.ship_state ?? "",
          postalCode: row.ship_postal_code ?? "",
          country: row.ship_country ?? "MX",
        }
      : null,
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    trackingUrl: trackingLink(row.carrier, row.tracking_number),
    lines: lines.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      unitPriceCents: l.unit_price_cents,
      edition: l.edition ?? null,
      missing: l.missing,
    })),
    cancellation: refund
      ? {
          reason: refund.reason,
          byShop: refund.reason === SHOP_CANCELLATION,
          soldOut: refund.reason === SOLD_OUT_AT_PAYMENT,
          mismatch: refund.reason === CHARGE_MISMATCH,
          inProgress: refund.status === "pendiente" && refund.last_error === REFUND_IN_PROGRESS,
          noAnswer: refund.status === "pendiente" && isNoAnswer(refund.last_error),
          byHand: refund.status === "pendiente" && isByHandReason(refund.last_error),
          amountCents: refund.amount_cents,
          refund: refund.status,
          refundId: refund.provider_refund_id,
          refundedAt: refund.refunded_at ? toDate(refund.refunded_at) : null,
          attempts: refund.attempts,
          lastError: refund.last_error,
        }
      : null,
    voucherCancelled:
      row.status === "cancelado" && voucherCancellation?.status === "hecho"
        ? {
            reason: voucherCancellation.reason,
            at: toDate(voucherCancellation.cancelled_at ?? voucherCancellation.created_at),
          }
        : null,
  };
}

/** SQLite takes at most 32,766 parameters in a statement; lines are read this many orders at a time. */
export const IDS_PER_QUERY = 1_000;

/** Several orders with their lines, in the order of `rows`. */
export async function withLines(db: Db, rows: OrderRow[]): Promise<Order[]> {
  const byOrder = new Map<string, LineRow[]>();
  for (let i = 0; i < rows.length; i += IDS_PER_QUERY) {
    const lines = await db
      .selectFrom("order_lines")
      .select(["order_id", "position", "name", "quantity", "unit_price_cents", "missing"])
      .where(
        "order_id",
        "in",
        rows.slice(i, i + IDS_PER_QUERY).map((r) => r.id),
      )
      .orderBy("order_id")
      .orderBy("position")
      .execute();
    const numbered = await editionTexts(
      db,
      rows
        .slice(i, i + IDS_PER_QUERY)
        .filter((r) => r.paid_at !== null)
        .map((r) => r.id),
    );
    for (const line of lines) {
      const withEdition = { ...line, edition: numbered.get(`${line.order_id}:${line.position}`) ?? null };
      const list = byOrder.get(line.order_id);
      if (list) list.push(withEdition);
      else byOrder.set(line.order_id, [withEdition]);
    }
  }
  // Cancelled orders come with their refund, or the voucher cancelled unpaid (few: read only for them).
  const cancelled = rows.filter((r) => r.status === "cancelado").map((r) => r.id);
  const refunds = new Map<string, RefundRow>();
  const vouchers = new Map<string, VoucherCancellationRow>();
  for (let i = 0; i < cancelled.length; i += IDS_PER_QUERY) {
    const ids = cancelled.slice(i, i + IDS_PER_QUERY);
    const found = await db.selectFrom("refunds").selectAll().where("order_id", "in", ids).execute();
    for (const refund of found) refunds.set(refund.order_id, refund);
    const unpaid = await db
      .selectFrom("voucher_cancellations")
      .selectAll()
      .where("order_id", "in", ids)
      .execute();
    for (const voucher of unpaid) vouchers.set(voucher.order_id, voucher);
  }
  return rows.map((row) =>
    toOrder(row, byOrder.get(row.id) ?? [], refunds.get(row.id), vouchers.get(row.id)),
  );
}

export async function getOrder(db: Db, id: string): Promise<Order | null> {
  const row = await db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [order] = await withLines(db, [row]);
  return order ?? null;
}
