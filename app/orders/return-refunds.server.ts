import type { Db } from "~/db/database.server";
import { missingCents } from "./order";
import { IDS_PER_QUERY } from "./queries.server";

/**
 * What each order's returns gave back (decision 48), in centavos by order: only refunds recorded as
 * made, by the provider or by hand; one still pending is not counted. Orders without any are absent.
 */
export async function refundedByReturns(db: Db, orderIds: readonly string[]): Promise<Map<string, number>> {
  const refunded = new Map<string, number>();
  for (let i = 0; i < orderIds.length; i += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom("returns")
      .select(["order_id", "refund_cents"])
      .where("refund_status", "=", "hecho")
      .where("order_id", "in", orderIds.slice(i, i + IDS_PER_QUERY))
      .execute();
    for (const row of rows) refunded.set(row.order_id, (refunded.get(row.order_id) ?? 0) + row.refund_cents);
  }
  return refunded;
}

/**
 * What each order gave back after its sale, in centavos by order: its returns' refunds made, and a
 * late payment's missing pieces once the owner recorded giving them back (their shipping too when
 * nothing was sent, as `missingCents` counts it). For the accountant's exports.
 */
export async function refundedAfterSale(db: Db, orderIds: readonly string[]): Promise<Map<string, number>> {
  const refunded = await refundedByReturns(db, orderIds);
  for (let i = 0; i < orderIds.length; i += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom("orders as o")
      .innerJoin("order_lines as l", "l.order_id", "o.id")
      .select(["o.id", "o.shipping_cents", "l.quantity", "l.missing", "l.unit_price_cents"])
      .where("o.missing_refunded_at", "is not", null)
      .where("o.id", "in", orderIds.slice(i, i + IDS_PER_QUERY))
      .execute();
    const byOrder = new Map<string, typeof rows>();
    for (const row of rows) byOrder.set(row.id, [...(byOrder.get(row.id) ?? []), row]);
    for (const [id, lines] of byOrder) {
      const cents = missingCents({
        lines: lines.map((l) => ({
          missing: l.missing,
          quantity: l.quantity,
          unitPriceCents: l.unit_price_cents,
        })),
        shippingRate: { cents: lines[0]?.shipping_cents ?? 0 },
      });
      if (cents > 0) refunded.set(id, (refunded.get(id) ?? 0) + cents);
    }
  }
  return refunded;
}
