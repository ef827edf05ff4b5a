import type { Db } from "~/db/database.server";
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
  };

  async function getSession(sessionId: string) {
    const order = await getOrder(db, orderIdOf(sessionId));
    const paid = order !== null && order.status !== "esperando_pago" && order.status !== "expirado";
    return {
      status: paid ? "complete" : order?.status === "esperando_pago" ? "open" : "expired",
      paid,
      customerName: order?.customerName ?? "",
      customerEmail: order?.customerEmail ?? "",
      shipping: order?.shipping ?? null,
    } satisfies PaymentState;
  }
}
