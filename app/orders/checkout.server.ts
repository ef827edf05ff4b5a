import type { Db } from "~/db/database.server";
import { errorLine } from "~/lib/errors";
import {
  type CheckoutLine,
  type HoldRefusal,
  holdCart,
  releaseHold,
  setPaymentSession,
} from "./holds.server";
import type { PaymentProvider } from "./payment-port";

export type CheckoutResult =
  | { ok: true; url: string; orderId: string }
  | ({ ok: false } & (HoldRefusal | { reason: "pago_no_disponible"; message: string }));

/**
 * The spec's createStripeCheckout: holds the pieces, creates the order and opens a payment
 * session. If the provider fails, the hold is released at once.
 */
export async function startCheckout(
  db: Db,
  payments: PaymentProvider,
  lines: CheckoutLine[],
  urls: { success: string; cancel: (orderId: string) => string },
): Promise<CheckoutResult> {
  const order = await holdCart(db, { lines, provider: payments.name });
  if (!order.ok) return order;
  try {
    const session = await payments.createSession(order, {
      success: urls.success,
      cancel: urls.cancel(order.id),
    });
    await setPaymentSession(db, order.id, session);
    return { ok: true, url: session.url, orderId: order.id };
  } catch (error) {
    console.error(`No se pudo crear la sesión de pago del pedido ${order.id}: ${errorLine(error)}`);
    await releaseHold(db, order.id);
    return {
      ok: false,
      reason: "pago_no_disponible",
      message: "No pudimos iniciar el pago. Intenta de nuevo en unos momentos.",
    };
  }
}
