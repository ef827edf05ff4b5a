import { log } from "~/config/log.server";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { errorLine } from "~/lib/errors";
import { VOUCHER_CANCELLED_EMAIL } from "~/mail/kinds";
import { queueEmail, retryDelayMinutes } from "~/mail/queue.server";
import { recordEvent } from "./desk.server";
import type { Voucher } from "./order";
import type { PaymentProvider, VoucherCancelAnswer } from "./payment-port";
import { putPiecesBack } from "./pieces-back.server";
import { ASKING_MS } from "./refund-timing";
import { movableFrom } from "./status";
import { heldByOrder } from "./stock.server";
import {
  awaitVoucher,
  queueVoucherEmail,
  type VoucherBuyer,
  type VoucherOutcome,
} from "./voucher-wait.server";

/*
 * A voucher (OXXO cash, SPEI transfer) given to a buyer already at a drop's 'Máximo N por persona'
 * (decisions 29 and 42). Left alone it held its pieces for days and, paid in cash, was cancelled
 * at payment with money no provider can give back (OXXO): the owner refunded it by hand. Now it is
 * counted when it is recorded, as if it were kept (voucher-wait.server.ts), and over the limit:
 *
 * 1. its payment is cancelled at the provider, so it can no longer be paid;
 * 2. then, in one transaction, its order is cancelled (`cancelVoucherOverLimit`), its pieces go
 *    back to stock (and to the line), the reason goes on its timeline and the buyer is told that
 *    nothing was charged (no refund: no money was taken).
 *
 * A provider that does not answer changes nothing in silence: the voucher stays as any other (held
 * until it expires, its e-mail sent; the payment's own check still stands if she pays it) and the
 * sweep asks again, as refunds are asked (5, 5, 5, 8, 16 … minutes apart). A provider that says it
 * was paid meanwhile is not cancelled: the payment's path settles it. A paid order is never
 * cancelled here (the move starts from `esperando_pago` only).
 */

/** What recording a voucher came to: as awaitVoucher's, or `cancelada` (over the limit, cancelled now). */
export type RecordedVoucher = VoucherOutcome | "cancelada";

/**
 * Records the voucher given for an order (the webhook, the sweeper, the return page, the demo
 * page); one over the per-person limit is cancelled at once, at the provider and then here.
 * `sobre_el_limite`: over it, but the provider did not answer yet (the sweep asks again).
 */
export async function recordVoucher(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
  voucher: Voucher,
  buyer: VoucherBuyer,
  now = new Date(),
): Promise<RecordedVoucher> {
  const outcome = await awaitVoucher(db, orderId, voucher, buyer, now);
  if (outcome !== "sobre_el_limite") return outcome;
  return (await cancelVoucherOverLimit(db, payments, orderId, now)) === "cancelada" ? "cancelada" : outcome;
}

/** What asking for a voucher's cancellation did. */
export type VoucherCancelOutcome =
  /** The provider cancelled its payment; the order is cancelled, its pieces back, the buyer told. */
  | "cancelada"
  /** No answer (or a refusal it did not explain): the voucher waits as before, asked again later. */
  | "sin_respuesta"
  /** Paid meanwhile: left to the payment's path. */
  | "pagada"
  /** Nothing to ask: none pending, or the order no longer waits for its voucher. */
  | "resuelta";

/** Asks the provider to cancel a pending voucher over the limit, and cancels its order once it did. */
export async function cancelVoucherOverLimit(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
  now = new Date(),
): Promise<VoucherCancelOutcome> {
  const pending = await db
    .selectFrom("voucher_cancellations as c")
    .innerJoin("orders as o", "o.id", "c.order_id")
    .select([
      "c.status",
      "c.reason",
      "c.attempts",
      "o.status as order_status",
      "o.payment_session_id",
      "o.payment_id",
      "o.payment_provider",
      "o.customer_email",
      "o.expires_at",
      "o.voucher_expires_at",
    ])
    .where("c.order_id", "=", orderId)
    .executeTakeFirst();
  if (pending?.status !== "pendiente") return "resuelta";
  // A hold released before the provider answered (a drop's first hours extend no hold) leaves a
  // voucher still payable at the provider, and a late payment revives an expired order: it is
  // still asked to cancel until the voucher itself lapses.
  const voucherLive =
    pending.voucher_expires_at !== null && toDate(pending.voucher_expires_at).getTime() > now.getTime();
  const payable =
    pending.order_status === "esperando_pago" || (pending.order_status === "expirado" && voucherLive);
  // Paid or cancelled meanwhile, or its voucher lapsed; or taken by a provider the shop no longer
  // runs, which cannot be asked: the voucher's own path (its payment, its expiry) settles it.
  if (!payable || pending.payment_provider !== payments.name) {
    await forget(db, orderId);
    return "resuelta";
  }
  let answer: VoucherCancelAnswer;
  try {
    answer = await payments.cancelVoucher({
      sessionId: pending.payment_session_id,
      paymentId: pending.payment_id,
    });
  } catch (error) {
    const line = errorLine(error);
    log.error({ orderId, error: line }, "No se pudo cancelar la ficha que pasa del máximo por persona");
    await askAgainLater(db, orderId, pending.attempts, line, now);
    // Nothing cancelled: the voucher is as any other meanwhile, its e-mail too (held to its end).
    const held =
      pending.voucher_expires_at !== null &&
      toDate(pending.expires_at).getTime() >= toDate(pending.voucher_expires_at).getTime();
    if (held) await queueVoucherEmail(db, orderId, pending.customer_email, now);
    return "sin_respuesta";
  }
  if (answer === "pagada") {
    log.warn({ orderId }, "Ficha sobre el máximo por persona pagada antes de cancelarla: la decide su pago");
    await forget(db, orderId);
    return "pagada";
  }
  return (await cancelOrder(db, orderId, pending.reason, now)) ? "cancelada" : "resuelta";
}

