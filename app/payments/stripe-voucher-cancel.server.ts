import type Stripe from "stripe";
import type { VoucherCancelAnswer } from "~/orders/payment-port";

/*
 * Cancelling a voucher's payment at Stripe (decisions 29 and 42): the PaymentIntent of a Checkout
 * Session completed unpaid with an OXXO voucher or a SPEI transfer, cancelled so it can no longer be
 * paid. Stripe cancels one still waiting for its money (`requires_action`, `requires_payment_method`)
 * and refuses one already paid or cancelled: then the PaymentIntent itself says which.
 */

/** What a PaymentIntent's status says of a voucher asked to be cancelled; null: neither (yet). */
export function cancelAnswerOf(status: Stripe.PaymentIntent.Status | string): VoucherCancelAnswer | null {
  if (status === "canceled") return "cancelada";
  // Paid, or the money on its way (a bank transfer being processed): the payment's path settles it.
  if (status === "succeeded" || status === "processing" || status === "requires_capture") return "pagada";
  return null;
}

/** Stripe read the request and refused it (400, 402, 404): the PaymentIntent's own state says why. */
function refused(error: unknown): boolean {
  const status = (error as { statusCode?: number } | null)?.statusCode;
  return status === 400 || status === 402 || status === 404;
}

export async function cancelStripeVoucher(
  stripe: Stripe,
  payment: { sessionId: string | null; paymentId: string | null },
): Promise<VoucherCancelAnswer> {
  let intentId = payment.paymentId;
  if (!intentId && payment.sessionId) {
    const intent = (await stripe.checkout.sessions.retrieve(payment.sessionId)).payment_intent;
    intentId = typeof intent === "string" ? intent : (intent?.id ?? null);
  }
  if (!intentId) throw new Error(`la sesión ${payment.sessionId} no tiene pago en Stripe que cancelar`);
  try {
    const intent = await stripe.paymentIntents.cancel(intentId);
    const answer = cancelAnswerOf(intent.status);
    if (answer) return answer;
    throw new Error(`Stripe dejó el pago ${intentId} en ${intent.status} al cancelarlo`);
  } catch (error) {
    // Refused: paid meanwhile, or cancelled before (a first answer that never reached the shop).
    if (!refused(error)) throw error;
    const intent = await stripe.paymentIntents.retrieve(intentId);
    const answer = cancelAnswerOf(intent.status);
    if (answer) return answer;
    throw error;
  }
}
