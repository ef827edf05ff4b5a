import { shopDateTimeStamp, shopTimeToInstant } from "~/lib/dates";

/*
 * The month rule (decision 45): a buyer may ask for her factura until the end of the calendar month
 * she paid in, Mexico City time. After that, the sale is in that month's global invoice (público en
 * general), which the shop issues once the month closes.
 */

/** "2026-11": the shop's month of an instant. */
export function shopMonth(instant: Date): string {
  return shopDateTimeStamp(instant).slice(0, 7);
}

/** [start, end) of a shop month ("2026-11"), as instants. */
export function shopMonthRange(month: string): { start: Date; end: Date } {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const next = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
  const start = shopTimeToInstant(`${month}-01`);
  const end = shopTimeToInstant(`${next}-01`);
  if (!start || !end) throw new RangeError(`Not a month: ${month}`);
  return { start, end };
}

/** The first instant the buyer of an order paid at `paidAt` may no longer ask for a factura. */
export function invoiceDeadline(paidAt: Date): Date {
  return shopMonthRange(shopMonth(paidAt)).end;
}

/** Whether an order paid at `paidAt` may still get its own factura at `now`. */
export function invoiceWindowOpen(paidAt: Date, now: Date): boolean {
  return now >= paidAt && now < invoiceDeadline(paidAt);
}

const monthName = new Intl.DateTimeFormat("es-MX", { month: "long", year: "numeric", timeZone: "UTC" });

/** "noviembre de 2026" */
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return monthName.format(new Date(Date.UTC(y, m - 1, 15)));
}

/** The Spanish refusal once the month is over. */
export function monthClosedMessage(paidAt: Date): string {
  return `Tu compra se pagó en ${monthLabel(shopMonth(paidAt))}: la factura se pide dentro del mismo mes en que pagaste. Las ventas de ese mes sin solicitud de factura ya entraron en la factura global del mes (a público en general), así que ya no podemos emitir una factura a tu nombre por esta compra.`;
}

/** The month before a shop month ("2026-01" → "2025-12"). */
export function previousMonth(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
}

/** The owner's choice of months: this one and the `count - 1` before it, newest first. */
export function recentMonths(now: Date, count = 13): string[] {
  const months = [shopMonth(now)];
  while (months.length < count) months.push(previousMonth(months.at(-1) ?? ""));
  return months;
}
