import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { formatMXN } from "~/lib/money";
import { RETURN_REFUNDED_EMAIL } from "~/mail/kinds";
import { queueEmail, retryDelayMinutes } from "~/mail/queue.server";
import { recordEvent } from "~/orders/desk.server";
import { lineNumbers, releaseLineEditionNumbers } from "~/orders/editions.server";
import { REFUND_IN_PROGRESS, REFUNDED_BY_HAND } from "~/orders/order";
import type { PaymentProvider } from "~/orders/payment-port";
import { putPiecesBack } from "~/orders/pieces-back.server";
import { askForRefund } from "~/orders/refund-call.server";
import {
  ASKING_MS,
  BY_HAND_RECHECK_MS,
  byHandOnly,
  type HandRefundRefusal,
  handRefundCheck,
  IN_PROGRESS_RECHECK_MS,
} from "~/orders/refund-timing";
import type { StockLine } from "~/orders/stock.server";
import { RETURN_MOVES, returnMovableFrom } from "./return-status";

/*
 * A return's pieces arrive (decision 48): the owner says which go back to stock, and their price
 * is refunded through the payment provider — a partial refund of the order's payment, keyed by the
 * return, so a retry, a second click or two app servers never refund twice. The refund is recorded
 * `pendiente` with the move to 'recibida', asked right away and again by the sweep until it is
 * made; only then do the chosen pieces go back to stock and the buyer get her e-mail, once.
 */

/** How long the sweep leaves a refund just asked for by the owner's click. */
const SWEEP_DELAY_MS = 2 * 60_000;

export type ReturnRefundOutcome =
  | "reembolsado"
  | "en_curso"
  | "fallido"
  | "rechazado"
  /** No provider can make it (cash paid at OXXO, another provider): it waits for the owner. */
  | "a_mano"
  | "sin_reembolso";

export type ReceiveResult =
  | { ok: true; outcome: ReturnRefundOutcome }
  | { ok: false; reason: "no_encontrada" | "no_aceptada" }
  /** A count of pieces arrived outside 0…what the line asked to return (its position). */
  | { ok: false; reason: "cantidad_invalida"; position: number }
  /**
   * A numbered line going back to stock holds more numbers than pieces arrived, and the numbers
   * that came back (as many as arrived, among the line's) were not given (its position).
   */
  | { ok: false; reason: "numeros"; position: number }
  /** No piece arrived: nothing to receive yet. */
  | { ok: false; reason: "nada_recibido" };

/** What arrived of a return: pieces by order line (`received`), and the lines whose pieces go back to stock. */
export interface ReceivedPieces {
  /** Pieces that arrived, by order line; a line not named arrived whole. */
  received?: ReadonlyMap<number, number>;
  /** Order lines whose arrived pieces go back to stock (a damaged one stays out). */
  restock: readonly number[];
  /**
   * For a numbered line holding more numbers than pieces arrived, the numbers that came back
   * (the certificates with them), by order line: only those go to the next buyer.
   */
  numbers?: ReadonlyMap<number, readonly number[]>;
}

/**
 * Records that a return's pieces arrived — how many of each line, and the lines whose pieces go
 * back to stock — and the refund owed: the price of the pieces that arrived. Then asks the
 * provider for it.
 */
