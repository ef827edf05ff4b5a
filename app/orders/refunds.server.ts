import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { CANCELLATION_EMAIL } from "~/mail/kinds";
import { queueEmail, retryDelayMinutes } from "~/mail/queue.server";
import { recordEvent } from "./desk.server";
import { releaseEditionNumbers } from "./editions.server";
import { REFUND_IN_PROGRESS, REFUNDED_BY_HAND } from "./order";
import type { PaymentProvider } from "./payment-port";
import { putPiecesBack } from "./pieces-back.server";
import { askForRefund } from "./refund-call.server";
import {
  ASKING_MS,
  BY_HAND_RECHECK_MS,
  byHandOnly,
  type HandRefundRefusal,
  handRefundCheck,
  IN_PROGRESS_RECHECK_MS,
} from "./refund-timing";
import { movableFrom, ORDER_MOVES } from "./status";
import { heldByOrder } from "./stock.server";

/*
 * Refunds (decision 29). An order cancelled over the per-person limit records its refund in the
 * payment's transaction (`pendiente`); the provider is asked right after, and again by the sweep
 * until it makes it. The provider's idempotency key is the order, and the record moves to `hecho`
 * with a conditional update: a retry, a replayed webhook or two app servers never refund twice,
 * and the buyer's e-mail (that the refund was made) is queued once, with that move.
 *
 * A refund the provider accepted but has not finished (Stripe's `pending`: some take days) is not
 * taken as made: its id is kept, the record stays `pendiente`, and the sweep asks how it stands
 * until it is made (then `hecho`, and the e-mail) or failed (then a new refund is asked, keyed by
 * the failed one, so it is a new request and its own retries are not).
 */

export type RefundOutcome =
  /** The provider made the refund (now, or before: this call found it done). */
  | "reembolsado"
  /** No answer from the provider (network, its fault): recorded, retried later, shown on the desk. */
  | "fallido"
  /** The provider answered that it did not make it: recorded, retried later, shown on the desk. */
  | "rechazado"
  /** The provider accepted it and has not finished it: asked again later, no e-mail yet. */
  | "en_curso"
  /** Nothing to refund for this order. */
  | "sin_reembolso"
  /**
   * No provider can make it (cash paid at OXXO, or another provider than the one running now):
   * nothing asked; it waits for the owner's 'Ya lo reembolsé a mano', its reason on the desk.
   */
  | "a_mano";

/** Asks the provider for an order's pending refund. Never throws for the provider's failures. */
export async function refundOrder(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
  now = new Date(),
): Promise<RefundOutcome> {
  const refund = await db
    .selectFrom("refunds as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select([
      "r.status",
      "r.provider",
      "r.amount_cents",
      "r.currency",
      "r.attempts",
      "r.provider_refund_id",
      "r.restock_when_made",
      "r.created_at",
      "o.payment_session_id",
      "o.payment_id",
      "o.customer_email",
      "o.payment_method",
    ])
    .where("r.order_id", "=", orderId)
    .executeTakeFirst();
  if (!refund) return "sin_reembolso";
  if (refund.status === "hecho") return "reembolsado";
  // A refund no provider can make is the owner's: a cancellation goes ahead all the same (she
  // gives the money back herself), and the sweep does not ask anyone for it.
  const byHand = byHandOnly(
    { provider: refund.provider, paymentMethod: refund.payment_method },
    payments.name,
  );
  if (byHand) {
    await failed(db, orderId, refund.attempts, byHand, now, undefined, BY_HAND_RECHECK_MS);
    return "a_mano";
  }
  // A cancellation by the shop (decision 37) the provider refuses goes back.
  const byShop = refund.restock_when_made === 1;
  const answer = await askForRefund(payments, refund.provider_refund_id, {
    orderId,
    sessionId: refund.payment_session_id,
    paymentId: refund.payment_id,
    amountCents: refund.amount_cents,
    currency: refund.currency,
    // Each cancellation by the shop is its own request: one refused before never answers again.
    ...(byShop ? { key: `cancelacion-${orderId}-${stampOf(refund.created_at)}` } : {}),
  });
  switch (answer.kind) {
    case "hecho":
      return made(db, orderId, answer.refundId, refund, now);
    case "en_curso":
      return inProgress(db, orderId, answer.refundId, refund.attempts, now);
    case "sin_respuesta":
      await failed(db, orderId, refund.attempts, answer.error, now);
      return "fallido";
    case "rechazado":
      // The provider said no to the shop's own cancellation: the order goes back as it was, in one
      // transaction (a sweep never finds it half undone), its pieces never having left it.
      if (byShop) {
        await undoShopCancellation(db, orderId, answer.error, now);
        return "rechazado";
      }
      // The provider named the refund it did not make: the next try is a new one after it.
      await failed(db, orderId, refund.attempts, answer.error, now, answer.refundId ?? undefined);
      return "rechazado";
  }
}

