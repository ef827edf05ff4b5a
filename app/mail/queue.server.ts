import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";
import type { Mailer, MailMessage } from "./mailer.server";

/*
 * The e-mail queue. A message is queued as a row in the same transaction as what it announces
 * (a payment, a shipment), so a crash between the two loses nothing; it is rendered and sent
 * afterwards, by `sendSoon()` right away or by the scheduler every minute. Rows are claimed before
 * sending, so several app servers never send the same message at once.
 */

export interface QueuedEmail {
  id: string;
  kind: string;
  recipient: string;
  orderId: string | null;
  payload: Record<string, unknown>;
}

/** Renders one kind of message; null when it no longer makes sense (e.g. its order is gone). */
export type EmailTemplate = (email: QueuedEmail) => Promise<Omit<MailMessage, "to"> | null>;
export type EmailTemplates = Readonly<Record<string, EmailTemplate>>;

/** A claim older than this is taken to have died with its server. */
const CLAIM_MINUTES = 5;
/** Give up after about three days of retries (and leave last_error for the shop to see). */
export const MAX_ATTEMPTS = 30;

/** Minutes to wait after the n-th failed attempt: 5, 5, 5, 8, 16, … up to 6 hours. */
export function retryDelayMinutes(attempts: number): number {
  return Math.max(CLAIM_MINUTES, Math.min(2 ** Math.max(0, attempts - 1), 360));
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
      sent_at: null,
      attempts: 0,
      last_error: null,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? id : null;
}

/**
 * 'Reenviar': a message that failed is tried again at once (its retries start over); one that was
 * sent is queued again as a new message. Returns false when there is no such message.
 */
export async function requeueEmail(db: Db, id: string, now = new Date()): Promise<boolean> {
  const row = await db.selectFrom("emails").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return false;
  if (row.sent_at === null) {
    await db
      .updateTable("emails")
      .set({ attempts: 0, claimed_at: null, last_error: null })
      .where("id", "=", id)
      .where("sent_at", "is", null)
      .execute();
    return true;
  }
  await queueEmail(db, {
    kind: row.kind,
    recipient: row.recipient,
    orderId: row.order_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    now,
  });
  return true;
}

/**
 * Sends queued e-mails that are due. A failure is recorded and retried later, with growing pauses,
 * for days; a kind without a template is a failure too (recorded, never silently dropped).
 */
export async function deliverPendingEmails(
  db: Db,
  mailer: Mailer,
  templates: EmailTemplates,
  now = new Date(),
): Promise<{ sent: number; failed: number }> {
  const queued = await db
    .selectFrom("emails")
    .selectAll()
    .where("sent_at", "is", null)
    .where("attempts", "<", MAX_ATTEMPTS)
    .orderBy("created_at")
    .limit(100)
    .execute();
  const due = queued.filter(
    (e) =>
      e.claimed_at === null ||
      now.getTime() - toDate(e.claimed_at).getTime() >= retryDelayMinutes(e.attempts) * 60_000,
  );
  let sent = 0;
  let failed = 0;
  for (const email of due.slice(0, 20)) {
    const claimed = await db
      .updateTable("emails")
      .set((eb) => ({ claimed_at: toTimestamp(now), attempts: eb("attempts", "+", 1) }))
      .where("id", "=", email.id)
      .where("sent_at", "is", null)
      .where((eb) =>
        email.claimed_at === null
          ? eb("claimed_at", "is", null)
          : eb("claimed_at", "=", toTimestamp(toDate(email.claimed_at))),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue; // another server took it
    try {
      const template = templates[email.kind];
      if (!template) throw new Error(`tipo de correo sin plantilla: ${email.kind}`);
      const message = await template({
        id: email.id,
        kind: email.kind,
        recipient: email.recipient,
        orderId: email.order_id,
        payload: JSON.parse(email.payload) as Record<string, unknown>,
      });
      if (!message) throw new Error("el correo ya no tiene de qué hablar (¿pedido borrado?)");
      if (!email.recipient) throw new Error("correo sin destinatario");
      await mailer.send({ to: email.recipient, ...message });
      await db
        .updateTable("emails")
        .set({ sent_at: toTimestamp(new Date()), last_error: null })
        .where("id", "=", email.id)
        .execute();
      sent++;
    } catch (error) {
      failed++;
      await db
        .updateTable("emails")
        .set({ last_error: String((error as Error).message ?? error).slice(0, 500) })
        .where("id", "=", email.id)
        .execute();
    }
  }
  return { sent, failed };
}

export interface MailQueue {
  /** Sends what is due now (the scheduler calls it every minute). */
  deliver(now?: Date): Promise<{ sent: number; failed: number }>;
  /** After queueing a message: send it now without making the caller wait; failures are retried later. */
  sendSoon(): void;
}

export function createMailQueue(
  db: Db,
  mailer: Mailer,
  templates: EmailTemplates,
  log: (line: string) => void,
): MailQueue {
  const deliver = (now?: Date) => deliverPendingEmails(db, mailer, templates, now);
  return {
    deliver,
    sendSoon() {
      void deliver().catch((error) => log(`Correos: ${(error as Error).message}`));
    },
  };
}
