import { type Db, toTimestamp } from "~/db/database.server";
import type { OrderStatus } from "~/db/schema";
import { formatMXN } from "~/lib/money";
import { DESK_STATUSES, type DeskRefusal, recordEvent } from "./desk.server";
import { cancellationCents, SHOP_CANCELLATION } from "./order";
import type { PaymentProvider } from "./payment-port";
import { getOrder } from "./queries.server";
import { refundOrder } from "./refunds.server";
import { movableFrom, ORDER_MOVES } from "./status";

/*
 * 'Eliminar pedido' on a paid order (decision 37): never a delete. The order is cancelled and its
 * money given back through the provider that took it; its pieces return to stock once the refund
 * is made, the buyer gets the cancellation e-mail then, and the record stays for the accounts
 * ('Cancelados', the CSV).
 *
 * 1. The order is claimed (pendiente -> cancelado, `cancelByShop`) with its refund recorded, in
 *    one transaction: of two tabs, one claims it, the other is told it changed; a tab shipping it
 *    meanwhile finds it cancelled.
 * 2. The provider is asked (keyed by the order: asked twice, it refunds once).
 * 3. Made (or accepted and under way): done, the rest follows when it is made (refunds.server.ts).
 *    One no provider can make (cash paid at OXXO, a provider the shop no longer runs): the order
 *    stays cancelled, its refund waiting for the owner's 'Ya lo reembolsé a mano'.
 *    Refused by the provider, now or at a later sweep: the order goes back as it was
 *    (`refundRefused`, refunds.server.ts `undoShopCancellation`), nothing returned to stock, and
 *    the owner reads why. No answer at all: the order stays cancelled, its refund pending; the
 *    sweep asks again with the same key (the money may already be on its way back).
 */

/**
 * How long a refund left without an answer waits before the sweep asks again: longer than the
 * provider's slowest answer with its own retries, so the sweep never asks while this one waits.
 */
const RETRY_AFTER_MS = 5 * 60_000;

export type CancelResult =
  | {
      ok: true;
      /**
       * `hecho`: made; `en_curso`: the provider has it (some take days); `pendiente`: no answer yet,
       * retried; `a_mano`: no provider can make it (cash at OXXO, another provider): hers to make.
       */
      refund: "hecho" | "en_curso" | "pendiente" | "a_mano";
      amountCents: number;
    }
  | DeskRefusal
  | { ok: false; reason: "reembolso_rechazado"; status: OrderStatus; message: string };

export async function cancelPaidOrder(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
  now = new Date(),
): Promise<CancelResult> {
  const claimed = await claim(db, orderId, now);
  if (!claimed.ok) return claimed;
  const { amountCents } = claimed;
  const outcome = await refundOrder(db, payments, orderId, now);
  if (outcome === "reembolsado" || outcome === "sin_reembolso")
    return { ok: true, refund: "hecho", amountCents };
  if (outcome === "en_curso") return { ok: true, refund: "en_curso", amountCents };
  if (outcome === "fallido") return { ok: true, refund: "pendiente", amountCents };
  if (outcome === "a_mano") return { ok: true, refund: "a_mano", amountCents };
  return refused(db, orderId);
}

async function claim(
  db: Db,
  orderId: string,
  now: Date,
): Promise<{ ok: true; amountCents: number } | DeskRefusal> {
  return db.transaction().execute(async (trx) => {
    const stamp = toTimestamp(now);
    const changed = await trx
      .updateTable("orders")
      .set({ status: ORDER_MOVES.cancelByShop.to, updated_at: stamp })
      .where("id", "=", orderId)
      .where("status", "in", movableFrom("cancelByShop"))
      .where("removed_at", "is", null)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) {
      const row = await trx
        .selectFrom("orders")
        .select("status")
        .where("id", "=", orderId)
        .executeTakeFirst();
      return row && DESK_STATUSES.includes(row.status)
        ? { ok: false, reason: "conflicto", status: row.status }
        : { ok: false, reason: "no_encontrado", status: null };
    }
    const order = await trx
      .selectFrom("orders")
      .select(["total_cents", "currency", "payment_provider"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    // The missing pieces of a late payment the owner already gave back by hand are not paid twice.
    const shown = await getOrder(trx, orderId);
    const amountCents = shown ? cancellationCents(shown) : order.total_cents;
    await trx
      .insertInto("refunds")
      .values({
        order_id: orderId,
        amount_cents: amountCents,
        currency: order.currency,
        provider: order.payment_provider,
        reason: SHOP_CANCELLATION,
        status: "pendiente",
        restock_when_made: 1,
        // Asked right away below; the sweep only if this process never gets an answer.
        next_attempt_at: toTimestamp(new Date(now.getTime() + RETRY_AFTER_MS)),
        created_at: stamp,
      })
      .execute();
    await recordEvent(trx, orderId, "cancelado", `Reembolso de ${formatMXN(amountCents)}`, now);
    return { ok: true, amountCents };
  });
}

/** The provider said no (its refund already undone): the owner reads why; the order is as it was. */
async function refused(db: Db, orderId: string): Promise<CancelResult> {
  const event = await db
    .selectFrom("order_events")
    .select("detail")
    .where("order_id", "=", orderId)
    .where("kind", "=", "reembolso_rechazado")
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  const why = event?.detail || "sin respuesta del proveedor";
  return {
    ok: false,
    reason: "reembolso_rechazado",
    status: ORDER_MOVES.refundRefused.to,
    message: `no se pudo reembolsar, así que el pedido no se canceló y sigue pendiente. El proveedor de pagos respondió: ${why}`,
  };
}