/**
 * The provider cancelled the voucher's payment: its order is cancelled (only while it still waits
 * for it), its pieces back on the shelf, the reason on its timeline and the buyer's e-mail queued,
 * all at once.
 */
async function cancelOrder(db: Db, orderId: string, reason: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Claimed with an update that changes nothing (PostgreSQL locks the row to the commit; SQLite
    // holds the write lock), so the status read next is the one moved from: a hold released
    // meanwhile gave its pieces back already, and they must not come back twice.
    const claimed = await trx
      .updateTable("orders")
      .set((eb) => ({ status: eb.ref("status") }))
      .where("id", "=", orderId)
      .where("status", "in", movableFrom("cancelVoucherOverLimit"))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      await forget(trx, orderId);
      return false;
    }
    const { status: before } = await trx
      .selectFrom("orders")
      .select("status")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("orders")
      .set({ status: "cancelado", updated_at: toTimestamp(now) })
      .where("id", "=", orderId)
      .execute();
    if (before === "esperando_pago") {
      await putPiecesBack(trx, await heldByOrder(trx, orderId), `cancelacion:${orderId}`, now);
    }
    await trx
      .updateTable("voucher_cancellations")
      .set((eb) => ({
        status: "hecho",
        cancelled_at: toTimestamp(now),
        attempts: eb("attempts", "+", 1),
        last_error: null,
        next_attempt_at: null,
      }))
      .where("order_id", "=", orderId)
      .where("status", "=", "pendiente")
      .execute();
    await recordEvent(trx, orderId, "ficha_cancelada", reason, now);
    const order = await trx
      .selectFrom("orders")
      .select("customer_email")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    if (order.customer_email) {
      await queueEmail(trx, {
        kind: VOUCHER_CANCELLED_EMAIL,
        recipient: order.customer_email,
        orderId,
        dedupeKey: `${VOUCHER_CANCELLED_EMAIL}:${orderId}`,
        now,
      });
    }
    return true;
  });
}

/** Nothing to cancel after all: the pending record goes (the order's own path settles it). */
async function forget(db: Db, orderId: string): Promise<void> {
  await db
    .deleteFrom("voucher_cancellations")
    .where("order_id", "=", orderId)
    .where("status", "=", "pendiente")
    .execute();
}

async function askAgainLater(db: Db, orderId: string, attempts: number, error: string, now: Date) {
  await db
    .updateTable("voucher_cancellations")
    .set({
      attempts: attempts + 1,
      last_error: error.slice(0, 500),
      next_attempt_at: toTimestamp(new Date(now.getTime() + retryDelayMinutes(attempts + 1) * 60_000)),
    })
    .where("order_id", "=", orderId)
    .where("status", "=", "pendiente")
    .execute();
}

/** Vouchers over the limit whose cancellation is due (the provider did not answer before): asked again. */
export async function retryVoucherCancellations(
  db: Db,
  payments: PaymentProvider,
  now = new Date(),
): Promise<{ cancelled: number; failed: number }> {
  const dueAt = toTimestamp(now);
  const rows = await db
    .selectFrom("voucher_cancellations")
    .select("order_id")
    .where("status", "=", "pendiente")
    .where((eb) => eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", dueAt)]))
    .orderBy("created_at")
    .limit(50)
    .execute();
  const counts = { cancelled: 0, failed: 0 };
  for (const { order_id } of rows) {
    // Claimed for the call: another server's sweep leaves it meanwhile.
    const claimed = await db
      .updateTable("voucher_cancellations")
      .set({ next_attempt_at: toTimestamp(new Date(now.getTime() + ASKING_MS)) })
      .where("order_id", "=", order_id)
      .where("status", "=", "pendiente")
      .where((eb) => eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", dueAt)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const outcome = await cancelVoucherOverLimit(db, payments, order_id, now);
    if (outcome === "cancelada") counts.cancelled++;
    else if (outcome === "sin_respuesta") counts.failed++;
  }
  return counts;
}
