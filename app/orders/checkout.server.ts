import { z } from "zod";
import type { Db } from "~/db/database.server";
import { isClientId } from "~/lib/ids";
import type { PaymentProvider } from "~/payments/payments.server";
import { CheckoutRefused, holdCart, releaseHold, setPaymentSession } from "./orders.server";

/** What the drawer sends: ids and quantities only. Anything else in the body is ignored. */
export const checkoutRequest = z.object({
  cart: z
    .array(
      z.object({
        product: z.object({ id: z.string().refine(isClientId) }),
        dropId: z.string().refine(isClientId),
        quantity: z.number().int().min(1).max(50),
      }),
    )
    .min(1)
    .max(50),
});

export type CheckoutResult = { status: 200; url: string } | { status: 400 | 409 | 502; message: string };

/**
 * The spec's createStripeCheckout: holds the pieces, creates the order and opens a payment
 * session. If the provider fails, the hold is released at once.
 */
export async function startCheckout(
  db: Db,
  payments: PaymentProvider,
  body: unknown,
  urls: { success: string; cancel: (orderId: string) => string },
): Promise<CheckoutResult> {
  const parsed = checkoutRequest.safeParse(body);
  if (!parsed.success)
    return { status: 400, message: "El carrito no es válido. Revisa las piezas e intenta de nuevo." };
  let order: Awaited<ReturnType<typeof holdCart>>;
  try {
    order = await holdCart(db, {
      lines: parsed.data.cart.map((l) => ({
        productId: l.product.id,
        dropId: l.dropId,
        quantity: l.quantity,
      })),
      provider: payments.name,
    });
  } catch (error) {
    if (error instanceof CheckoutRefused) return { status: error.status, message: error.message };
    throw error;
  }
  try {
    const session = await payments.createSession(order, {
      success: urls.success,
      cancel: urls.cancel(order.id),
    });
    await setPaymentSession(db, order.id, session);
    return { status: 200, url: session.url };
  } catch (error) {
    console.error("Payment session failed:", error);
    await releaseHold(db, order.id);
    return { status: 502, message: "No pudimos iniciar el pago. Intenta de nuevo en unos momentos." };
  }
}
