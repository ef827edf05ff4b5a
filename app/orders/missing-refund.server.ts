import type { Updateable } from "kysely";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import type { OrdersTable } from "~/db/schema";
import { formatMXN } from "~/lib/money";
import { retryDelayMinutes } from "~/mail/queue.server";
import { recordEvent } from "./desk.server";
import { missingCents, REFUND_IN_PROGRESS, REFUNDED_BY_HAND } from "./order";
import type { PaymentProvider } from "./payment-port";
import { getOrder } from "./queries.server";
import { askForRefund } from "./refund-call.server";
import {
  ASKING_MS,
  byHandOnly,
  type HandRefundRefusal,
  handRefundCheck,
  IN_PROGRESS_RECHECK_MS,
} from "./refund-timing";
import { DESK_TABS } from "./status";

/*
 * The pieces a late payment found gone, on an order that still sent the others (decision 37,
 * 'Sold out at payment'). Their price goes back through the payment provider: a partial refund of
 * the order's payment, recorded with the payment (`missing_refund_status`), asked right after it
 * and again by the refunds job until the provider makes it, keyed by the order so a retry never
 * refunds twice. Where no provider can (cash paid at OXXO, a provider the shop no longer runs), or
 * for an order paid before this, the owner gives it back by hand and records that she did, once.
 * The buyer's page and e-mails then say the money was given back, and Reportes stop counting it
 * as owed.
 */

export type MissingRefundOutcome = "reembolsado" | "en_curso" | "fallido" | "a_mano" | "sin_reembolso";

/** Asks the provider for an order's missing pieces' refund, once more. Never throws for the provider's failures. */
export async function refundMissingPieces(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
  now = new Date(),
): Promise<MissingRefundOutcome> {
  const row = await db
    .selectFrom("orders")
    .select([
      "missing_refund_status",
      "missing_refund_id",
      "missing_refund_attempts",
      "payment_provider",
      "payment_method",
      "payment_session_id",
      "payment_id",
      "currency",
    ])
    .where("id", "=", orderId)
    .executeTakeFirst();
  const order = row?.missing_refund_status === "pendiente" ? await getOrder(db, orderId) : null;
  if (!row || !order) return row?.missing_refund_status === "hecho" ? "reembolsado" : "sin_reembolso";
  const attempts = row.missing_refund_attempts;
  const byHand = byHandOnly(
    { provider: row.payment_provider ?? payments.name, paymentMethod: row.payment_method },
    payments.name,
  );
  if (byHand) {
    // Nobody but the owner can: back to her 'Ya le devolví las piezas faltantes', its reason kept.
    await db
      .updateTable("orders")
      .set({ missing_refund_status: null, missing_refund_error: byHand, missing_refund_next_at: null })
      .where("id", "=", orderId)
      .where("missing_refund_status", "=", "pendiente")
      .execute();
    return "a_mano";
  }
  const amountCents = missingCents(order);
  const answer =
    amountCents === 0
      ? ({ kind: "hecho", refundId: "sin-importe" } as const)
      : await askForRefund(payments, row.missing_refund_id, {
          orderId,
          sessionId: row.payment_session_id,
          paymentId: row.payment_id,
          amountCents,
          currency: row.currency,
          key: `faltantes-${orderId}`,
        });
  const retryAt = (ms: number) => toTimestamp(new Date(now.getTime() + ms));
  const pending = (set: Updateable<OrdersTable>) =>
    db
      .updateTable("orders")
      .set(set)
      .where("id", "=", orderId)
      .where("missing_refund_status", "=", "pendiente")
      .execute();
  switch (answer.kind) {
    case "hecho":
      return (await madeMissingRefund(db, orderId, answer.refundId, now)) ? "reembolsado" : "sin_reembolso";
    case "en_curso":
      await pending({
        missing_refund_id: answer.refundId,
        missing_refund_attempts: attempts + 1,
        missing_refund_error: REFUND_IN_PROGRESS,
        missing_refund_next_at: retryAt(IN_PROGRESS_RECHECK_MS),
      });
      return "en_curso";
    case "sin_respuesta":
    case "rechazado":
      await pending({
        missing_refund_attempts: attempts + 1,
        missing_refund_error: answer.error.slice(0, 500),
        missing_refund_next_at: retryAt(retryDelayMinutes(attempts + 1) * 60_000),
        // The provider named the refund it did not make: the next try is a new one after it.
        ...(answer.kind === "rechazado" && answer.refundId ? { missing_refund_id: answer.refundId } : {}),
      });
      return "fallido";
  }
}

/**
 * Made (by the provider, or by the owner's hand: `quietUntil`, only if the provider is not asked
 * before then nor has one under way): recorded once, with a line on the order's timeline.
 */
