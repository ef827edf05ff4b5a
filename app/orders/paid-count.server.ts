import type { Db } from "~/db/database.server";
import { recordPaid } from "~/observability/metrics.server";
import type { PaidOutcome } from "./payment.server";

/**
 * Counts an order that a confirmation just paid (`confirmPayment`'s outcome) in the shop's
 * metrics, once per drop its pieces come from. A replayed confirmation (already paid) is not
 * counted again. Only a count: a failure to read the order's drops never fails the payment.
 */
export async function countPaidOrder(db: Db, orderId: string, outcome: PaidOutcome): Promise<void> {
  // Paid beyond the per-person limit, late with every piece gone, or another amount than its
  // total: cancelled and refunded, not a sale.
  if (
    outcome === "already_paid" ||
    outcome === "unknown_order" ||
    outcome === "cancelled_over_limit" ||
    outcome === "cancelled_sold_out" ||
    outcome === "cancelled_mismatch"
  )
    return;
  try {
    const drops = await db
      .selectFrom("order_lines")
      .select("drop_id")
      .distinct()
      .where("order_id", "=", orderId)
      .execute();
    recordPaid(drops.map((d) => d.drop_id));
  } catch {}
}
