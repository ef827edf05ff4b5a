import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { isId, newId } from "~/lib/ids";
import { WAITLIST_CONFIRM_EMAIL, WAITLIST_OPENING_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import type { SignUpSource } from "./mail-caps.server";
import { confirmsSince, leaveEveryList, type OptInResult, optIn } from "./opt-in.server";
import { parseConsent, parseEmail, type SignUpRefusal, takesSignUps } from "./sign-up-input";

/*
 * 'Avísame' (decision 16): addresses waiting for an upcoming drop. Double opt-in (./opt-in.server,
 * shared with 'Avísame si vuelve'): a sign-up is `pendiente` and gets a confirmation e-mail; only
 * `confirmada` addresses hear that the drop opened, once each.
 */

export { CONFIRM_WITHIN_DAYS, RESEND_AFTER_MINUTES } from "./opt-in.server";

/** Subscriptions one transaction of the opening job takes. */
const OPENING_BATCH = 100;

/** One opening notice per drop and address, however many servers run the job at once. */
function openingDedupeKey(dropId: string, email: string): string {
  return `avisame_apertura:${dropId}:${email}`;
}

export type SignUpResult = OptInResult | { ok: false; reason: SignUpRefusal };

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
  return optIn(db, {
    email,
    dropId: drop.id,
    from: input.from,
    now,
    confirmKind: WAITLIST_CONFIRM_EMAIL,
    find: (trx) =>
      trx
        .selectFrom("waitlist_subscriptions")
        .select(["id", "status", "confirmation_sent_at"])
        .where("drop_id", "=", drop.id)
        .where("email", "=", email)
        .executeTakeFirst(),
    async save(trx, existing, stamp) {
      if (existing) {
        await trx
          .updateTable("waitlist_subscriptions")
          .set({ status: "pendiente", confirmation_sent_at: stamp, site_url: input.siteUrl })
          .where("id", "=", existing.id)
          .execute();
        return existing.id;
      }
      const id = newId();
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
      return id;
    },
  });
}

export interface SubscriptionView {
  id: string;
  email: string;
  status: "pendiente" | "confirmada" | "baja";
  siteUrl: string;
  /** Its opening notice went out already. */
  notified: boolean;
  drop: { id: string; name: string; startAt: Date; endAt: Date; status: string };
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
      "s.notified_at",
      "d.id as drop_id",
      "d.name as drop_name",
      "d.start_at",
      "d.end_at",
      "d.status as drop_status",
    ])
    .where("s.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    siteUrl: row.site_url,
    notified: row.notified_at !== null,
    drop: {
      id: row.drop_id,
      name: row.drop_name,
      startAt: toDate(row.start_at),
      endAt: toDate(row.end_at),
      status: row.drop_status,
    },
  };
}

export type LinkResult =
  | {
      ok: true;
      already: boolean;
      drop: { id: string; name: string };
      /**
       * Where the drop stands as she confirms: before its opening, open (its notice comes now, or
       * came: `avisada`), or closed (archived before it opened too).
       */
      moment?: "antes" | "abierta" | "avisada" | "cerrada";
    }
  | { ok: false; reason: "no_encontrado" | "dado_de_baja" | "vencido"; drop?: { id: string; name: string } };

/**
 * The confirmation link: idempotent; an address that left the list is not put back by an old link,
 * and a link older than `CONFIRM_WITHIN_DAYS` (since the latest confirmation e-mail) confirms nothing.
 */
export async function confirmSubscription(db: Db, id: string, now = new Date()): Promise<LinkResult> {
  const changed = await db
    .updateTable("waitlist_subscriptions")
    .set({ status: "confirmada", confirmed_at: toTimestamp(now) })
    .where("id", "=", id)
    .where("status", "=", "pendiente")
    .where("confirmation_sent_at", ">=", confirmsSince(now))
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
    moment:
      found.drop.status === "archivada" || now > found.drop.endAt
        ? "cerrada"
        : found.notified
          ? "avisada"
          : now < found.drop.startAt
            ? "antes"
            : "abierta",
  };
}

/**
 * The unsubscribe link: the address leaves every 'Avísame' list of the shop, 'Avísame si vuelve'
 * included (one click should stop all of it), idempotently. Notices already queued are dropped when their turn comes.
 */
export async function unsubscribe(db: Db, id: string, now = new Date()): Promise<LinkResult> {
  const found = await getSubscription(db, id);
  if (!found) return { ok: false, reason: "no_encontrado" };
  const changed = await leaveEveryList(db, found.email, now);
  return {
    ok: true,
    already: changed === 0,
    drop: { id: found.drop.id, name: found.drop.name },
  };
}

/**
 * The next confirmed addresses not yet told, in sign-up order across the running drops: each drop's
 * first `count`, read in order from the index on (drop, status, notified_at, created_at) (migration
 * 0045), then the earliest of those. One read for all the drops had every address waiting sorted
 * for each batch (the index gives one drop's in order, not several drops' together).
 */
async function toNotify(db: Db, dropIds: readonly string[], count: number) {
  const firstOf = (dropId: string) =>
    db
      .selectFrom("waitlist_subscriptions")
      .select(["id", "email", "drop_id", "created_at"])
      .where("drop_id", "=", dropId)
      .where("status", "=", "confirmada")
      .where("notified_at", "is", null)
      // Every row's notified_at is empty: named so that PostgreSQL reads the index in order too.
      .orderBy("notified_at")
      .orderBy("created_at")
      .limit(count)
      .execute();
  const firsts: Awaited<ReturnType<typeof firstOf>> = [];
  for (const dropId of dropIds) firsts.push(...(await firstOf(dropId)));
  if (dropIds.length === 1) return firsts;
  const at = (row: { created_at: string | Date }) => toDate(row.created_at).getTime();
  return firsts.sort((a, b) => at(a) - at(b)).slice(0, count);
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
  // The drops running now first (a few rows), then their addresses by the index on the drop: a
  // join let SQLite read every sign-up ever made, every minute.
  const running = (
    await db
      .selectFrom("drops")
      .select("id")
      .where("status", "!=", "archivada")
      .where("visible_from", "<=", stamp)
      .where("start_at", "<=", stamp)
      .where("end_at", ">=", stamp)
      .execute()
  ).map((d) => d.id);
  if (running.length === 0) return { queued: 0 };
  let queued = 0;
  while (queued < limit) {
    const batch = await toNotify(db, running, Math.min(OPENING_BATCH, limit - queued));
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
