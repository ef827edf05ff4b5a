import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { queueEmail } from "~/mail/queue.server";
import {
  countRefusal,
  lockMailCaps,
  type MailCap,
  mailCapReached,
  recordSend,
  type SignUpSource,
} from "./mail-caps.server";

/*
 * The double opt-in every 'Avísame' list shares (the drop's, decision 16, and 'Avísame si vuelve'
 * for a sold-out piece, decision 46): a request starts `pendiente` and gets a confirmation e-mail,
 * re-sent at most every few minutes, under the mail caps of decision 31; only `confirmada`
 * addresses are ever told anything. Every answer a shopper sees is the same whether or not the
 * address was already on the list; the outcomes are for the tests and the log.
 */

/** A repeat sign-up re-sends the confirmation at most this often. */
export const RESEND_AFTER_MINUTES = 10;
/**
 * A confirmation link confirms for this long after the latest confirmation e-mail: consent given
 * weeks later from an old mail (or by whoever reads the mailbox then) is not the consent asked
 * for. Signing up again sends the link anew.
 */
export const CONFIRM_WITHIN_DAYS = 7;

export type OptInStatus = "pendiente" | "confirmada" | "baja";

/** What the opt-in reads of a list's row for the address. */
export interface OptInRow {
  id: string;
  status: OptInStatus;
  confirmation_sent_at: Date | string;
}

export type OptInResult =
  | { ok: true; outcome: "nueva" | "reenviada" | "ya_pendiente" | "ya_confirmada"; subscriptionId: string }
  /**
   * A confirmation was due but a cap said no (decision 31): answered as accepted, nothing sent,
   * nothing recorded on the list (a new address is not kept; a pending one keeps its last e-mail's
   * time), the refusal counted for the owner.
   */
  | { ok: true; outcome: "limitada"; cap: MailCap; subscriptionId: string | null };

/**
 * Signs `email` up on one list: `find` reads its row (in the transaction given), `save` writes a
 * new pending row or renews the one found (status `pendiente`, `confirmation_sent_at` = `stamp`)
 * and returns its id; the confirmation e-mail of kind `confirmKind` names that id. `dropId`: the
 * drop the caps' refusals are counted for.
 */
export async function optIn(
  db: Db,
  input: {
    email: string;
    dropId: string;
    from: SignUpSource;
    now: Date;
    confirmKind: string;
    find(trx: Db): Promise<OptInRow | undefined>;
    save(trx: Db, existing: OptInRow | undefined, stamp: string): Promise<string>;
  },
): Promise<OptInResult> {
  const { email, dropId, now } = input;
  const pause = toTimestamp(new Date(now.getTime() - RESEND_AFTER_MINUTES * 60_000));
  // Most repeats send nothing: told apart before the caps' lock, which only a confirmation takes.
  const seen = await input.find(db);
  if (seen?.status === "confirmada") {
    return { ok: true, outcome: "ya_confirmada", subscriptionId: seen.id };
  }
  if (seen && toTimestamp(toDate(seen.confirmation_sent_at)) > pause) {
    return { ok: true, outcome: "ya_pendiente", subscriptionId: seen.id };
  }

  // A cap already reached stays so for this sign-up: the flood of an attack is answered here,
  // without waiting for the caps' lock.
  const reached = await mailCapReached(db, email, input.from, now);
  if (reached !== null) {
    await countRefusal(db, dropId, reached, now);
    return { ok: true, outcome: "limitada", cap: reached, subscriptionId: seen?.id ?? null };
  }

  return db.transaction().execute(async (trx): Promise<OptInResult> => {
    // From here on, one sign-up at a time that may send (the caps' lock, on every app server): the
    // caps and the list are read again under it, so racing sign-ups never pass a cap and racing
    // repeats of one address queue one e-mail.
    await lockMailCaps(trx);
    const cap = await mailCapReached(trx, email, input.from, now);
    const existing = await input.find(trx);
    if (existing?.status === "confirmada") {
      return { ok: true, outcome: "ya_confirmada", subscriptionId: existing.id };
    }
    // Still unconfirmed (or unsubscribed and back): another confirmation, but not more often than
    // every few minutes, whoever keeps typing the address.
    if (existing && toTimestamp(toDate(existing.confirmation_sent_at)) > pause) {
      return { ok: true, outcome: "ya_pendiente", subscriptionId: existing.id };
    }
    if (cap !== null) {
      await countRefusal(trx, dropId, cap, now);
      return { ok: true, outcome: "limitada", cap, subscriptionId: existing?.id ?? null };
    }
    const id = await input.save(trx, existing, toTimestamp(now));
    await recordSend(trx, { email, source: input.from, dropId, now });
    await queueEmail(trx, { kind: input.confirmKind, recipient: email, payload: { id }, now });
    return { ok: true, outcome: existing ? "reenviada" : "nueva", subscriptionId: id };
  });
}

/** The oldest confirmation e-mail whose link still confirms at `now` (a stamp to compare with). */
export function confirmsSince(now: Date): string {
  return toTimestamp(new Date(now.getTime() - CONFIRM_WITHIN_DAYS * 24 * 3_600_000));
}

/**
 * The unsubscribe link of any 'Avísame' e-mail: the address leaves every list of the shop (one
 * click should stop all of it), idempotently. Notices already queued are dropped when their turn
 * comes (their templates read the row). Returns how many rows changed.
 */
export async function leaveEveryList(db: Db, email: string, now: Date): Promise<number> {
  const stamp = toTimestamp(now);
  const drops = await db
    .updateTable("waitlist_subscriptions")
    .set({ status: "baja", unsubscribed_at: stamp })
    .where("email", "=", email)
    .where("status", "!=", "baja")
    .executeTakeFirst();
  const pieces = await db
    .updateTable("restock_requests")
    .set({ status: "baja", unsubscribed_at: stamp })
    .where("email", "=", email)
    .where("status", "!=", "baja")
    .executeTakeFirst();
  return Number(drops.numUpdatedRows) + Number(pieces.numUpdatedRows);
}