/** A stored moment as a compact key part: digits only. */
function stampOf(value: Date | string): string {
  return (value instanceof Date ? value.toISOString() : value).replace(/\D/g, "").slice(0, 17);
}

/**
 * A cancellation by the shop whose refund the provider refused (or cannot make): the order goes
 * back to 'Pendiente' as it was, its refund record removed, the refusal on its timeline. Only
 * while the refund is still pending: one made meanwhile (another server) is never undone.
 */
export async function undoShopCancellation(
  db: Db,
  orderId: string,
  why: string,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom("refunds")
      .where("order_id", "=", orderId)
      .where("status", "=", "pendiente")
      .where("restock_when_made", "=", 1)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1) return false;
    await trx
      .updateTable("orders")
      .set({ status: ORDER_MOVES.refundRefused.to, updated_at: toTimestamp(now) })
      .where("id", "=", orderId)
      .where("status", "in", movableFrom("refundRefused"))
      .execute();
    await recordEvent(trx, orderId, "reembolso_rechazado", why.slice(0, 500), now);
    return true;
  });
}

/**
 * The refund is made: `hecho`, once, with the buyer's e-mail in the same transaction, and, for a
 * cancellation by the shop, its pieces back on the shelf (only now: a refund refused leaves the
 * order as it was, pieces and all).
 */
async function made(
  db: Db,
  orderId: string,
  refundId: string,
  refund: { attempts: number; customer_email: string; restock_when_made: number },
  now: Date,
  /**
   * The owner's own refund: recorded only if the provider is not asked for it until `quietUntil`
   * (the sweep's claim) and has none under way, with `also` in the same transaction.
   */
  byHand?: { quietUntil: Date; also: (trx: Db) => Promise<void> },
): Promise<RefundOutcome> {
  let moved = false;
  await db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable("refunds")
      .set({
        status: "hecho",
        provider_refund_id: refundId,
        refunded_at: toTimestamp(now),
        attempts: refund.attempts + 1,
        last_error: null,
        next_attempt_at: null,
        restock_when_made: 0,
      })
      .where("order_id", "=", orderId)
      .where("status", "=", "pendiente")
      .$if(byHand !== undefined, (q) =>
        q
          .where("next_attempt_at", ">", toTimestamp(byHand?.quietUntil ?? now))
          .where((eb) => eb.or([eb("last_error", "is", null), eb("last_error", "<>", REFUND_IN_PROGRESS)])),
      )
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return; // another server recorded it first
    moved = true;
    await byHand?.also(trx);
    if (refund.restock_when_made) {
      const back = await putPiecesBack(trx, await heldByOrder(trx, orderId), `cancelacion:${orderId}`, now);
      // Its numbered pieces back on the shelf: their numbers go with them to the next buyer (not
      // those of a piece with no shelf left to take it, which is not for sale).
      await releaseEditionNumbers(
        trx,
        orderId,
        back.map((line) => line.productId),
      );
    }
    await queueEmail(trx, {
      kind: CANCELLATION_EMAIL,
      recipient: refund.customer_email,
      orderId,
      dedupeKey: `${CANCELLATION_EMAIL}:${orderId}`,
      now,
    });
  });
  // Made here or by another server first: made either way; the owner's own needs it here.
  return byHand && !moved ? "sin_reembolso" : "reembolsado";
}

