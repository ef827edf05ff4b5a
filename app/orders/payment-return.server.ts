import type { Db } from "~/db/database.server";
import type { PaymentProvider } from "./payment-port";
import { settlePaidSession } from "./settle-payment.server";
import { recordVoucher } from "./voucher-limit.server";

/*
 * The buyer is back from the payment page, usually before the provider's event reaches the shop.
 * The provider is asked how the payment stands, and what it says is settled now, as its event
 * would settle it (the event, arriving later, finds it done): a card paid confirms the order (its
 * shipping, the e-mail to her), a voucher given is recorded. So the page shows her the total she
 * paid and her order's page at once. A provider that does not answer leaves it to its event.
 */

export type CaughtUp = "pagado" | "ficha" | null;

export async function catchUpWithProvider(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
  now = new Date(),
): Promise<CaughtUp> {
  const order = await db
    .selectFrom("orders")
    .select(["status", "payment_session_id", "payment_provider", "voucher_reference"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (order?.status !== "esperando_pago" || order.voucher_reference !== null) return null;
  if (!order.payment_session_id || order.payment_provider !== payments.name) return null;
  const state = await payments.getSession(order.payment_session_id);
  if (state.paid) {
    const { outcome } = await settlePaidSession(db, payments, orderId, state, now);
    return outcome === "already_paid" || outcome === "unknown_order" ? null : "pagado";
  }
  if (state.status !== "complete" || !state.voucher) return null;
  // Over a drop's per-person limit it is cancelled at once: the page then says so, not how to pay.
  await recordVoucher(db, payments, orderId, state.voucher, state, now);
  return "ficha";
}
