import type { PublicShopSettings } from "~/config/env.server";
import type { Db } from "~/db/database.server";
import type { Mailer } from "~/mail/mailer.server";
import type { PaymentProvider } from "~/payments/payments.server";
import { deliverPendingEmails } from "./emails.server";
import { confirmPayment, expiredHolds, releaseHold } from "./orders.server";

/**
 * Settles holds whose time is up. The provider is asked first: a session that was paid (say,
 * while this server was down) is fulfilled; any other is closed and its pieces go back to stock.
 * Safe when several servers sweep at once: each step only acts on an order still waiting.
 */
export async function sweepExpiredHolds(
  db: Db,
  payments: PaymentProvider,
  now = new Date(),
): Promise<{ released: number; paid: number }> {
  let released = 0;
  let paid = 0;
  for (const hold of await expiredHolds(db, now)) {
    if (hold.payment_session_id) {
      const state = await payments.getSession(hold.payment_session_id);
      if (state.paid) {
        await confirmPayment(db, {
          orderId: hold.id,
          customerName: state.customerName,
          customerEmail: state.customerEmail,
          now,
        });
        paid++;
        continue;
      }
      await payments.expireSession(hold.payment_session_id);
    }
    if (await releaseHold(db, hold.id, now)) released++;
  }
  return { released, paid };
}

/**
 * Runs now and then every minute, without keeping the process alive: settles expired holds and
 * sends e-mails still queued (say, after a failed SMTP attempt or a crash).
 */
export function startSweeper(
  deps: { db: Db; payments: PaymentProvider; mailer: Mailer; shop: PublicShopSettings },
  log: (line: string) => void,
): () => void {
  const { db, payments } = deps;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const { released, paid } = await sweepExpiredHolds(db, payments);
      if (released + paid > 0) log(`Apartados vencidos: ${released} liberados, ${paid} pagados.`);
      const mail = await deliverPendingEmails(db, deps.mailer, deps.shop);
      if (mail.failed > 0) log(`Correos: ${mail.sent} enviados, ${mail.failed} fallaron (se reintentará).`);
    } catch (error) {
      console.error("El barrido de apartados falló:", error);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(tick, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The shopper left the payment page (/cancel): close the session so it cannot be paid later and
 * give the pieces back now, unless it was paid after all.
 */
export async function cancelCheckout(db: Db, payments: PaymentProvider, orderId: string): Promise<void> {
  const order = await db
    .selectFrom("orders")
    .select(["status", "payment_session_id"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (order?.status !== "esperando_pago") return;
  if (order.payment_session_id) {
    const state = await payments.getSession(order.payment_session_id);
    if (state.paid) return; // the payment went through; its confirmation will settle the order
    await payments.expireSession(order.payment_session_id);
  }
  await releaseHold(db, orderId);
}
