import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { shopDateTimeStamp, shopTimeToInstant } from "~/lib/dates";

/*
 * Delivery (issue 27): the owner marks shipped orders 'Entregado' (one or many); until she does,
 * an order counts as delivered some days after it was shipped: the days Configuración said when
 * it shipped, kept with it, so that changing them later moves no buyer's delivery nor return
 * window (decision 44). The buyer's return window (return-window.server.ts) counts from the
 * delivery.
 */

/**
 * Marks shipped orders delivered, once each; how many were marked (others: not shipped, or
 * already). An order already counted as delivered (`assumedDays` after shipping) keeps that date:
 * marking it late never reopens a return window that had closed.
 */
export async function markDelivered(
  db: Db,
  orderIds: readonly string[],
  assumedDays: number,
  now = new Date(),
): Promise<number> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return 0;
  const rows = await db
    .selectFrom("orders")
    .select(["id", "shipped_at", "delivery_days"])
    .where("id", "in", ids)
    .where("status", "in", ["enviado", "archivado"])
    .where("delivered_at", "is", null)
    .execute();
  let marked = 0;
  for (const row of rows) {
    const shippedAt = row.shipped_at ? toDate(row.shipped_at) : null;
    const shipment = { shippedAt, deliveredAt: null, deliveryDays: row.delivery_days };
    const at = deliveredAt(shipment, assumedDays, now)?.at ?? now;
    const result = await db
      .updateTable("orders")
      .set({ delivered_at: toTimestamp(at), updated_at: toTimestamp(now) })
      .where("id", "=", row.id)
      .where("delivered_at", "is", null)
      .executeTakeFirst();
    marked += Number(result.numUpdatedRows);
  }
  return marked;
}

/**
 * When the order was delivered: marked by the owner, or assumed some days after shipping once that
 * day has come: the days kept with the order when it shipped, or `assumedDays` (Configuración's
 * now) for one that kept none. Null: not shipped, or not yet delivered.
 */
export function deliveredAt(
  order: { shippedAt: Date | null; deliveredAt: Date | null; deliveryDays?: number | null },
  assumedDays: number,
  now: Date,
): { at: Date; assumed: boolean } | null {
  if (order.deliveredAt) return { at: order.deliveredAt, assumed: false };
  if (!order.shippedAt) return null;
  const days = order.deliveryDays ?? assumedDays;
  const assumed = new Date(order.shippedAt.getTime() + days * 86_400_000);
  return assumed <= now ? { at: assumed, assumed: true } : null;
}

export type DeliveredOnResult = { ok: true } | { ok: false; reason: "no_enviado" | "fecha_invalida" };

/**
 * The day a shipped order actually arrived, as the owner learnt it (the buyer wrote, the carrier's
 * page says so): recorded as its delivery, at midday of that day in Mexico City, whatever was
 * assumed or marked before — a parcel that came late opens the buyer's 5 business days from the
 * day she had it (LFPC art. 56), not from the day it was assumed. `day` is 'YYYY-MM-DD', from the
 * day it shipped to today.
 */
export async function markDeliveredOn(
  db: Db,
  orderId: string,
  day: string,
  now = new Date(),
): Promise<DeliveredOnResult> {
  const at = shopTimeToInstant(day, "12:00");
  if (!at) return { ok: false, reason: "fecha_invalida" };
  const row = await db
    .selectFrom("orders")
    .select(["shipped_at"])
    .where("id", "=", orderId)
    .where("status", "in", ["enviado", "archivado"])
    .executeTakeFirst();
  if (!row?.shipped_at) return { ok: false, reason: "no_enviado" };
  const shippedDay = shopDateTimeStamp(toDate(row.shipped_at)).slice(0, 10);
  const today = shopDateTimeStamp(now).slice(0, 10);
  if (day < shippedDay || day > today) return { ok: false, reason: "fecha_invalida" };
  const result = await db
    .updateTable("orders")
    .set({ delivered_at: toTimestamp(at), updated_at: toTimestamp(now) })
    .where("id", "=", orderId)
    .where("status", "in", ["enviado", "archivado"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { ok: true } : { ok: false, reason: "no_enviado" };
}
