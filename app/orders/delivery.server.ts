import { type Db, toTimestamp } from "~/db/database.server";

/*
 * Delivery (issue 27): the owner marks shipped orders 'Entregado' (one or many); until she does,
 * an order counts as delivered `assumedDays` after it was shipped. The buyer's return window
 * (return-window.server.ts) counts from the delivery.
 */

/** Marks shipped orders delivered, once each; how many were marked (others: not shipped, or already). */
export async function markDelivered(db: Db, orderIds: readonly string[], now = new Date()): Promise<number> {
  if (orderIds.length === 0) return 0;
  const result = await db
    .updateTable("orders")
    .set({ delivered_at: toTimestamp(now), updated_at: toTimestamp(now) })
    .where("id", "in", [...orderIds])
    .where("status", "in", ["enviado", "archivado"])
    .where("delivered_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * When the order was delivered: marked by the owner, or assumed `assumedDays` after shipping once
 * that day has come. Null: not shipped, or not yet delivered.
 */
export function deliveredAt(
  order: { shippedAt: Date | null; deliveredAt: Date | null },
  assumedDays: number,
  now: Date,
): { at: Date; assumed: boolean } | null {
  if (order.deliveredAt) return { at: order.deliveredAt, assumed: false };
  if (!order.shippedAt) return null;
  const assumed = new Date(order.shippedAt.getTime() + assumedDays * 86_400_000);
  return assumed <= now ? { at: assumed, assumed: true } : null;
}
