import type { ShippingAddress } from "./shipping";

/*
 * Who paid, as the per-person limit compares buyers (decision 29): the same e-mail, the same card
 * (the provider's fingerprint, compared as it comes) or the same shipping address is the same
 * person. The keys are folded so that spelling does not make two people of one.
 */

/** The e-mail trimmed and in lower case; null when there is none. */
export function emailKey(email: string | null | undefined): string | null {
  const key = (email ?? "").trim().toLowerCase();
  return key === "" ? null : key;
}

/** Lower case, accents and punctuation off, every run of spaces one space. */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * Calle y número' spelled in full or short: "Av." and "Avenida" are one street. (A Map: a street's
 * words are looked up, and "constructor" is a street name, not Object's.)
 */
const WORDS: ReadonlyMap<string, string> = new Map([
  ["avenida", "av"],
  ["calle", "c"],
  ["numero", ""],
  ["num", ""],
  ["no", ""],
  ["col", ""],
  ["colonia", ""],
  ["interior", "int"],
  ["exterior", "ext"],
  ["sn", "sn"],
]);

/**
 * Line 1 (street and number), postal code and country, folded: "Calle Macedonio Alcalá #401" and
 * "calle macedonio alcala 401" are one address. Null without a street.
 */
export function addressKey(
  address: Pick<ShippingAddress, "line1" | "postalCode" | "country"> | null | undefined,
): string | null {
  if (!address) return null;
  const street = fold(address.line1)
    .split(" ")
    .map((word) => WORDS.get(word) ?? word)
    .filter((word) => word !== "")
    .join(" ");
  if (street === "") return null;
  const postal = fold(address.postalCode).replace(/ /g, "");
  const country = fold(address.country || "MX").replace(/ /g, "") || "mx";
  return `${street}|${postal}|${country}`;
}
