import { type Db, toDate } from "~/db/database.server";
import type { Vouchers } from "~/settings/vouchers";
import type { PaymentRequest } from "./payment-port";
import { voucherDeadline, voucherOffer } from "./vouchers";

/**
 * The vouchers (OXXO, SPEI) an order's payment page offers, from the owner's settings and its
 * drops' 'solo tarjeta' hours and openings (decision 42), with the end of a voucher given now;
 * null: cards only.
 */
export async function vouchersForOrder(
  db: Db,
  vouchers: Vouchers | undefined,
  order: { totalCents: number; dropIds: readonly string[] },
  now: Date,
): Promise<PaymentRequest["vouchers"]> {
  if (!vouchers || (!vouchers.oxxo && !vouchers.spei)) return null;
  const drops =
    order.dropIds.length === 0
      ? []
      : await db
          .selectFrom("drops")
          .select(["start_at", "card_only_hours", "lottery_seconds", "opening_minutes"])
          .where("id", "in", [...new Set(order.dropIds)])
          .execute();
  const offer = voucherOffer(
    vouchers,
    {
      totalCents: order.totalCents,
      drops: drops.map((d) => ({
        startAt: toDate(d.start_at),
        cardOnlyHours: d.card_only_hours,
        lotterySeconds: d.lottery_seconds,
        openingMinutes: d.opening_minutes,
      })),
    },
    now,
  );
  return offer ? { ...offer, voucherEndsAt: voucherDeadline(now, offer.days) } : null;
}

/** The drops an order's pieces come from. */
export async function dropsOfOrder(db: Db, orderId: string): Promise<string[]> {
  const rows = await db.selectFrom("order_lines").select("drop_id").where("order_id", "=", orderId).execute();
  return [...new Set(rows.map((r) => r.drop_id))];
}
