import { SHOP_TIME_ZONE, shopDateTimeStamp, shopTimeToInstant } from "~/lib/dates";

/*
 * The report's calendar: days and months as the shop's owner lives them, in Mexico City
 * (decision 22). An order paid at 23:30 on 31 October in Mexico City is October's, although it is
 * already 1 November in UTC.
 */

/** "2026-10-31": the shop's day of an instant. */
export function dayKey(instant: Date): string {
  return shopDateTimeStamp(instant).slice(0, 10);
}

/** "2026-10": the shop's month of an instant. */
export function monthKey(instant: Date): string {
  return shopDateTimeStamp(instant).slice(0, 7);
}

/** The day after a day key (calendar arithmetic, not 24 hours: clocks may change). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

export function nextMonth(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
}

/** The instant a shop day (or a month's first day) begins. */
export function dayStart(day: string): Date {
  const instant = shopTimeToInstant(day);
  if (!instant) throw new RangeError(`Not a day: ${day}`);
  return instant;
}

/** [start, end) of a month in the shop's time zone. */
export function monthRange(month: string): { start: Date; end: Date } {
  return { start: dayStart(`${month}-01`), end: dayStart(`${nextMonth(month)}-01`) };
}

const monthName = new Intl.DateTimeFormat("es-MX", { month: "long", year: "numeric", timeZone: "UTC" });
const dayName = new Intl.DateTimeFormat("es-MX", { day: "numeric", month: "short", timeZone: "UTC" });

/** "octubre de 2026" */
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return monthName.format(new Date(Date.UTC(y, m - 1, 15)));
}

/** "31 oct" */
export function dayLabel(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return dayName.format(new Date(Date.UTC(y, m - 1, d, 12)));
}

export { SHOP_TIME_ZONE };
