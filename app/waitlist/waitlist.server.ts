import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { isId, newId } from "~/lib/ids";
import { WAITLIST_CONFIRM_EMAIL, WAITLIST_OPENING_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import {
  countRefusal,
  lockMailCaps,
  type MailCap,
  mailCapReached,
  recordSend,
  type SignUpSource,
} from "./mail-caps.server";
import { parseConsent, parseEmail, type SignUpRefusal, takesSignUps } from "./sign-up-input";

/*
 * 'Avísame' (decision 16): addresses waiting for an upcoming drop. Double opt-in: a sign-up is
 * `pendiente` and gets a confirmation e-mail; only `confirmada` addresses hear that the drop
 * opened, once each. Every answer a shopper can see is the same whether or not the address was
 * already on the list; the outcomes below are for the tests and the log.
 */

/** A repeat sign-up re-sends the confirmation at most this often. */
export const RESEND_AFTER_MINUTES = 10;
/**
 * A confirmation link confirms for this long after the latest confirmation e-mail: consent given
 * weeks later from an old mail (or by whoever reads the mailbox then) is not the consent asked
 * for. Signing up again sends the link anew.
 */
export const CONFIRM_WITHIN_DAYS = 7;
/** Subscriptions one transaction of the opening job takes. */
const OPENING_BATCH = 100;

/** One opening notice per drop and address, however many servers run the job at once. */
function openingDedupeKey(dropId: string, email: string): string {
  return `avisame_apertura:${dropId}:${email}`;
}

export type SignUpResult =
  | { ok: true; outcome: "nueva" | "reenviada" | "ya_pendiente" | "ya_confirmada"; subscriptionId: string }
  /**
   * A confirmation was due but a cap said no (decision 31): answered as accepted, nothing sent,
   * nothing recorded on the list (a new address is not kept; a pending one keeps its last e-mail's
   * time), the refusal counted for the owner.
   */
  | { ok: true; outcome: "limitada"; cap: MailCap; subscriptionId: string | null }
  | { ok: false; reason: SignUpRefusal };

export async function signUp(
  db: Db,
  input: {
    dropId: string;
    email: unknown;
    consent: unknown;
    siteUrl: string;
    /** Who asked: the caps count per address bucket, and a sign-up without a proof weighs more. */
    from: SignUpSource;
    now?: Date;
  },
): Promise<SignUpResult> {
  const now = input.now ?? new Date();
  const email = parseEmail(input.email);
  if (!email) return { ok: false, reason: "correo_invalido" };
  if (!parseConsent(input.consent)) return { ok: false, reason: "sin_consentimiento" };
  // An address that cannot name a drop is not looked up (PostgreSQL refuses a NUL in a text).
  if (!isId(input.dropId)) return { ok: false, reason: "drop_no_encontrado" };
  const drop = await db
    .selectFrom("drops")
    .select(["id", "start_at", "end_at", "status"])
    .where("id", "=", input.dropId)
    // A draft, or a drop before its 'Visible desde', does not exist for the public (decision 38).
    .where("visible_from", "<=", toTimestamp(now))
    .executeTakeFirst();
  if (!drop) return { ok: false, reason: "drop_no_encontrado" };
  const dates = { startAt: toDate(drop.start_at), endAt: toDate(drop.end_at), status: drop.status };
  if (!takesSignUps(dates, now)) {
    return { ok: false, reason: "drop_no_proximo" };
  }

  const stamp = toTimestamp(now);
  const pause = toTimestamp(new Date(now.getTime() - RESEND_AFTER_MINUTES * 60_000));
  const find = (trx: Db) =>
    trx
      .selectFrom("waitlist_subscriptions")
      .select(["id", "status", "confirmation_sent_at"])
      .where("drop_id", "=", drop.id)
      .where("email", "=", email)
      .executeTakeFirst();
  // Most repeats send nothing: told apart before the caps' lock, which only a confirmation takes.
  const seen = await find(db);
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
    await countRefusal(db, drop.id, reached, now);
    return { ok: true, outcome: "limitada", cap: reached, subscriptionId: seen?.id ?? null };
  }

  return db.transaction().execute(async (trx): Promise<SignUpResult> => {
    // From here on, one sign-up at a time that may send (the caps' lock, on every app server): the
    // caps and the list are read again under it, so racing sign-ups never pass a cap and racing
    // repeats of one address queue one e-mail.
    await lockMailCaps(trx);
    const cap = await mailCapReached(trx, email, input.from, now);
    const existing = await find(trx);
    if (existing?.status === "confirmada") {
      return { ok: true, outcome: "ya_confirmada", subscriptionId: existing.id };
    }
    // Still unconfirmed (or unsubscribed and back): another confirmation, but not more often than
    // every few minutes, whoever keeps typing the address.
    if (existing && toTimestamp(toDate(existing.confirmation_sent_at)) > pause) {
      return { ok: true, outcome: "ya_pendiente", subscriptionId: existing.id };
    }
    if (cap !== null) {
      await countRefusal(trx, drop.id, cap, now);
      return { ok: true, outcome: "limitada", cap, subscriptionId: existing?.id ?? null };
    }
    let id: string;
    let outcome: "nueva" | "reenviada";
    if (existing) {
      await trx
        .updateTable("waitlist_subscriptions")
        .set({ status: "pendiente", confirmation_sent_at: stamp, site_url: input.siteUrl })
        .where("id", "=", existing.id)
        .execute();
      id = existing.id;
      outcome = "reenviada";
    } else {
      id = newId();
      await trx
        .insertInto("waitlist_subscriptions")
        .values({
          id,
          drop_id: drop.id,
          email,
          status: "pendiente",
          site_url: input.siteUrl,
          created_at: stamp,
          confirmation_sent_at: stamp,
        })
        .execute();
      outcome = "nueva";
    }
    await recordSend(trx, { email, source: input.from, dropId: drop.id, now });
    await queueEmail(trx, { kind: WAITLIST_CONFIRM_EMAIL, recipient: email, payload: { id }, now });
    return { ok: true, outcome, subscriptionId: id };
  });
}