/**
 * The owner refunded a cancelled order herself (from the provider's panel, or by transfer for a
 * cash voucher, which the provider cannot refund): its refund is recorded as made, with the buyer's
 * e-mail, as the provider's would be. Only for a refund the provider did not make and is not asked
 * for now: one in the provider's hands may still be made there, and one due is being asked (the
 * sweep), so the money would go twice.
 */
export async function refundedByHand(
  db: Db,
  orderId: string,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; reason: "sin_reembolso" | HandRefundRefusal }> {
  const refund = await db
    .selectFrom("refunds as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select([
      "r.status",
      "r.attempts",
      "r.last_error",
      "r.next_attempt_at",
      "r.restock_when_made",
      "o.customer_email",
    ])
    .where("r.order_id", "=", orderId)
    .executeTakeFirst();
  if (refund?.status !== "pendiente" || refund.attempts === 0) return { ok: false, reason: "sin_reembolso" };
  const check = handRefundCheck(
    {
      lastError: refund.last_error,
      nextAttemptAt: refund.next_attempt_at ? toDate(refund.next_attempt_at) : null,
    },
    now,
  );
  if (!check.ok) return check;
  // The same conditions again in the move itself: a sweep that claimed it meanwhile wins.
  const outcome = await made(db, orderId, REFUNDED_BY_HAND, refund, now, {
    quietUntil: check.quietUntil,
    also: (trx) => recordEvent(trx, orderId, "reembolso_a_mano", "Reembolso registrado por la tienda", now),
  });
  return outcome === "reembolsado" ? { ok: true } : { ok: false, reason: "se_pide_ahora" };
}

/** Accepted, not finished: its id kept, asked again in a while; still `pendiente`, no e-mail yet. */
async function inProgress(
  db: Db,
  orderId: string,
  refundId: string,
  attempts: number,
  now: Date,
): Promise<RefundOutcome> {
  await db
    .updateTable("refunds")
    .set({
      provider_refund_id: refundId,
      attempts: attempts + 1,
      last_error: REFUND_IN_PROGRESS,
      next_attempt_at: toTimestamp(new Date(now.getTime() + IN_PROGRESS_RECHECK_MS)),
    })
    .where("order_id", "=", orderId)
    .where("status", "=", "pendiente")
    .execute();
  return "en_curso";
}

async function failed(
  db: Db,
  orderId: string,
  attempts: number,
  error: string,
  now: Date,
  failedRefundId?: string,
  /** When to look again: by default, the retry delay after this many attempts. */
  afterMs = retryDelayMinutes(attempts + 1) * 60_000,
) {
  const next = new Date(now.getTime() + afterMs);
  await db
    .updateTable("refunds")
    .set({
      attempts: attempts + 1,
      last_error: error.slice(0, 500),
      next_attempt_at: toTimestamp(next),
      ...(failedRefundId ? { provider_refund_id: failedRefundId } : {}),
    })
    .where("order_id", "=", orderId)
    .where("status", "=", "pendiente")
    .execute();
}

/** Refunds still to make whose next attempt is due: the sweep asks the provider again. */
export async function retryPendingRefunds(
  db: Db,
  payments: PaymentProvider,
  now = new Date(),
): Promise<{ refunded: number; failed: number; inProgress: number }> {
  const due = await db
    .selectFrom("refunds")
    .select("order_id")
    .where("status", "=", "pendiente")
    .where((eb) => eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", toTimestamp(now))]))
    .orderBy("created_at")
    .limit(50)
    .execute();
  const counts = { refunded: 0, failed: 0, inProgress: 0 };
  for (const { order_id } of due) {
    // Claimed for the call (its next attempt moved to a little later): another server's sweep
    // leaves it, and the owner cannot record it as refunded by hand while it is being asked.
    const claimed = await db
      .updateTable("refunds")
      .set({ next_attempt_at: toTimestamp(new Date(now.getTime() + ASKING_MS)) })
      .where("order_id", "=", order_id)
      .where("status", "=", "pendiente")
      .where((eb) =>
        eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", toTimestamp(now))]),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const outcome = await refundOrder(db, payments, order_id, now);
    if (outcome === "reembolsado") counts.refunded++;
    else if (outcome === "en_curso") counts.inProgress++;
    else counts.failed++;
  }
  return counts;
}
