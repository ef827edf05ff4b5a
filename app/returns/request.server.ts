import { type Db, isUniqueViolation, toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { formatMXN } from "~/lib/money";
import { RETURN_REQUESTED_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import { deliveredAt } from "~/orders/delivery.server";
import { recordEvent } from "~/orders/desk.server";
import type { Order } from "~/orders/order";
import { getOrder } from "~/orders/queries.server";
import { returnWindowEnd } from "~/orders/return-window.server";
import { OPEN_RETURN_STATUSES, type ReturnReason } from "./return-status";

/*
 * A buyer's request to return pieces (decision 48): from 'Mi pedido', within five business days
 * of delivery (LFPC art. 56), some or all of the pieces she has not returned yet.
 */

/** A piece of the order as the return form offers it. */
export interface ReturnablePiece {
  /** The order line (order_lines.position). */
  position: number;
  name: string;
  size: string | null;
  unitPriceCents: number;
  price: string;
  /** How many of this line she may still return (bought, less those in returns not declined). */
  returnable: number;
}

/** Whether the buyer may ask for a return now, and of what; or why not. */
export type ReturnChance =
  | { open: true; until: Date; pieces: ReturnablePiece[] }
  | { open: false; reason: ReturnClosed; until: Date | null };

/**
 * Why no return can be asked now: no_entregado (not delivered yet), fuera_de_plazo (the window
 * closed), en_curso (a return is under way), sin_piezas (all returned), no_aplica (not a shipped order).
 */
export type ReturnClosed = "no_entregado" | "fuera_de_plazo" | "en_curso" | "sin_piezas" | "no_aplica";

export async function returnChanceOf(
  db: Db,
  /** The order, or its number to read it by. */
  ref: string | Order,
  deliveryDays: number,
  now = new Date(),
): Promise<ReturnChance | null> {
  const order = typeof ref === "string" ? await getOrder(db, ref) : ref;
  if (!order) return null;
  const orderId = order.id;
  // Paid and not shipped yet: on its way to being delivered.
  if (order.status === "pendiente") return { open: false, reason: "no_entregado", until: null };
  if (order.status !== "enviado" && order.status !== "archivado") {
    return { open: false, reason: "no_aplica", until: null };
  }
  const delivered = deliveredAt(order, deliveryDays, now);
  if (!delivered) return { open: false, reason: "no_entregado", until: null };
  const until = returnWindowEnd(delivered.at);
  if (until <= now) return { open: false, reason: "fuera_de_plazo", until };
  const open = await db
    .selectFrom("returns")
    .select("id")
    .where("order_id", "=", orderId)
    .where("status", "in", OPEN_RETURN_STATUSES)
    .executeTakeFirst();
  if (open) return { open: false, reason: "en_curso", until };
  const pieces = await returnablePieces(db, orderId);
  if (!pieces.some((p) => p.returnable > 0)) return { open: false, reason: "sin_piezas", until };
  return { open: true, until, pieces };
}

async function returnablePieces(db: Db, orderId: string): Promise<ReturnablePiece[]> {
  const [lines, returned] = await Promise.all([
    db
      .selectFrom("order_lines")
      .select(["position", "name", "option_value", "unit_price_cents", "quantity", "missing"])
      .where("order_id", "=", orderId)
      .orderBy("position")
      .execute(),
    db
      .selectFrom("return_lines as l")
      .innerJoin("returns as r", "r.id", "l.return_id")
      .select(["l.position", "l.quantity", "l.received"])
      .where("r.order_id", "=", orderId)
      // Declined or closed without them: her pieces never came back.
      .where("r.status", "not in", ["rechazada", "cerrada"])
      .execute(),
  ]);
  // Pieces asked back, or once received those that arrived: one that never came is still hers,
  // and she may ask again for it while her window lasts.
  const back = new Map<number, number>();
  for (const row of returned)
    back.set(row.position, (back.get(row.position) ?? 0) + (row.received ?? row.quantity));
  return lines.map((line) => ({
    position: line.position,
    name: line.name,
    size: line.option_value,
    unitPriceCents: line.unit_price_cents,
    price: formatMXN(line.unit_price_cents),
    // Pieces never served from stock (a late payment) were never sent: nothing to return of them.
    returnable: Math.max(0, line.quantity - line.missing - (back.get(line.position) ?? 0)),
  }));
}

export interface ReturnRequestInput {
  lines: { position: number; quantity: number }[];
  reason: ReturnReason;
  comment: string;
}

export type RequestReturnResult =
  | { ok: true; returnId: string; refundCents: number }
  | { ok: false; reason: ReturnClosed | "piezas" };

/**
 * Records a return request and queues the buyer's e-mail that it arrived, in one transaction.
 * `piezas`: the lines asked for are not hers to return (none chosen, or more than she may).
 */
export async function requestReturn(
  db: Db,
  orderId: string,
  input: ReturnRequestInput,
  deliveryDays: number,
  now = new Date(),
): Promise<RequestReturnResult> {
  const chance = await returnChanceOf(db, orderId, deliveryDays, now);
  if (!chance) return { ok: false, reason: "no_aplica" };
  if (!chance.open) return { ok: false, reason: chance.reason };
  const wanted = input.lines.filter((l) => l.quantity > 0);
  const byPosition = new Map(chance.pieces.map((p) => [p.position, p]));
  const positions = new Set<number>();
  for (const line of wanted) {
    const piece = byPosition.get(line.position);
    if (!piece || positions.has(line.position) || line.quantity > piece.returnable) {
      return { ok: false, reason: "piezas" };
    }
    positions.add(line.position);
  }
  if (wanted.length === 0) return { ok: false, reason: "piezas" };
  const refundCents = wanted.reduce(
    (sum, l) => sum + l.quantity * (byPosition.get(l.position)?.unitPriceCents ?? 0),
    0,
  );
  const id = `DV-${newId(8).toUpperCase()}`;
  const stamp = toTimestamp(now);
  try {
    await db.transaction().execute(async (trx) => {
      const order = await trx
        .selectFrom("orders")
        .select(["customer_email", "currency"])
        .where("id", "=", orderId)
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("returns")
        .values({
          id,
          order_id: orderId,
          status: "solicitada",
          reason: input.reason,
          comment: input.comment.trim().slice(0, 1000),
          requested_at: stamp,
          refund_cents: refundCents,
          currency: order.currency,
          updated_at: stamp,
        })
        .execute();
      await trx
        .insertInto("return_lines")
        .values(
          wanted.map((l) => ({
            return_id: id,
            position: l.position,
            quantity: l.quantity,
            unit_price_cents: byPosition.get(l.position)?.unitPriceCents ?? 0,
          })),
        )
        .execute();
      const pieces = wanted
        .map((l) => `${l.quantity} × ${byPosition.get(l.position)?.name ?? ""}`)
        .join(", ");
      await recordEvent(trx, orderId, "devolucion_solicitada", `${id}: ${pieces}`, now);
      await queueEmail(trx, {
        kind: RETURN_REQUESTED_EMAIL,
        recipient: order.customer_email,
        orderId,
        dedupeKey: `${RETURN_REQUESTED_EMAIL}:${id}`,
        payload: { returnId: id },
        now,
      });
    });
  } catch (error) {
    // Two requests at once (two tabs): the one-open-return index lets one in.
    if (isUniqueViolation(error, "returns_one_open")) return { ok: false, reason: "en_curso" };
    throw error;
  }
  return { ok: true, returnId: id, refundCents };
}
