import type { OrderCeilings } from "~/config/ceilings";
import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { errorLine } from "~/lib/errors";
import {
  type CheckoutLine,
  type HoldRefusal,
  holdCart,
  openCheckoutsOf,
  releaseHold,
  setPaymentSession,
} from "./holds.server";
import type { PaymentProvider } from "./payment-port";
import { cancelCheckout } from "./sweeper.server";

export type CheckoutResult =
  | { ok: true; url: string; orderId: string }
  | ({ ok: false } & (HoldRefusal | { reason: "pago_no_disponible"; message: string }));

/**
 * The spec's createStripeCheckout: holds the pieces, creates the order and opens a payment
 * session. If the provider fails, the hold is released at once.
 *
 * A browser holds at most one unpaid checkout: its previous one (a payment page left open, the
 * back button, a second tab) is closed at the provider and released first, so a shopper who
 * changes the cart never competes with herself, and a script cannot pile up holds from one
 * browser. Without a browser (no cookie), only the request limits bound it.
 */
export async function startCheckout(
  db: Db,
  payments: PaymentProvider,
  lines: CheckoutLine[],
  urls: { success: string | ((orderId: string) => string); cancel: (orderId: string) => string },
  browser: string | null = null,
  ceilings?: OrderCeilings,
): Promise<CheckoutResult> {
  if (browser) {
    for (const previous of await openCheckoutsOf(db, browser)) {
      try {
        // Paid after all (or waiting for cash): it stays, and no longer counts as this browser's.
        await cancelCheckout(db, payments, previous);
      } catch (error) {
        // The provider did not say whether it was paid: nothing is released, nothing new is held.
        log.error({ orderId: previous, error: errorLine(error) }, "No se pudo cerrar el pago anterior");
        return {
          ok: false,
          reason: "pago_no_disponible",
          message: "No pudimos cerrar tu pago anterior. Intenta de nuevo en unos momentos.",
        };
      }
    }
  }
  const order = await holdCart(db, { lines, provider: payments.name, browser, ceilings });
  if (!order.ok) return order;
  try {
    const session = await payments.createSession(order, {
      success: typeof urls.success === "string" ? urls.success : urls.success(order.id),
      cancel: urls.cancel(order.id),
    });
    await setPaymentSession(db, order.id, session, order.expiresAt);
    return { ok: true, url: session.url, orderId: order.id };
  } catch (error) {
    log.error(
      { orderId: order.id, error: errorLine(error) },
      "No se pudo crear la sesión de pago del pedido",
    );
    await releaseHold(db, order.id);
    return {
      ok: false,
      reason: "pago_no_disponible",
      message: "No pudimos iniciar el pago. Intenta de nuevo en unos momentos.",
    };
  }
}
