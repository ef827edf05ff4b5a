import type { ExpressionBuilder } from "kysely";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import type { KyselyDatabase } from "~/db/schema";
import { newId } from "~/lib/ids";
import type { MailMessage } from "./mailer.server";

/*
 * The e-mail queue. A message is queued as a row in the same transaction as what it announces
 * (a payment, a shipment), so a crash between the two loses nothing; it is rendered and sent
 * afterwards, by `sendSoon()` right away or by the scheduler every minute. A row is claimed before
 * it is sent (a conditional update that moves its next attempt into the future), so several app
 * servers never send the same message at once, and a server that dies while sending leaves it to
 * be tried again later.
 */

export interface QueuedEmail {
  id: string;
  kind: string;
  recipient: string;
  orderId: string | null;
  payload: Record<string, unknown>;
}

/**
 * Renders one kind of message. Null when it cannot be built (a failure, retried later); false when
 * it is no longer wanted (e.g. the address left a list): recorded as done, never sent.
 */
export type EmailTemplate = (email: QueuedEmail) => Promise<Omit<MailMessage, "to"> | null | false>;
export type EmailTemplates = Readonly<Record<string, EmailTemplate>>;

/** What `last_error` says of a message its template no longer wanted (sent_at set, nothing sent). */
export const NOT_NEEDED = "no se envió: ya no hacía falta";

/** Give up after about three days of retries (and leave last_error for the shop to see). */
export const MAX_ATTEMPTS = 30;
/** How many messages one round sends at most. */
export const MAIL_BATCH = 20;

/** A message due at `stamp`: not sent, tries left, and its next attempt not later (or never set). */
export function isDue(eb: ExpressionBuilder<KyselyDatabase, "emails">, stamp: string) {
  return eb.and([
    eb("sent_at", "is", null),
    eb("attempts", "<", MAX_ATTEMPTS),
    eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", stamp)]),
  ]);
}

/** Minutes to wait after the n-th attempt before the next: 5, 5, 5, 8, 16, … up to 6 hours. */
export function retryDelayMinutes(attempts: number): number {
  return Math.max(5, Math.min(2 ** Math.max(0, attempts - 1), 360));
}

/**
 * Queues a message. With a `dedupeKey` a second call with the same key queues nothing (a replayed
 * payment confirmation sends one e-mail). Returns the new row's id, or null when it was a repeat.
 */
export async function queueEmail(
  db: Db,
  input: {
    kind: string;
    recipient: string;
    orderId?: string | null;
    dedupeKey?: string | null;
    payload?: Record<string, unknown>;
    now?: Date;
  },
): Promise<string | null> {
  const id = newId();
  const result = await db
    .insertInto("emails")
    .values({
      id,
      kind: input.kind,
      recipient: input.recipient,
      order_id: input.orderId ?? null,
      dedupe_key: input.dedupeKey ?? null,
      payload: JSON.stringify(input.payload ?? {}),
      created_at: toTimestamp(input.now ?? new Date()),
      claimed_at: null,
      next_attempt_at: null,
      sent_at: null,
      attempts: 0,
      last_error: null,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? id : null;
}

/**
 * A message whose last attempt failed is due again at once, its retries starting over: one
 * conditional update, so it happens once however often it is asked for. False for anything else.
 */
async function resetFailed(db: Db, id: string, recipient?: string): Promise<boolean> {
  const reset = await db
    .updateTable("emails")
    .set({ attempts: 0, next_attempt_at: null, last_error: null, ...(recipient ? { recipient } : {}) })
    .where("id", "=", id)
    .where("sent_at", "is", null)
    .where("last_error", "is not", null)
    .executeTakeFirst();
  return Number(reset.numUpdatedRows) > 0;
}

/**
 * 'Reenviar': a message whose last attempt failed is due again at once, its retries starting over;
 * one that was sent is queued again as a new message. A message still waiting for its first attempt,
 * or being sent right now, is left alone (it goes out anyway). Returns whether anything was queued.
 * `recipient`: where it goes now, when not where it first went (an address corrected since).
 */
export async function requeueEmail(
  db: Db,
  id: string,
  now = new Date(),
  options: { recipient?: string } = {},
): Promise<boolean> {
  const row = await db.selectFrom("emails").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return false;
  if (row.sent_at === null) return resetFailed(db, id, options.recipient);
  await queueEmail(db, {
    kind: row.kind,
    recipient: options.recipient || row.recipient,
    orderId: row.order_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    now,
  });
  return true;
}

/**
 * 'Reenviar' in the mail log: a message whose last attempt failed is due again at once, its retries
 * starting over. One conditional update, so a double click (or two tabs) re-queues it once; a
 * message that is waiting, being sent or already sent is left alone.
 */
export async function retryFailedEmail(
  db: Db,
  id: string,
): Promise<{ ok: true } | { ok: false; reason: "no_encontrado" | "no_fallido" }> {
  if (await resetFailed(db, id)) return { ok: true };
  const found = await db.selectFrom("emails").select("id").where("id", "=", id).executeTakeFirst();
  return { ok: false, reason: found ? "no_fallido" : "no_encontrado" };
}

export type EmailState = "en_cola" | "enviado" | "reintentando" | "fallo";

export interface EmailRecord {
  id: string;
  kind: string;
  recipient: string;
  state: EmailState;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** The messages about one order, with how each stands. */
export async function emailsOfOrder(db: Db, orderId: string): Promise<EmailRecord[]> {
  const rows = await db.selectFrom("emails").selectAll().where("order_id", "=", orderId).execute();
  return rows.map((e) => ({
    id: e.id,
    kind: e.kind,
    recipient: e.recipient,
    state: e.sent_at
      ? "enviado"
      : e.last_error
        ? e.attempts >= MAX_ATTEMPTS
          ? "fallo"
          : "reintentando"
        : "en_cola",
    lastError: e.last_error,
    createdAt: toDate(e.created_at),
    sentAt: e.sent_at ? toDate(e.sent_at) : null,
  }));
}
