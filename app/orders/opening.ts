/*
 * A drop's opening (decision 27): the moments when many people ask for the same few pieces.
 *
 * - The lottery: checkouts asked for from LOTTERY_LEAD_SECONDS before the start until
 *   `lotterySeconds` after it get a random place in the line, not the place their packets won.
 *   Nobody is served before it ends.
 * - The line: after the lottery, places follow arrival. During the opening every checkout of the
 *   drop takes a place, and pieces that come back go to the first one waiting.
 * - The opening's rules last `openingMinutes` from the start: short holds, few pieces per address.
 */

export { OPENING_BOUNDS, OPENING_DEFAULTS } from "~/config/opening";

/** Checkouts this early are taken into the lottery (phones' clocks and countdowns run a little ahead). */
export const LOTTERY_LEAD_SECONDS = 5;

export interface OpeningRules {
  startAt: Date;
  lotterySeconds: number;
  openingMinutes: number;
  openingHoldMinutes: number;
  openingHoldsPerAddress: number;
}

export function lotteryStartsAt(rules: Pick<OpeningRules, "startAt">): Date {
  return new Date(rules.startAt.getTime() - LOTTERY_LEAD_SECONDS * 1000);
}

export function lotteryEndsAt(rules: Pick<OpeningRules, "startAt" | "lotterySeconds">): Date {
  return new Date(rules.startAt.getTime() + rules.lotterySeconds * 1000);
}

/** Whether a checkout asked for now is drawn by lot. */
export function inLottery(rules: Pick<OpeningRules, "startAt" | "lotterySeconds">, now: Date): boolean {
  return now >= lotteryStartsAt(rules) && now < lotteryEndsAt(rules);
}

/** Whether the opening's rules hold now (from the lottery's start until `openingMinutes` after the start). */
export function inOpening(
  rules: Pick<OpeningRules, "startAt" | "lotterySeconds" | "openingMinutes">,
  now: Date,
): boolean {
  const ends = Math.max(
    lotteryEndsAt(rules).getTime(),
    rules.startAt.getTime() + rules.openingMinutes * 60_000,
  );
  return now >= lotteryStartsAt(rules) && now.getTime() < ends;
}

/** How long a checkout holds its pieces: the opening's hold during the opening, else the drop's own. */
export function holdMinutesAt(rules: OpeningRules & { holdMinutes: number }, now: Date): number {
  return inOpening(rules, now) ? Math.min(rules.holdMinutes, rules.openingHoldMinutes) : rules.holdMinutes;
}

const PLACE_DIGITS = 16;

/**
 * A place in the line, as text that sorts as the line does (digits only, so every database's
 * collation compares it the same): the lottery's places ("0" and a random number) before the
 * arrivals' ("1" and the arrival's time in microseconds and a tie-breaker).
 */
export function lotteryPlace(random: () => number = Math.random): string {
  // 2^53 kinds of ticket: two alike is as unlikely as nothing else in this shop.
  return `0${String(Math.floor(random() * 2 ** 53)).padStart(PLACE_DIGITS, "0")}`;
}

export function arrivalPlace(now: Date, tieBreaker: number): string {
  return `1${String(now.getTime() * 1000 + (tieBreaker % 1000)).padStart(PLACE_DIGITS, "0")}`;
}

/** The place a checkout asked for now takes. */
export function placeFor(
  rules: Pick<OpeningRules, "startAt" | "lotterySeconds">,
  now: Date,
  random: () => number = Math.random,
): string {
  return inLottery(rules, now) ? lotteryPlace(random) : arrivalPlace(now, Math.floor(random() * 1000));
}
