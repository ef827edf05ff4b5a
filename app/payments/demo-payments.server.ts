import type { Db } from "~/db/database.server";
import type { PaymentProvider, PaymentState } from "~/orders/payment-port";
import { getOrder } from "~/orders/queries.server";

export const DEMO_PAYMENT_ROUTE = "/pago-demo";

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
