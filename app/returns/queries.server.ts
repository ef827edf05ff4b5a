import { type Db, toDate } from "~/db/database.server";
import type { ReturnStatus } from "~/db/schema";
import { formatShopDateTime } from "~/lib/dates";
import { formatMXN } from "~/lib/money";
import { lineNumbers } from "~/orders/editions.server";
import { REFUNDED_BY_HAND, refundWayOf } from "~/orders/order";
import { isReturnReason, RETURN_REASONS, RETURN_STATUS_LABELS } from "./return-status";

/** A return as the buyer's page, her e-mails and the owner's desk show it. */
export interface ReturnView {
  id: string;
  orderId: string;
  status: ReturnStatus;
  statusLabel: string;
  reason: string;
  comment: string;
  ownerMessage: string;
  requestedAt: string;
  refund: string;
  refundCents: number;
  refundStatus: "pendiente" | "hecho" | null;
  refundError: string | null;
  refundedAt: string | null;
  /**
   * How her refund reaches her, as her e-mails say it: " al mismo medio con que pagaste" for a
   * card, " a la cuenta desde la que transferiste" for a SPEI transfer (the provider sends both
   * back); nothing for cash paid at OXXO (no provider refunds it: the shop writes to her) or a
   * refund the owner made herself.
   */
  refundWay: string;
  /** The piece came damaged or was not the one bought: the shop pays its shipping back. */
  shopPaysReturn: boolean;
  customerName: string;
  customerEmail: string;
  lines: {
    position: number;
    name: string;
    size: string | null;
    /** The pieces this return counts: those that arrived once it is received, else those asked. */
    quantity: number;
    /** The pieces she asked to return. */
    asked: number;
    /** How many arrived (null: not received yet). */
    received: number | null;
    /** The price of `quantity` pieces, and of one. */
    amount: string;
    unitPriceCents: number;
    restock: boolean | null;
    /** The edition numbers the order line holds now (numbered pieces, decision 33), lowest first. */
    numbers: number[];
  }[];
}

const SELECTED = [
  "r.id",
  "r.order_id",
  "r.status",
  "r.reason",
  "r.comment",
  "r.owner_message",
  "r.requested_at",
  "r.refund_cents",
  "r.refund_status",
  "r.refund_error",
  "r.refunded_at",
  "r.provider_refund_id",
  "o.payment_method",
  "o.customer_name",
  "o.customer_email",
] as const;

/** Returns by id, newest first; with `orderId`, that order's; with `statuses`, those. */
export async function listReturns(
  db: Db,
  filter: { ids?: readonly string[]; orderId?: string; statuses?: readonly ReturnStatus[]; limit?: number },
): Promise<ReturnView[]> {
  let query = db.selectFrom("returns as r").innerJoin("orders as o", "o.id", "r.order_id").select(SELECTED);
  if (filter.ids) query = query.where("r.id", "in", filter.ids.length ? [...filter.ids] : [""]);
  if (filter.orderId) query = query.where("r.order_id", "=", filter.orderId);
  if (filter.statuses)
    query = query.where("r.status", "in", filter.statuses.length ? [...filter.statuses] : ["solicitada"]);
  const rows = await query
    .orderBy("r.requested_at", "desc")
    .limit(filter.limit ?? 200)
    .execute();
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom("return_lines as l")
    .innerJoin("returns as r", "r.id", "l.return_id")
    .innerJoin("order_lines as ol", (j) =>
      j.onRef("ol.order_id", "=", "r.order_id").onRef("ol.position", "=", "l.position"),
    )
    .select([
      "l.return_id",
      "l.position",
      "l.quantity",
      "l.unit_price_cents",
      "l.restock",
      "l.received",
      "ol.name",
      "ol.option_value",
    ])
    .where(
      "l.return_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("l.position")
    .execute();
  const numbers = await lineNumbers(
    db,
    rows.map((r) => r.order_id),
  );
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    status: r.status,
    statusLabel: RETURN_STATUS_LABELS[r.status],
    reason: isReturnReason(r.reason) ? RETURN_REASONS[r.reason] : r.reason,
    // A defect or the shop's own mistake: the shop pays the way back ('Garantía' in the legal pages).
    shopPaysReturn: r.reason === "danada" || r.reason === "equivocada",
    comment: r.comment,
    ownerMessage: r.owner_message,
    requestedAt: formatShopDateTime(toDate(r.requested_at)),
    refund: formatMXN(r.refund_cents),
    refundCents: r.refund_cents,
    refundStatus: r.refund_status,
    refundError: r.refund_error,
    refundedAt: r.refunded_at ? formatShopDateTime(toDate(r.refunded_at)) : null,
    refundWay: r.provider_refund_id === REFUNDED_BY_HAND ? "" : refundWayOf(r.payment_method),
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    lines: lines
      .filter((l) => l.return_id === r.id)
      .map((l) => ({
        position: l.position,
        name: l.name,
        size: l.option_value,
        quantity: l.received ?? l.quantity,
        asked: l.quantity,
        received: l.received,
        amount: formatMXN(l.unit_price_cents * (l.received ?? l.quantity)),
        unitPriceCents: l.unit_price_cents,
        restock: l.restock === null ? null : l.restock === 1,
        numbers: numbers.get(`${r.order_id}:${l.position}`) ?? [],
      })),
  }));
}

export async function getReturn(db: Db, returnId: string): Promise<ReturnView | null> {
  return (await listReturns(db, { ids: [returnId] }))[0] ?? null;
}

/** How many returns stand in each status (the desk's views). */
export async function countReturnsByStatus(db: Db): Promise<Record<ReturnStatus, number>> {
  const rows = await db
    .selectFrom("returns")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  const counts: Record<ReturnStatus, number> = {
    solicitada: 0,
    aceptada: 0,
    rechazada: 0,
    recibida: 0,
    reembolsada: 0,
    cerrada: 0,
  };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}
