/** The shop's clock for dates people read (drop dates, order dates). */
export const SHOP_TIME_ZONE = "America/Mexico_City";

const dayMonth = new Intl.DateTimeFormat("es-MX", {
  day: "numeric",
  month: "long",
  timeZone: SHOP_TIME_ZONE,
});
const dayMonthYear = new Intl.DateTimeFormat("es-MX", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: SHOP_TIME_ZONE,
});
const year = new Intl.DateTimeFormat("es-MX", { year: "numeric", timeZone: SHOP_TIME_ZONE });
const monthYear = new Intl.DateTimeFormat("es-MX", {
  month: "numeric",
  year: "numeric",
  timeZone: SHOP_TIME_ZONE,
});
const day = new Intl.DateTimeFormat("es-MX", { day: "numeric", timeZone: SHOP_TIME_ZONE });

export function yearOf(date: Date): number {
  return Number(year.format(date));
}

/** "Del 12 al 18 de noviembre de 2026" style text for a drop's dates. */
export function dateRangeText(start: Date, end: Date): string {
  const sameYear = yearOf(start) === yearOf(end);
  const sameMonth = monthYear.format(start) === monthYear.format(end);
  const from = sameMonth ? day.format(start) : sameYear ? dayMonth.format(start) : dayMonthYear.format(start);
  return `Del ${from} al ${dayMonthYear.format(end)}`;
}
