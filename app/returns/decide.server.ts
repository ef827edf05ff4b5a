import { type Db, toTimestamp } from "~/db/database.server";
import { RETURN_ACCEPTED_EMAIL, RETURN_CLOSED_EMAIL, RETURN_DECLINED_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import { recordEvent } from "~/orders/desk.server";
import { RETURN_MOVES, returnMovableFrom } from "./return-status";

/*
 * The owner's answer to a return request (decision 48): accepted, with where to send the pieces,
 * or declined, with why. One conditional move each; the buyer's e-mail is queued in the same
 * transaction, so a second click or another tab answers nothing twice.
 */

export type DecideResult = { ok: true } | { ok: false; reason: "no_encontrada" | "ya_respondida" };

/**
 * Closes an accepted return whose pieces never came (she kept them, or will not send them): no
 * refund, her e-mail with the owner's words; she may ask again while her window lasts.
 */
export async function closeReturn(
  db: Db,
  returnId: string,
  message: string,
  now = new Date(),
): Promise<{ ok: true } | { ok: false; reason: "no_encontrada" | "no_aceptada" }> {
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom("returns as r")
      .innerJoin("orders as o", "o.id", "r.order_id")
      .select(["r.order_id", "o.customer_email"])
      .where("r.id", "=", returnId)
      .executeTakeFirst();
    if (!found) return { ok: false, reason: "no_encontrada" } as const;
    const stamp = toTimestamp(now);
    const moved = await trx
      .updateTable("returns")
      .set({ status: RETURN_MOVES.close.to, owner_message: message.trim().slice(0, 2000), updated_at: stamp })
      .where("id", "=", returnId)
      .where("status", "in", returnMovableFrom("close"))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { ok: false, reason: "no_aceptada" } as const;
    await recordEvent(
      trx,
      found.order_id,
      "devolucion_cerrada",
      `${returnId}: ${message.trim().slice(0, 400)}`,
      now,
    );
    await queueEmail(trx, {
      kind: RETURN_CLOSED_EMAIL,
      recipient: found.customer_email,
      orderId: found.order_id,
      dedupeKey: `${RETURN_CLOSED_EMAIL}:${returnId}`,
      payload: { returnId },
      now,
    });
    return { ok: true } as const;
  });
}

export async function decideReturn(
  db: Db,
  returnId: string,
  decision: "accept" | "decline",
  message: string,
  now = new Date(),
): Promise<DecideResult> {
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom("returns as r")
      .innerJoin("orders as o", "o.id", "r.order_id")
      .select(["r.order_id", "o.customer_email"])
      .where("r.id", "=", returnId)
      .executeTakeFirst();
    if (!found) return { ok: false, reason: "no_encontrada" } as const;
    const stamp = toTimestamp(now);
    const moved = await trx
      .updateTable("returns")
      .set({
        status: RETURN_MOVES[decision].to,
        owner_message: message.trim().slice(0, 2000),
        decided_at: stamp,
        updated_at: stamp,
      })
      .where("id", "=", returnId)
      .where("status", "in", returnMovableFrom(decision))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { ok: false, reason: "ya_respondida" } as const;
    const kind = decision === "accept" ? RETURN_ACCEPTED_EMAIL : RETURN_DECLINED_EMAIL;
    await recordEvent(
      trx,
      found.order_id,
      decision === "accept" ? "devolucion_aceptada" : "devolucion_rechazada",
      `${returnId}${message.trim() ? `: ${message.trim().slice(0, 400)}` : ""}`,
      now,
    );
    await queueEmail(trx, {
      kind,
      recipient: found.customer_email,
      orderId: found.order_id,
      dedupeKey: `${kind}:${returnId}`,
      payload: { returnId },
      now,
    });
    return { ok: true } as const;
  });
}
