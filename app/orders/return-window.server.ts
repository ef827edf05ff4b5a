import { createRequire } from "node:module";
import type Holidays from "date-holidays";
import { shopDateTimeStamp, shopTimeToInstant } from "~/lib/dates";

/*
 * The buyer's right to return a purchase made at a distance (LFPC art. 56): five business days
 * from delivery. Business days are Monday to Friday except Mexico's holidays: the law's own days
 * of rest ('public') and the days offices and banks close ('bank': Holy Thursday and Friday,
 * 2 November, 12 December) — counting those as closed gives the buyer the longer window. The
 * inauguration rest day is 1 October since 2024 (see inaugurationYear).
 */

export const RETURN_BUSINESS_DAYS = 5;

let mexico: Holidays | undefined;
const closedDays = new Map<number, Set<string>>();

/**
 * Mexico's calendar, loaded at its first use: the library reads every country's holidays as it
 * loads (about 150 ms), which every start of every process (and the render thread) paid before,
 * whether or not a return window was ever counted. `require` keeps the functions below synchronous.
 */
function mexicoHolidays(): Holidays {
  if (!mexico) {
    const HolidaysOf = createRequire(import.meta.url)("date-holidays") as typeof Holidays;
    mexico = new HolidaysOf("MX");
  }
  return mexico;
}

/**
 * Whether `year` has the federal executive's inauguration rest day (LFT art. 74 fr. VIII): since
 * the 2024 reform it falls on 1 October every six years (2024, 2030, …), not on 1 December, which
 * the library (3.37) still gives for those years.
 */
function inaugurationYear(year: number): boolean {
  return year >= 2024 && (year - 2024) % 6 === 0;
}

/** Mexico's closed days of a year, as "YYYY-MM-DD" (read once per year). */
function closedIn(year: number): Set<string> {
  let days = closedDays.get(year);
  if (!days) {
    const inauguration = inaugurationYear(year);
    days = new Set(
      mexicoHolidays()
        .getHolidays(year)
        .filter((h) => h.type === "public" || h.type === "bank")
        // Only the old inauguration rule is dropped: 1 December stays closed for any other reason.
        .filter((h) => !(inauguration && h.rule.startsWith("12-01 every 6 years")))
        .map((h) => h.date.slice(0, 10)),
    );
    if (inauguration) days.add(`${year}-10-01`);
    closedDays.set(year, days);
  }
  return days;
}

/** Whether a calendar date ("YYYY-MM-DD") is a business day in Mexico. */
export function isBusinessDay(date: string): boolean {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  if (day === 0 || day === 6) return false;
  return !closedIn(Number(date.slice(0, 4))).has(date);
}

/** The `n`th business day after a calendar date (the date itself does not count). */
export function addBusinessDays(date: string, n: number): string {
  let at = new Date(`${date}T12:00:00Z`);
  let left = n;
  while (left > 0) {
    at = new Date(at.getTime() + 86_400_000);
    if (isBusinessDay(at.toISOString().slice(0, 10))) left--;
  }
  return at.toISOString().slice(0, 10);
}

/** Until when a buyer may ask to return an order delivered at `deliveredAt`: the end (Mexico City) of its 5th business day. */
export function returnWindowEnd(deliveredAt: Date): Date {
  const last = addBusinessDays(shopDateTimeStamp(deliveredAt).slice(0, 10), RETURN_BUSINESS_DAYS);
  return shopTimeToInstant(last, "23:59:59") ?? new Date(deliveredAt.getTime() + 7 * 86_400_000);
}