export async function receiveReturn(
  db: Db,
  payments: PaymentProvider,
  returnId: string,
  pieces: ReceivedPieces,
  now = new Date(),
): Promise<ReceiveResult> {
  type Refused = Exclude<ReceiveResult, { ok: true }>;
  const moved = await db.transaction().execute(async (trx): Promise<"ok" | Refused> => {
    const found = await trx
      .selectFrom("returns as r")
      .innerJoin("orders as o", "o.id", "r.order_id")
      .select(["r.order_id", "r.status", "o.payment_provider"])
      .where("r.id", "=", returnId)
      .executeTakeFirst();
    if (!found) return { ok: false, reason: "no_encontrada" };
    // Received in another tab already: said so before anything about its lines.
    if (!returnMovableFrom("receive").includes(found.status)) return { ok: false, reason: "no_aceptada" };
    const lines = await trx
      .selectFrom("return_lines")
      .select(["position", "quantity", "unit_price_cents"])
      .where("return_id", "=", returnId)
      .orderBy("position")
      .execute();
    const arrived = lines.map((l) => ({ ...l, received: pieces.received?.get(l.position) ?? l.quantity }));
    const wrong = arrived.find(
      (l) => !Number.isInteger(l.received) || l.received < 0 || l.received > l.quantity,
    );
    if (wrong) return { ok: false, reason: "cantidad_invalida", position: wrong.position };
    if (!arrived.some((l) => l.received > 0)) return { ok: false, reason: "nada_recibido" };
    const back = new Set(pieces.restock);
    // Which certificates came back, where the line holds more numbers than pieces arrived.
    const held = await lineNumbers(trx, [found.order_id]);
    const chosen = new Map<number, number[]>();
    for (const line of arrived) {
      const numbers = held.get(`${found.order_id}:${line.position}`) ?? [];
      if (!back.has(line.position) || line.received === 0 || numbers.length <= line.received) continue;
      const given = [...new Set(pieces.numbers?.get(line.position) ?? [])];
      if (given.length !== line.received || !given.every((n) => numbers.includes(n)))
        return { ok: false, reason: "numeros", position: line.position };
      chosen.set(line.position, given);
    }
    const stamp = toTimestamp(now);
    const result = await trx
      .updateTable("returns")
      .set({
        status: RETURN_MOVES.receive.to,
        received_at: stamp,
        updated_at: stamp,
        // The price of what arrived; the pieces that did not are not refunded.
        refund_cents: arrived.reduce((sum, l) => sum + l.received * l.unit_price_cents, 0),
        refund_status: "pendiente",
        provider: found.payment_provider,
        // The owner's own click asks the provider now: the sweep leaves it a while, never asking at once.
        next_attempt_at: toTimestamp(new Date(now.getTime() + SWEEP_DELAY_MS)),
      })
      .where("id", "=", returnId)
      .where("status", "in", returnMovableFrom("receive"))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return { ok: false, reason: "no_aceptada" };
    for (const line of arrived) {
      const numbers = chosen.get(line.position);
      await trx
        .updateTable("return_lines")
        .set({
          restock: back.has(line.position) && line.received > 0 ? 1 : 0,
          received: line.received,
          numbers: numbers ? JSON.stringify(numbers) : null,
        })
        .where("return_id", "=", returnId)
        .where("position", "=", line.position)
        .execute();
    }
    await recordEvent(
      trx,
      found.order_id,
      "devolucion_recibida",
      `${returnId}: ${receivedSummary(arrived, back)}`,
      now,
    );
    return "ok";
  });
  if (moved !== "ok") return moved;
  return { ok: true, outcome: await refundReturn(db, payments, returnId, now) };
}

/** The order's timeline line for what arrived: pieces against those asked, and what goes back to stock. */
export function receivedSummary(
  lines: readonly { position: number; quantity: number; received: number }[],
  restock: ReadonlySet<number>,
): string {
  const asked = lines.reduce((sum, l) => sum + l.quantity, 0);
  const came = lines.reduce((sum, l) => sum + l.received, 0);
  const back = lines
    .filter((l) => l.received > 0 && restock.has(l.position))
    .reduce((sum, l) => sum + l.received, 0);
  const arrived =
    came === asked
      ? asked === 1
        ? "llegó la pieza"
        : `llegaron las ${asked} piezas`
      : `${came === 1 ? "llegó" : "llegaron"} ${came} de ${asked} piezas`;
  // Back on the shelf only once the refund is made (made(), below).
  const restocked =
    back === 0
      ? "ninguna vuelve al inventario"
      : `${back === came ? (came === 1 ? "vuelve" : "todas vuelven") : back === 1 ? "1 vuelve" : `${back} vuelven`} al inventario al hacerse el reembolso`;
  return `${arrived}; ${restocked}`;
}

