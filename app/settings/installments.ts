/*
 * 'Meses sin intereses' as the storefront says them (issue 26): a small, plain module the browser
 * bundles (the drawer), apart from Configuración's schema.
 */

/** Interest-free monthly instalments ('meses sin intereses', issue 26), as the owner set them. */
export interface Installments {
  enabled: boolean;
  /** The most months offered (the plans the owner has at the payment provider go up to it). */
  months: InstallmentMonths;
  /** The smallest order total, in cents, that offers them. */
  minCents: number;
}

/** The plans Mexican card issuers offer without interest. */
export const INSTALLMENT_MONTHS = [3, 6, 9, 12, 18, 24] as const;
export type InstallmentMonths = (typeof INSTALLMENT_MONTHS)[number];
/** The payment provider's smallest total for instalments in MXN (Stripe: $300). */
export const MIN_INSTALLMENTS_PESOS = 300;
export const MAX_INSTALLMENTS_PESOS = 1_000_000;

/** The months to offer for a total, or null when the owner offers none or the total is too small. */
export function installmentsFor(installments: Installments, totalCents: number): InstallmentMonths | null {
  return installments.enabled && totalCents >= installments.minCents ? installments.months : null;
}

/** What the storefront needs to say 'Hasta N meses sin intereses': the months, and from which total. */
export interface InstallmentsOffer {
  months: number;
  minCents: number;
}

/** The offer the storefront shows, or null while the owner offers none. */
export function installmentsOffer(installments: Installments): InstallmentsOffer | null {
  return installments.enabled ? { months: installments.months, minCents: installments.minCents } : null;
}
