/*
 * The metal's facts as the owner types them in the drops desk (./metal holds the facts and how the
 * shop shows them): the limits and the parsing, in a module of their own so the storefront's pages
 * never load them.
 */

/** A piece's weight is stored in whole milligrams: at most this much (1 kg). */
export const MAX_WEIGHT_MG = 1_000_000;
/** At most this many characters name the stones. */
export const MAX_STONES_LENGTH = 80;

/**
 * A weight as the owner types it: grams with up to two decimals, a point or a comma ("2.35",
 * "2,35", "2.35 g") → whole milligrams (2350). Null when it is not such a number; the caller
 * checks the range (more than 0, at most 1000 g).
 */
export function parseGrams(input: string): number | null {
  const cleaned = input
    .trim()
    .replace(/\s*(g|gr|grs|gramos?)\.?$/i, "")
    .trim();
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const whole = Number(match[1]);
  const hundredths = Number((match[2] ?? "").padEnd(2, "0"));
  return whole * 1000 + hundredths * 10;
}

/** The stones as typed: empty or 'Sin piedras' (any case) is none. */
export function stonesOrNull(input: string | null | undefined): string | null {
  const text = (input ?? "").trim();
  if (text === "" || /^sin piedras?\.?$/i.test(text) || /^ningunas?\.?$/i.test(text)) return null;
  return text;
}
