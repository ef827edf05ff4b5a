import type { Db } from "~/db/database.server";
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
