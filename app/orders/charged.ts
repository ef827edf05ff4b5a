import { formatMXN } from "~/lib/money";

/** What the payment provider says it charged for an order: cents and currency, null when it does not say. */
export interface Charged {
  amountCents: number | null;
  currency: string | null;
}

/** A charge that is not what its order asks: what to refund, and the owner's line saying why. */
export interface ChargeMismatch {
  /** What goes back: what was charged (the order's due when the provider did not say). */
  refundCents: number;
  currency: string;
  /** For the order's timeline, in Spanish. */
  detail: string;
}

/**
 * Whether a charge is what its order asks: its pieces (the total less any shipping recorded) plus
 * the shipping the buyer chose, in the order's currency. Pure: every way a payment is settled (the
 * webhook, the sweeper, the return page, the demo page) goes through it in confirmPayment.
 */
export function chargeMismatch(
  order: { totalCents: number; shippingCents: number; currency: string },
  charged: Charged,
  shippingCents: number,
): ChargeMismatch | null {
  const due = order.totalCents - order.shippingCents + shippingCents;
  const currency = charged.currency?.toLowerCase() ?? null;
  if (charged.amountCents === due && currency === order.currency) return null;
  return {
    refundCents:
      charged.amountCents !== null && Number.isInteger(charged.amountCents) ? charged.amountCents : due,
    currency: currency ?? order.currency,
    detail: `El proveedor de pagos cobró ${amountText(charged.amountCents, currency)}, pero el pedido suma ${amountText(due, order.currency)}: no se dio por pagado y se devuelve lo cobrado.`,
  };
}

/** "$4,501.00 MXN"; another currency in its own code; "un monto que no indicó" when unknown. */
function amountText(cents: number | null, currency: string | null): string {
  if (cents === null || !Number.isInteger(cents)) return "un monto que no indicó";
  if (currency === null) return `${(cents / 100).toFixed(2)} (sin moneda)`;
  return currency === "mxn"
    ? `${formatMXN(cents)} MXN`
    : `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}
