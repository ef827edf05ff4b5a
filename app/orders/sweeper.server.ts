import type { Db } from "~/db/database.server";
import { expiredHolds, extendHold, releaseHold } from "./holds.server";
import { confirmPayment } from "./payment.server";
import type { PaymentProvider } from "./payment-port";

/** How much longer a hold waits for a delayed payment method (cash at a store can take days). */
const DELAYED_PAYMENT_RECHECK_MS = 60 * 60_000;

/**
 * Settles holds whose time is up. The provider is asked first: a session that was paid (say,
 * while this server was down) is fulfilled; one completed with a delayed payment method keeps
 * its hold until that payment succeeds or fails; any other is closed and its pieces go back.
 * Safe when several servers sweep at once: each step only acts on an order still waiting. One
 * hold that cannot be settled now (the provider is unreachable) does not hold up the others.
 */
export async function sweepExpiredHolds(
  db: Db,
  payments: PaymentProvider,
  now = new Date(),
): Promise<{ released: number; paid: number; waiting: number; failed: number }> {
  const counts = { released: 0, paid: 0, waiting: 0, failed: 0 };
  const skip = new Set<string>();
  for (let batch = 0; batch < 20; batch++) {
    const holds = (await expiredHolds(db, now, 100)).filter((h) => !skip.has(h.id));
    if (holds.length === 0) break;
    for (const hold of holds) {
      try {
        counts[await settleHold(db, payments, hold, now)]++;
      } catch (error) {
        counts.failed++;
        skip.add(hold.id);
        console.error(`No se pudo resolver el apartado ${hold.id}:`, (error as Error).message);
      }
    }
  }
  return counts;
}

async function settleHold(
  db: Db,
  payments: PaymentProvider,
  hold: { id: string; payment_session_id: string | null; payment_provider: string },
  now: Date,
): Promise<"released" | "paid" | "waiting"> {
  // A hold from another provider (the shop switched from the demo page to Stripe) has no
  // session to ask about here: it was never paid through this provider.
  if (hold.payment_session_id && hold.payment_provider === payments.name) {
    let state = await payments.getSession(hold.payment_session_id);
    if (state.status === "open") state = await payments.expireSession(hold.payment_session_id);
    if (state.paid) {
      await confirmPayment(db, {
        orderId: hold.id,
        customerName: state.customerName,
        customerEmail: state.customerEmail,
        shipping: state.shipping,
        now,
      });
      return "paid";
    }
    if (state.status === "complete") {
      await extendHold(db, hold.id, new Date(now.getTime() + DELAYED_PAYMENT_RECHECK_MS));
      return "waiting";
    }
  }
  await releaseHold(db, hold.id, now);
  return "released";
}

/**
 * The shopper left the payment page (/cancel): close the session so it cannot be paid later and
 * give the pieces back now, unless it was paid after all.
 */
export async function cancelCheckout(db: Db, payments: PaymentProvider, orderId: string): Promise<void> {
  const order = await db
    .selectFrom("orders")
    .select(["status", "payment_session_id", "payment_provider"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (order?.status !== "esperando_pago") return;
  if (order.payment_session_id && order.payment_provider === payments.name) {
    const state = await payments.expireSession(order.payment_session_id);
    // Paid, or completed with a delayed method: its confirmation (or the sweeper) settles it.
    if (state.paid || state.status === "complete") return;
  }
  await releaseHold(db, orderId);
}
