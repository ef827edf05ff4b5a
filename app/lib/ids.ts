const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** Random bytes drawn from the system in blocks: a draw per id cost a drop's rush 2 % of its CPU. */
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

/** Random URL-friendly id: 16 characters from a 32-letter alphabet = 80 bits. */
export function newId(length = 16): string {
  if (!Number.isInteger(length) || length < 1 || length > POOL_BYTES)
    throw new RangeError(`largo de id no válido: ${length}`);
  // Each byte is given out once, then the block is drawn again (the same generator, in bulk).
  if (used + length > POOL_BYTES) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let id = "";
  for (let i = used; i < used + length; i++) id += ALPHABET[(pool[i] as number) & 31];
  used += length;
  return id;
}

/**
 * The shape of a `newId()` id (lowercase letters and digits, 16 of them): every drop, product,
 * media and e-mail id. Ids from a request are checked with it before any query.
 */
export function isId(value: string): boolean {
  return /^[a-z0-9]{16}$/.test(value);
}
