const mxn = new Intl.NumberFormat("es-MX", {
  style: "currency",
  currency: "MXN",
  currencyDisplay: "narrowSymbol",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Integer centavos to the shop's display form: 1250000 -> "$12,500.00". */
export function formatMXN(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Money must be integer centavos, got ${cents}`);
  return mxn.format(cents / 100);
}

/** The largest value of a PostgreSQL `integer` column (SQLite's integers are 64-bit). */
export const DB_INTEGER_MAX = 2_147_483_647;

/**
 * The most one payment can be: Stripe takes amounts of at most 8 digits (99,999,999 centavos =
 * $999,999.99). It caps a piece's price and an order's total alike, far below `DB_INTEGER_MAX`.
 */
export const MAX_CHARGE_CENTS = 99_999_999;
