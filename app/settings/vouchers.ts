/*
 * OXXO and SPEI as the owner turns them on (issue 26, decision 42): a small, plain module (no
 * schema), read by the checkout, the demo page and Configuración.
 */

/** Cash at an OXXO store and bank transfers (SPEI): each on or off, and how long a voucher lives. */
export interface Vouchers {
  oxxo: boolean;
  spei: boolean;
  /** Days a voucher can be paid (it ends at 23:59, Mexico City time, of the last one). */
  days: VoucherDays;
}

/**
 * The days a voucher may live here. The provider allows up to 7 for OXXO; a drop's piece held for
 * a week waits too long for those who want it (decision 42).
 */
export const VOUCHER_DAYS = [1, 2, 3] as const;
export type VoucherDays = (typeof VOUCHER_DAYS)[number];
export const DEFAULT_VOUCHER_DAYS: VoucherDays = 2;

/** OXXO takes cash from $10 to $10,000 MXN a voucher (the provider's limits). */
export const OXXO_MIN_CENTS = 1_000;
export const OXXO_MAX_CENTS = 1_000_000;

/** By default a drop is 'solo tarjeta' for its first two hours. */
export const DEFAULT_CARD_ONLY_HOURS = 2;
export const MAX_CARD_ONLY_HOURS = 72;
