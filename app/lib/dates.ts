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

/**
 * "Del 12 al 18 de noviembre de 2026" style text for a drop's dates. A drop of one day (in Mexico
 * City) names its day once, with its hours: "30 de noviembre de 2026, de 10:00 a 22:00 h".
 */
export function dateRangeText(start: Date, end: Date): string {
  if (dayMonthYear.format(start) === dayMonthYear.format(end)) {
    return `${dayMonthYear.format(start)}, de ${clockTime.format(start)} a ${clockTime.format(end)} h`;
  }
  const sameYear = yearOf(start) === yearOf(end);
  const sameMonth = monthYear.format(start) === monthYear.format(end);
  const from = sameMonth ? day.format(start) : sameYear ? dayMonth.format(start) : dayMonthYear.format(start);
  return `Del ${from} al ${dayMonthYear.format(end)}`;
}

const shopParts = new Intl.DateTimeFormat("en-US", {
  timeZone: SHOP_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** How far the shop's clock is ahead of UTC at `instant`, in minutes (negative in Mexico). */
function shopOffsetMinutes(instant: number): number {
  const parts = Object.fromEntries(
    shopParts.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * A month as the owner picks it for her reports and facturas ("2026-11"): of a year the shop can
 * have sold in. A year past 9998 has no next month to end it (no date reaches year 10000).
 */
export const SHOP_MONTH_PATTERN = /^(20\d\d)-(0[1-9]|1[0-2])$/;

/**
 * The years the shop's own dates (drops, orders, reports) can fall in: a date typed outside them is
 * a typo ("0226-12-05" for 2026), not a drop of the year 226 that sells at once. 2100 is in so that
 * 2099's last month has its end (SHOP_MONTH_PATTERN).
 */
export const SHOP_YEARS = { first: 2000, last: 2100 } as const;

/** Whether a typed date ("YYYY-MM-DD") names a year outside SHOP_YEARS: the owner is told so. */
export function outsideShopYears(date: string): boolean {
  const y = /^(\d{4})-/.exec(date.trim())?.[1];
  return y !== undefined && (Number(y) < SHOP_YEARS.first || Number(y) > SHOP_YEARS.last);
}

/**
 * The instant a wall-clock time in Mexico City stands for: `shopTimeToInstant("2026-11-23", "14:05")`.
 * Null when the date or time is not a real one, or its year is outside SHOP_YEARS.
 */
export function shopTimeToInstant(date: string, time = "00:00"): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!d || !t) return null;
  const [y, mo, da, h, mi, s] = [d[1], d[2], d[3], t[1], t[2], t[3] ?? "0"].map(Number) as number[];
  // Also keeps Date.UTC from reading "0026" (a typo for 2026) as 1926.
  if ((y ?? 0) < SHOP_YEARS.first || (y ?? 0) > SHOP_YEARS.last) return null;
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, da ?? 1, h ?? 0, mi ?? 0, s ?? 0);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== (mo ?? 1) - 1 || check.getUTCDate() !== da)
    return null;
  if ((h ?? 0) > 23 || (mi ?? 0) > 59 || (s ?? 0) > 59) return null;
  // Twice, so a guess on the other side of a clock change settles on the right offset.
  let instant = wall - shopOffsetMinutes(wall) * 60_000;
  instant = wall - shopOffsetMinutes(instant) * 60_000;
  return new Date(instant);
}

const dateTime = new Intl.DateTimeFormat("es-MX", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: SHOP_TIME_ZONE,
});

/** "23 de noviembre de 2026" in Mexico City time. */
export function formatShopDate(date: Date): string {
  return dayMonthYear.format(date);
}

/** "23 nov 2026, 14:05" in Mexico City time. */
export function formatShopDateTime(date: Date): string {
  return dateTime.format(date);
}

/** "2026-11-23 14:05", Mexico City time: sorts as text (CSV files). With `seconds`, "2026-11-23 14:05:37". */
export function shopDateTimeStamp(date: Date, { seconds = false } = {}): string {
  const p = Object.fromEntries(shopParts.formatToParts(date).map((x) => [x.type, x.value]));
  const two = (v: string | undefined) => (v ?? "").padStart(2, "0");
  const time = `${two(p.hour)}:${two(p.minute)}${seconds ? `:${two(p.second)}` : ""}`;
  return `${p.year}-${two(p.month)}-${two(p.day)} ${time}`;
}

const opening = new Intl.DateTimeFormat("es-MX", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: SHOP_TIME_ZONE,
});
const openingYear = new Intl.DateTimeFormat("es-MX", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: SHOP_TIME_ZONE,
});
const clockTime = new Intl.DateTimeFormat("es-MX", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: SHOP_TIME_ZONE,
});

/**
 * "Abre el sábado 5 de diciembre, 10:00 h (hora de la Ciudad de México)": when an upcoming drop
 * opens, on the shop's clock. The year is named only when it is not the current one.
 */
/** "14:35", Mexico City time. */
export function formatShopClock(date: Date): string {
  return clockTime.format(date);
}

export function openingText(startAt: Date, now: Date): string {
  const day = (yearOf(startAt) === yearOf(now) ? opening : openingYear).format(startAt).replace(",", "");
  return `Abre el ${day}, ${clockTime.format(startAt)} h (hora de la Ciudad de México)`;
}

/**
 * The instant a form's time (to the second) stands for, given what was stored: the stored instant
 * when the form kept its second (its milliseconds were only not shown), the form's otherwise. A
 * save that touched only a description never moves a drop's opening at all.
 */
export function keptWithinSecond(stored: Date, fromForm: Date): Date {
  return Math.floor(stored.getTime() / 1_000) * 1_000 === fromForm.getTime() ? stored : fromForm;
}
