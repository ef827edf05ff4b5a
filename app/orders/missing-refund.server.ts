import { type Db, toTimestamp } from "~/db/database.server";
import { formatMXN } from "~/lib/money";
import { recordEvent } from "./desk.server";
import { missingCents } from "./order";
import { getOrder } from "./queries.server";
import { DESK_TABS } from "./status";

/*
 * The pieces a late payment found gone, on an order that still sent the others (decision 37,
 * 'Sold out at payment'): their price goes back by hand — from the provider's panel for a card
 * or a transfer, by a transfer of her own for cash paid at OXXO — and the owner records that she
 * did, once. The buyer's page
 * and e-mails then say the money was given back, and Reportes stop counting it as owed.
 */

export type MissingRefundResult =
  | { ok: true; amountCents: number }
  | { ok: false; reason: "no_encontrado" | "sin_faltantes" | "ya_registrado" }
  /** Cancelled meanwhile (another tab): its refund was the whole total, missing pieces included. */
  | { ok: false; reason: "cancelado"; refundCents: number | null };

export async function recordMissingRefunded(
  db: Db,
  orderId: string,
  now = new Date(),
): Promise<MissingRefundResult> {
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
    await recordEvent(trx, orderId, "faltantes_reembolsados", formatMXN(amountCents), now);
    return { ok: true, amountCents };
  });
}
