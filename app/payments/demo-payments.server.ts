import type { Db } from "~/db/database.server";
import type { PaymentMethod } from "~/db/schema";
import type { Voucher } from "~/orders/order";
import type { PaymentProvider, PaymentState } from "~/orders/payment-port";
import { getOrder } from "~/orders/queries.server";
import {
  type ShippingChoice,
  type ShippingOption,
  type ShippingRates,
  shippingOptions,
} from "~/settings/shipping-rates";

export const DEMO_PAYMENT_ROUTE = "/pago-demo";

/** The shipping the demo page offers an order: the shop's rates for its pieces, as Stripe's page lists them. */
export function demoShippingOptions(rates: ShippingRates, piecesCents: number): ShippingOption[] {
  return shippingOptions(rates, piecesCents);
}

/**
 * The shipping the buyer chose on the demo page: the option named (the first when none is, as
 * Stripe's page starts selected), or undefined when the form names one not offered (a 400).
 */
export function demoShippingChoice(
  options: ShippingOption[],
  chosen: FormDataEntryValue | null,
): ShippingChoice | null | undefined {
  if (options.length === 0) return null;
  const option = chosen === null ? options[0] : options.find((o) => o.method === chosen);
  return option ? { method: option.method, label: option.text, cents: option.cents } : undefined;
}

/**
 * The built-in demonstration payment page: a page of the shop stands in for the hosted card page
 * so the whole shop works on a fresh machine. The session is the order itself. It asks for no card,
 * so it tells no card fingerprint: the per-person limit compares e-mail and address only.
 */
export function createDemoPayments(db: Db): PaymentProvider {
  const orderIdOf = (sessionId: string) => sessionId.replace(/^demo_/, "");
  return {
    name: "demo",
    async createSession(order) {
      return { id: `demo_${order.id}`, url: `${DEMO_PAYMENT_ROUTE}/${order.id}`, expiresAt: order.expiresAt };
    },
    getSession,
    async expireSession(sessionId) {
      // Nothing to close: the demo page refuses orders that are no longer waiting for payment.
      return getSession(sessionId);
    },
    async refund(request) {
      // No money was taken: the refund is recorded by the shop (the refunds table) and nothing else.
      return { id: `demo_re_${request.orderId}`, state: "hecho" };
    },
    async refundState() {
      return "hecho";
    },
    async cancelVoucher({ sessionId }) {
      // Nothing to close: the demo page refuses an order once it is no longer waiting for payment.
      // One it confirmed meanwhile is paid, and left to the payment's path.
      if (!sessionId) return "cancelada";
      return (await getSession(sessionId)).paid ? "pagada" : "cancelada";
    },
  };

  async function getSession(sessionId: string) {
    const order = await getOrder(db, orderIdOf(sessionId));
    const paid = order !== null && order.status !== "esperando_pago" && order.status !== "expirado";
    // A voucher given on the demo page completes it unpaid, like the provider's page.
    const waitingVoucher = order?.status === "esperando_pago" && order.voucher !== null;
    return {
      status: paid || waitingVoucher ? "complete" : order?.status === "esperando_pago" ? "open" : "expired",
      paid,
      // The demo page charges exactly the order: its pieces and the shipping chosen, in its currency.
      amountCents: order?.totalCents ?? null,
      currency: order?.currency ?? null,
      // Its own confirmation moment: when the demo page settled it.
      paidAt: order?.paidAt ?? null,
      customerName: order?.customerName ?? "",
      customerEmail: order?.customerEmail ?? "",
      shipping: order?.shipping ?? null,
      shippingRate: order?.shippingRate ?? null,
      voucher: order?.voucher ?? null,
      voucherExpiresAt: order?.voucher?.expiresAt ?? null,
    } satisfies PaymentState;
  }
}

/**
 * The demo page's voucher: a made-up reference in the provider's shape (OXXO: 14 digits; SPEI: a
 * reference and an 18-digit CLABE), the same for the same order.
 */
export function demoVoucher(orderId: string, method: PaymentMethod, expiresAt: Date): Voucher {
  let seed = 7;
  for (const c of orderId) seed = (seed * 31 + c.charCodeAt(0)) % 1_000_000_007;
  const digits = (n: number) => {
    let out = "";
    for (let i = 0; i < n; i++) {
      seed = (seed * 48_271) % 2_147_483_647;
      out += String(seed % 10);
    }
    return out;
  };
  return method === "oxxo"
    ? { method, reference: `9300${digits(10)}`, clabe: null, url: null, expiresAt }
    : { method, reference: digits(7), clabe: `646180${digits(12)}`, url: null, expiresAt };
}