/** Asks the provider for a received return's refund, once more. Never throws for the provider's failures. */
export async function refundReturn(
  db: Db,
  payments: PaymentProvider,
  returnId: string,
  now = new Date(),
): Promise<ReturnRefundOutcome> {
  const found = await db
    .selectFrom("returns as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .select([
      "r.order_id",
      "r.refund_status",
      "r.refund_cents",
      "r.currency",
      "r.provider",
      "r.provider_refund_id",
      "r.refund_attempts",
      "o.payment_session_id",
      "o.payment_id",
      "o.payment_method",
    ])
    .where("r.id", "=", returnId)
    .executeTakeFirst();
  if (!found || found.refund_status === null) return "sin_reembolso";
  if (found.refund_status === "hecho") return "reembolsado";
  const attempt = { returnId, attempts: found.refund_attempts, now };
  const byHand = byHandOnly(
    { provider: found.provider ?? payments.name, paymentMethod: found.payment_method },
    payments.name,
  );
  // Nothing to give back is made at once, whoever took the payment (below).
  if (byHand && found.refund_cents > 0) {
    await failed(db, attempt, byHand, undefined, BY_HAND_RECHECK_MS);
    return "a_mano";
  }
  // Nothing to give back (pieces that cost nothing): made at once, no call to the provider.
  const answer =
    found.refund_cents === 0
      ? ({ kind: "hecho", refundId: "sin-importe" } as const)
      : await askForRefund(payments, found.provider_refund_id, {
          orderId: found.order_id,
          sessionId: found.payment_session_id,
          paymentId: found.payment_id,
          amountCents: found.refund_cents,
          currency: found.currency,
          key: `devolucion-${returnId}`,
        });
  switch (answer.kind) {
    case "hecho":
      await made(db, returnId, answer.refundId, now);
      return "reembolsado";
    case "en_curso":
      await db
        .updateTable("returns")
        .set({
          provider_refund_id: answer.refundId,
          refund_attempts: found.refund_attempts + 1,
          refund_error: REFUND_IN_PROGRESS,
          next_attempt_at: toTimestamp(new Date(now.getTime() + IN_PROGRESS_RECHECK_MS)),
        })
        .where("id", "=", returnId)
        .where("refund_status", "=", "pendiente")
        .execute();
      return "en_curso";
    case "sin_respuesta":
      await failed(db, attempt, answer.error);
      return "fallido";
    case "rechazado":
      await failed(db, attempt, answer.error, answer.refundId);
      return "rechazado";
  }
}

export type HandRefundOutcome = "reembolsado" | "sin_reembolso" | HandRefundRefusal;

/**
 * The owner refunded it herself (at the provider's dashboard, or the order was paid through a
 * provider the shop no longer uses): recorded as made, with the pieces she chose back and the
 * buyer's e-mail, like a refund the provider made. Only a received return whose refund is pending,
 * and, as for a cancellation's (orders/refunds.server.ts), neither one the provider has in hand
 * (`en_curso`: it may still make it) nor one being asked for now or about to be (`se_pide_ahora`):
 * the money would go twice.
 */
export async function markReturnRefundedByHand(
  db: Db,
  returnId: string,
  now = new Date(),
): Promise<HandRefundOutcome> {
  const found = await db
    .selectFrom("returns")
    .select(["refund_status", "refund_error", "next_attempt_at"])
    .where("id", "=", returnId)
    .executeTakeFirst();
  if (!found || found.refund_status === null) return "sin_reembolso";
  if (found.refund_status === "hecho") return "reembolsado";
  const check = handRefundCheck(
    {
      lastError: found.refund_error,
      nextAttemptAt: found.next_attempt_at ? toDate(found.next_attempt_at) : null,
    },
    now,
  );
  if (!check.ok) return check.reason;
  // The same condition again in the move itself: a sweep that claimed it meanwhile wins.
  return (await made(db, returnId, REFUNDED_BY_HAND, now, check.quietUntil))
    ? "reembolsado"
    : "se_pide_ahora";
}

/**
 * Made: recorded once; the chosen pieces back on the shelf, their numbers freed; the buyer told.
 * By hand (`quietUntil`), only if the provider is not asked for it before then. False when another
 * move came first.
 */
