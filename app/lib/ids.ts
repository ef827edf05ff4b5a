const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** Random URL-friendly id: 16 characters from a 32-letter alphabet = 80 bits. */
export function newId(length = 16): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = "";
  for (const b of bytes) id += ALPHABET[b & 31];
  return id;
}

/** The shape of a `newId()` id (lowercase letters and digits, 16 of them), for ids chosen by a caller. */
export function isId(value: string): boolean {
  return /^[a-z0-9]{16}$/.test(value);
}

/**
 * A product or drop id as the browser sends it (cart, checkout): checked before it reaches the
 * database. Looser than `isId`; an id that passes but does not exist is simply not found.
 */
export function isClientId(value: string): boolean {
  return /^[a-z0-9]{1,64}$/.test(value);
}