export interface SubscriptionView {
  id: string;
  email: string;
  status: "pendiente" | "confirmada" | "baja";
  siteUrl: string;
  drop: { id: string; name: string; startAt: Date; endAt: Date };
}

/** A subscription with its drop; null when either is gone (a deleted drop takes its list with it). */
export async function getSubscription(db: Db, id: string): Promise<SubscriptionView | null> {
  const row = await db
    .selectFrom("waitlist_subscriptions as s")
    .innerJoin("drops as d", "d.id", "s.drop_id")
    .select([
      "s.id",
      "s.email",
      "s.status",
      "s.site_url",
      "d.id as drop_id",
      "d.name as drop_name",
      "d.start_at",
      "d.end_at",
    ])
    .where("s.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    siteUrl: row.site_url,
    drop: { id: row.drop_id, name: row.drop_name, startAt: toDate(row.start_at), endAt: toDate(row.end_at) },
  };
}

export type LinkResult =
  | { ok: true; already: boolean; drop: { id: string; name: string } }
  | { ok: false; reason: "no_encontrado" | "dado_de_baja" | "vencido"; drop?: { id: string; name: string } };

/**
 * The confirmation link: idempotent; an address that left the list is not put back by an old link,
 * and a link older than `CONFIRM_WITHIN_DAYS` (since the latest confirmation e-mail) confirms nothing.
 */
export async function confirmSubscription(db: Db, id: string, now = new Date()): Promise<LinkResult> {
  const since = new Date(now.getTime() - CONFIRM_WITHIN_DAYS * 24 * 3_600_000);
  const changed = await db
    .updateTable("waitlist_subscriptions")
    .set({ status: "confirmada", confirmed_at: toTimestamp(now) })
    .where("id", "=", id)
    .where("status", "=", "pendiente")
    .where("confirmation_sent_at", ">=", toTimestamp(since))
    .executeTakeFirst();
  const found = await getSubscription(db, id);
  if (!found) return { ok: false, reason: "no_encontrado" };
  if (found.status === "baja") return { ok: false, reason: "dado_de_baja" };
  if (found.status === "pendiente") {
    return { ok: false, reason: "vencido", drop: { id: found.drop.id, name: found.drop.name } };
  }
  return {
    ok: true,
    already: Number(changed.numUpdatedRows) === 0,
    drop: { id: found.drop.id, name: found.drop.name },
  };
}

/**
 * The unsubscribe link: the address leaves every 'Avísame' list of the shop (one click should stop
 * all of it), idempotently. Notices already queued are dropped when their turn comes.
 */
export async function unsubscribe(db: Db, id: string, now = new Date()): Promise<LinkResult> {
  const found = await getSubscription(db, id);
  if (!found) return { ok: false, reason: "no_encontrado" };
  const changed = await db
    .updateTable("waitlist_subscriptions")
    .set({ status: "baja", unsubscribed_at: toTimestamp(now) })
    .where("email", "=", found.email)
    .where("status", "!=", "baja")
    .executeTakeFirst();
  return {
    ok: true,
    already: Number(changed.numUpdatedRows) === 0,
    drop: { id: found.drop.id, name: found.drop.name },
  };
}

/**
 * The opening job: for every drop that is running now and still has confirmed addresses without
 * their notice, queues one notice per address, a batch per transaction. Each row is claimed by a
 * conditional update (`notified_at` still empty) before its e-mail is queued, and the e-mail's
 * dedupe key is the drop and the address, so two servers running this at once queue each notice
 * once. A drop that ended before the job saw it (a server was down) gets no late "it opened".
 */
export async function queueOpeningNotices(
  db: Db,
  now = new Date(),
  options: { maxPerRun?: number } = {},
): Promise<{ queued: number }> {
  const stamp = toTimestamp(now);
  const limit = options.maxPerRun ?? 5_000;
  let queued = 0;
  while (queued < limit) {
    const batch = await db
      .selectFrom("waitlist_subscriptions as s")
      .innerJoin("drops as d", "d.id", "s.drop_id")
      .select(["s.id", "s.email", "s.drop_id"])
      .where("s.status", "=", "confirmada")
      .where("s.notified_at", "is", null)
      .where("d.status", "!=", "archivada")
      .where("d.visible_from", "<=", stamp)
      .where("d.start_at", "<=", stamp)
      .where("d.end_at", ">=", stamp)
      .orderBy("s.created_at")
      .limit(Math.min(OPENING_BATCH, limit - queued))
      .execute();
    if (batch.length === 0) break;
    const took = await db.transaction().execute(async (trx) => {
      let mine = 0;
      for (const row of batch) {
        const claimed = await trx
          .updateTable("waitlist_subscriptions")
          .set({ notified_at: stamp })
          .where("id", "=", row.id)
          .where("status", "=", "confirmada")
          .where("notified_at", "is", null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) continue; // another server took it
        const id = await queueEmail(trx, {
          kind: WAITLIST_OPENING_EMAIL,
          recipient: row.email,
          dedupeKey: openingDedupeKey(row.drop_id, row.email),
          payload: { id: row.id },
          now,
        });
        if (id) mine++;
      }
      return mine;
    });
    queued += took;
  }
  return { queued };
}
