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