async function madeMissingRefund(
  db: Db,
  orderId: string,
  refundId: string,
  now: Date,
  quietUntil?: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let claim = trx
      .updateTable("orders")
      .set({
        missing_refund_status: "hecho",
        missing_refund_id: refundId,
        missing_refund_error: null,
        missing_refund_next_at: null,
        missing_refunded_at: toTimestamp(now),
      })
      .where("id", "=", orderId)
      .where("missing_refund_status", "=", "pendiente");
    if (quietUntil)
      claim = claim
        .where("missing_refund_next_at", ">", toTimestamp(quietUntil))
        .where((eb) =>
          eb.or([
            eb("missing_refund_error", "is", null),
            eb("missing_refund_error", "<>", REFUND_IN_PROGRESS),
          ]),
        );
    const done = await claim.executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return false;
    const order = await getOrder(trx, orderId);
    const how = refundId === REFUNDED_BY_HAND ? "a mano" : "por el proveedor de pagos";
    await recordEvent(
      trx,
      orderId,
      "faltantes_reembolsados",
      `${formatMXN(order ? missingCents(order) : 0)}, ${how}`,
      now,
    );
    return true;
  });
}

/** The refunds job: missing pieces' refunds the provider has not made yet, due now. */
export async function retryMissingRefunds(
  db: Db,
  payments: PaymentProvider,
  now = new Date(),
): Promise<{ refunded: number; failed: number; inProgress: number }> {
  const due = await db
    .selectFrom("orders")
    .select("id")
    .where("missing_refund_status", "=", "pendiente")
    .where((eb) =>
      eb.or([eb("missing_refund_next_at", "is", null), eb("missing_refund_next_at", "<=", toTimestamp(now))]),
    )
    .limit(50)
    .execute();
  const counts = { refunded: 0, failed: 0, inProgress: 0 };
  for (const { id } of due) {
    // Claimed for the call, as a cancellation's refund is (refunds.server.ts).
    const claimed = await db
      .updateTable("orders")
      .set({ missing_refund_next_at: toTimestamp(new Date(now.getTime() + ASKING_MS)) })
      .where("id", "=", id)
      .where("missing_refund_status", "=", "pendiente")
      .where((eb) =>
        eb.or([
          eb("missing_refund_next_at", "is", null),
          eb("missing_refund_next_at", "<=", toTimestamp(now)),
        ]),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const outcome = await refundMissingPieces(db, payments, id, now);
    if (outcome === "reembolsado") counts.refunded++;
    else if (outcome === "en_curso") counts.inProgress++;
    else if (outcome === "fallido") counts.failed++;
  }
  return counts;
}

export type MissingRefundResult =
  | { ok: true; amountCents: number }
  | { ok: false; reason: "no_encontrado" | "sin_faltantes" | "ya_registrado" }
  /** The provider has its refund under way, or is being asked for it now: it would go twice. */
  | { ok: false; reason: HandRefundRefusal }
  /** Cancelled meanwhile (another tab): its refund was the whole total, missing pieces included. */
  | { ok: false; reason: "cancelado"; refundCents: number | null };

export async function recordMissingRefunded(
  db: Db,
  orderId: string,
  now = new Date(),
): Promise<MissingRefundResult> {
  // Asked of the provider: recorded by hand only as a cancellation's refund may be (refund-timing.ts).
  const asked = await db
    .selectFrom("orders")
    .select(["missing_refund_status", "missing_refund_error", "missing_refund_next_at"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (asked?.missing_refund_status === "hecho") return { ok: false, reason: "ya_registrado" };
  if (asked?.missing_refund_status === "pendiente") {
    const check = handRefundCheck(
      {
        lastError: asked.missing_refund_error,
        nextAttemptAt: asked.missing_refund_next_at ? toDate(asked.missing_refund_next_at) : null,
      },
      now,
    );
    if (!check.ok) return { ok: false, reason: check.reason };
    const order = await getOrder(db, orderId);
    if (!(await madeMissingRefund(db, orderId, REFUNDED_BY_HAND, now, check.quietUntil)))
      return { ok: false, reason: "se_pide_ahora" };
    return { ok: true, amountCents: order ? missingCents(order) : 0 };
  }
  return db.transaction().execute(async (trx): Promise<MissingRefundResult> => {
    const order = await getOrder(trx, orderId);
    if (!order) return { ok: false, reason: "no_encontrado" };
    if (order.missingRefundedAt) return { ok: false, reason: "ya_registrado" };
    if (order.status === "cancelado")
      return { ok: false, reason: "cancelado", refundCents: order.cancellation?.amountCents ?? null };
    const kept = (DESK_TABS as readonly string[]).includes(order.status);
    if (!kept || !order.lines.some((l) => l.missing > 0)) return { ok: false, reason: "sin_faltantes" };
    // Once: a second click, or another tab, finds it recorded.
    const marked = await trx
      .updateTable("orders")
      .set({ missing_refunded_at: toTimestamp(now) })
      .where("id", "=", orderId)
      .where("missing_refunded_at", "is", null)
      .where("status", "in", DESK_TABS)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) {
      const current = await getOrder(trx, orderId);
      return current?.status === "cancelado"
        ? { ok: false, reason: "cancelado", refundCents: current.cancellation?.amountCents ?? null }
        : { ok: false, reason: "ya_registrado" };
    }
    const amountCents = missingCents(order);
    await recordEvent(trx, orderId, "faltantes_reembolsados", `${formatMXN(amountCents)}, a mano`, now);
    return { ok: true, amountCents };
  });
}
