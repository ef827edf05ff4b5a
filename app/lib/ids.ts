const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** Random URL-friendly id: 16 characters from a 32-letter alphabet = 80 bits. */
export function newId(length = 16): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = "";
  for (const b of bytes) id += ALPHABET[b & 31];
  return id;
}