async function made(
  db: Db,
  returnId: string,
  refundId: string,
  now: Date,
  quietUntil?: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const stamp = toTimestamp(now);
    let claim = trx
      .updateTable("returns")
      .set({
        status: RETURN_MOVES.refunded.to,
        refund_status: "hecho",
        provider_refund_id: refundId,
        refunded_at: stamp,
        updated_at: stamp,
        refund_error: null,
        next_attempt_at: null,
      })
      .where("id", "=", returnId)
      .where("refund_status", "=", "pendiente")
      .where("status", "in", returnMovableFrom("refunded"));
    // By hand: only while the provider is not asked before then, nor has a refund of its own under way.
    if (quietUntil)
      claim = claim
        .where("next_attempt_at", ">", toTimestamp(quietUntil))
        .where((eb) => eb.or([eb("refund_error", "is", null), eb("refund_error", "!=", REFUND_IN_PROGRESS)]));
    const done = await claim.executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return false; // another server recorded it first
    const info = await trx
      .selectFrom("returns as r")
      .innerJoin("orders as o", "o.id", "r.order_id")
      .select(["r.order_id", "r.refund_cents", "o.customer_email"])
      .where("r.id", "=", returnId)
      .executeTakeFirstOrThrow();
    const lines = await trx
      .selectFrom("return_lines as l")
      .innerJoin("order_lines as ol", (j) =>
        j.on("ol.order_id", "=", info.order_id).onRef("ol.position", "=", "l.position"),
      )
      .select(["l.position", "l.quantity", "l.received", "l.numbers", "ol.product_id", "ol.option_id"])
      .where("l.return_id", "=", returnId)
      .where("l.restock", "=", 1)
      .execute();
    // The pieces that arrived, of the lines the owner put back.
    const arrived = lines.map((l) => ({ ...l, back: l.received ?? l.quantity })).filter((l) => l.back > 0);
    const back: StockLine[] = arrived.map((l) => ({
      productId: l.product_id,
      optionId: l.option_id,
      quantity: l.back,
    }));
    const onSale = new Set(await putPiecesBack(trx, back, `devolucion:${returnId}`, now));
    // A numbered piece back on the shelf frees its number for the next buyer (the highest ones);
    // one with no shelf left to take it (its size removed since) keeps it.
    for (const [i, line] of arrived.entries())
      if (onSale.has(back[i] as StockLine))
        await releaseLineEditionNumbers(
          trx,
          info.order_id,
          line.position,
          line.back,
          line.numbers ? (JSON.parse(line.numbers) as number[]) : undefined,
        );
    await recordEvent(
      trx,
      info.order_id,
      "devolucion_reembolsada",
      `${returnId}: ${formatMXN(info.refund_cents)}${refundId === REFUNDED_BY_HAND ? ", reembolsado a mano por la tienda" : ""}`,
      now,
    );
    await queueEmail(trx, {
      kind: RETURN_REFUNDED_EMAIL,
      recipient: info.customer_email,
      orderId: info.order_id,
      dedupeKey: `${RETURN_REFUNDED_EMAIL}:${returnId}`,
      payload: { returnId },
      now,
    });
    return true;
  });
}

async function failed(
  db: Db,
  attempt: { returnId: string; attempts: number; now: Date },
  error: string,
  failedRefundId?: string | null,
  /** When to look again: by default, the retry delay after this many attempts. */
  afterMs = retryDelayMinutes(attempt.attempts + 1) * 60_000,
) {
  const next = new Date(attempt.now.getTime() + afterMs);
  await db
    .updateTable("returns")
    .set({
      refund_attempts: attempt.attempts + 1,
      refund_error: error.slice(0, 500),
      next_attempt_at: toTimestamp(next),
      ...(failedRefundId ? { provider_refund_id: failedRefundId } : {}),
    })
    .where("id", "=", attempt.returnId)
    .where("refund_status", "=", "pendiente")
    .execute();
}

/**
 * Holds a pending refund for a call to the provider (its next attempt moved ASKING_MS on): another
 * server's sweep leaves it, and the owner cannot record it as made by hand meanwhile. `due`: only
 * one whose next attempt has come (the sweep). False when there is none to hold.
 */
export async function claimForAsking(
  db: Db,
  returnId: string,
  now: Date,
  options: { due?: boolean } = {},
): Promise<boolean> {
  let claim = db
    .updateTable("returns")
    .set({ next_attempt_at: toTimestamp(new Date(now.getTime() + ASKING_MS)) })
    .where("id", "=", returnId)
    .where("refund_status", "=", "pendiente");
  if (options.due)
    claim = claim.where((eb) =>
      eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", toTimestamp(now))]),
    );
  return Number((await claim.executeTakeFirst()).numUpdatedRows) === 1;
}

/** Return refunds still to make whose next attempt is due: the sweep asks the provider again. */
export async function retryReturnRefunds(
  db: Db,
  payments: PaymentProvider,
  now = new Date(),
): Promise<{ refunded: number; failed: number; inProgress: number }> {
  const due = await db
    .selectFrom("returns")
    .select("id")
    .where("refund_status", "=", "pendiente")
    .where((eb) => eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", toTimestamp(now))]))
    .orderBy("received_at")
    .limit(50)
    .execute();
  const counts = { refunded: 0, failed: 0, inProgress: 0 };
  for (const { id } of due) {
    if (!(await claimForAsking(db, id, now, { due: true }))) continue;
    const outcome = await refundReturn(db, payments, id, now);
    if (outcome === "reembolsado") counts.refunded++;
    else if (outcome === "en_curso") counts.inProgress++;
    else counts.failed++;
  }
  return counts;
}
