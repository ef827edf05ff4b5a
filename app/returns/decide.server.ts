import { type Db, toTimestamp } from "~/db/database.server";
import { RETURN_ACCEPTED_EMAIL, RETURN_CLOSED_EMAIL, RETURN_DECLINED_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import { recordEvent } from "~/orders/desk.server";
import { RETURN_MOVES, returnMovableFrom } from "./return-status";

/*
 * The owner's answers with words for the buyer (decision 48): a request accepted, with where to
 * send the pieces, or declined, with why; an accepted return closed without its pieces. One
 * conditional move each; the buyer's e-mail is queued in the same transaction, so a second click
 * or another tab answers nothing twice.
 */

export type DecideResult = { ok: true } | { ok: false; reason: "no_encontrada" | "ya_respondida" };

/** Each answer's e-mail and timeline event; `decided`: it answers the request (`decided_at`). */
const ANSWERS = {
  accept: { email: RETURN_ACCEPTED_EMAIL, event: "devolucion_aceptada", decided: true },
  decline: { email: RETURN_DECLINED_EMAIL, event: "devolucion_rechazada", decided: true },
  close: { email: RETURN_CLOSED_EMAIL, event: "devolucion_cerrada", decided: false },
} as const;

export async function decideReturn(
  db: Db,
  returnId: string,
  decision: "accept" | "decline",
  message: string,
  now = new Date(),
): Promise<DecideResult> {
  const answered = await answerReturn(db, returnId, decision, message, now);
  return answered === "ok"
    ? { ok: true }
    : { ok: false, reason: answered === "no_encontrada" ? answered : "ya_respondida" };
}

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
  const answered = await answerReturn(db, returnId, "close", message, now);
  return answered === "ok"
    ? { ok: true }
    : { ok: false, reason: answered === "no_encontrada" ? answered : "no_aceptada" };
}

/** The move with the owner's words, its event and its e-mail; "otro_estado": not from where it stands. */
async function answerReturn(
  db: Db,
  returnId: string,
  move: keyof typeof ANSWERS,
  message: string,
  now: Date,
): Promise<"ok" | "no_encontrada" | "otro_estado"> {
  const answer = ANSWERS[move];
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom("returns as r")
      .innerJoin("orders as o", "o.id", "r.order_id")
      .select(["r.order_id", "o.customer_email"])
      .where("r.id", "=", returnId)
      .executeTakeFirst();
    if (!found) return "no_encontrada";
    const stamp = toTimestamp(now);
    const words = message.trim();
    const moved = await trx
      .updateTable("returns")
      .set({
        status: RETURN_MOVES[move].to,
        owner_message: words.slice(0, 2000),
        ...(answer.decided ? { decided_at: stamp } : {}),
        updated_at: stamp,
      })
      .where("id", "=", returnId)
      .where("status", "in", returnMovableFrom(move))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return "otro_estado";
    await recordEvent(
      trx,
      found.order_id,
      answer.event,
      `${returnId}${words ? `: ${words.slice(0, 400)}` : ""}`,
      now,
    );
    await queueEmail(trx, {
      kind: answer.email,
      recipient: found.customer_email,
      orderId: found.order_id,
      dedupeKey: `${answer.email}:${returnId}`,
      payload: { returnId },
      now,
    });
    return "ok";
  });
}
