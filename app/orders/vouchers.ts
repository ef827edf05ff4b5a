import { SHOP_TIME_ZONE, shopDateTimeStamp, shopTimeToInstant } from "~/lib/dates";
import { OXXO_MAX_CENTS, OXXO_MIN_CENTS, type VoucherDays, type Vouchers } from "~/settings/vouchers";
import { inOpening } from "./opening";

/*
 * Which delayed ways to pay (OXXO cash, SPEI transfer) an order is offered, and until when a
 * voucher can be paid (decision 42). Pure: the checkout, the demo page and the tests share it.
 */

/** What an order's payment page may offer besides cards; null: cards only. */
export interface VoucherOffer {
  oxxo: boolean;
  spei: boolean;
  days: VoucherDays;
}

/**
 * A drop as the offer needs it: from when, and for how many hours, it is 'solo tarjeta'; and its
 * opening (decision 27), during which a voucher could not hold its piece anyway.
 */
export interface CardOnlyWindow {
  startAt: Date;
  cardOnlyHours: number;
  lotterySeconds: number;
  openingMinutes: number;
}

const HOUR_MS = 3_600_000;

/** "2026-11-26": the calendar date in Mexico City. */
const shopDateStamp = (at: Date) => shopDateTimeStamp(at).slice(0, 10);

/**
 * Whether a drop takes cards only at `now`: its first `cardOnlyHours` from its start, and its whole
 * opening. In the opening a voucher cannot lengthen its short hold (decision 27): offered then, its
 * piece went back before the buyer could pay, and the voucher she still held looked expired.
 */
export function isCardOnly(drop: CardOnlyWindow, now: Date): boolean {
  return now.getTime() < drop.startAt.getTime() + drop.cardOnlyHours * HOUR_MS || inOpening(drop, now);
}

/**
 * The vouchers an order is offered: those the owner turned on, none while any of its drops is in
 * its 'solo tarjeta' hours, and OXXO only for totals a store takes in cash ($10 to $10,000).
 */
export function voucherOffer(
  vouchers: Vouchers,
  order: { totalCents: number; drops: readonly CardOnlyWindow[] },
  now: Date,
): VoucherOffer | null {
  if (!vouchers.oxxo && !vouchers.spei) return null;
  if (order.drops.some((drop) => isCardOnly(drop, now))) return null;
  const oxxo = vouchers.oxxo && order.totalCents >= OXXO_MIN_CENTS && order.totalCents <= OXXO_MAX_CENTS;
  const spei = vouchers.spei;
  return oxxo || spei ? { oxxo, spei, days: vouchers.days } : null;
}

/**
 * When a voucher given at `now` for `days` stops being payable: 23:59:59 in Mexico City, `days`
 * calendar days later (as OXXO vouchers do: given Monday for 1 day, payable until Tuesday night).
 */
export function voucherDeadline(now: Date, days: number): Date {
  const [year, month, day] = shopDateStamp(now).split("-").map(Number) as [number, number, number];
  const last = new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
  return shopTimeToInstant(last, "23:59:59") ?? new Date(now.getTime() + days * 86_400_000);
}

const weekdayDayMonth = new Intl.DateTimeFormat("es-MX", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: SHOP_TIME_ZONE,
});

/** "viernes 27 de noviembre a las 23:59 (hora del centro de México)": until when a voucher is payable. */
export function voucherDeadlineText(expiresAt: Date): string {
  const time = shopDateTimeStamp(expiresAt).slice(11);
  return `${weekdayDayMonth.format(expiresAt)} a las ${time} (hora del centro de México)`;
}

/** The payment methods' names, as the buyer and the owner read them. */
export const PAYMENT_METHOD_LABELS = {
  oxxo: "Efectivo en OXXO",
  spei: "Transferencia SPEI",
} as const;
