const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** Random URL-friendly id: 16 characters from a 32-letter alphabet = 80 bits. */
export function newId(length = 16): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = "";
  for (const b of bytes) id += ALPHABET[b & 31];
  return id;
}

/**
 * The shape of a `newId()` id (lowercase letters and digits, 16 of them): every drop, product,
 * media and e-mail id. Ids from a request are checked with it before any query.
 */
export function isId(value: string): boolean {
  return /^[a-z0-9]{16}$/.test(value);
}
