import { log } from "~/config/log.server";
import { type Db, toTimestamp } from "~/db/database.server";
import { bulkNoticesAllowed, bulkShareOf } from "./daily-budget.server";
import type { Mailer } from "./mailer.server";
import {
  type EmailTemplates,
  isDue,
  MAIL_BATCH,
  MAX_ATTEMPTS,
  NOT_NEEDED,
  retryDelayMinutes,
} from "./queue.server";

/*
 * Sending what the queue holds (app/mail/queue.server.ts): a batch claims each due message, renders
 * it and sends it; a round sends batch after batch, one round at a time per process.
 */

/**
 * Sends the messages that are due, oldest first, one batch. A failure is recorded and retried
 * later, with growing pauses, for days; a kind without a template is a failure too (recorded,
 * never dropped).
 */
export async function deliverPendingEmails(
  db: Db,
  mailer: Mailer,
  templates: EmailTemplates,
  now = new Date(),
  options: MailQueueOptions = {},
): Promise<{ sent: number; failed: number }> {
  const { sent, failed } = await deliverBatch(db, mailer, templates, now, options);
  return { sent, failed };
}

/** What `last_error` says of a last attempt the process stopped in the middle of. */
export const INTERRUPTED =
  "el último intento se interrumpió (la tienda se detuvo a la mitad): no se sabe si llegó";

/**
 * A last attempt cut short (the process stopped while sending) left nothing saying it failed: the
 * message would read 'Pendiente' for ever and never be tried again. Once its claim is over it is
 * a failure, which the mail log and the order show, with 'Reenviar'. Earlier attempts need none of
 * this: their claim running out makes them due again.
 */
async function markInterruptedLastAttempts(db: Db, stamp: string): Promise<void> {
  await db
    .updateTable("emails")
    .set({ last_error: INTERRUPTED })
    .where("sent_at", "is", null)
    .where("last_error", "is", null)
    .where("attempts", ">=", MAX_ATTEMPTS)
    .where("next_attempt_at", "<=", stamp)
    .execute();
}

/**
 * The batch's rows, oldest first: only rows that are due (old messages that keep failing never hold
 * up new ones). Bulk kinds (a drop's opening notices, thousands at once) go after the rest: an
 * order's confirmation queued in the middle of them is not kept waiting behind them. Two reads from
 * the index on (sent_at, kind, created_at) (migration 0045), the other kinds then the bulk ones:
 * one read ordered by kind and then age sorted every unsent message for each batch.
 */
async function dueEmails(
  db: Db,
  stamp: string,
  bulk: readonly string[],
  bulkAllowed: ((atMost: number) => Promise<number>) | null,
) {
  const due = () =>
    db
      .selectFrom("emails")
      .selectAll()
      .where((eb) => isDue(eb, stamp));
  // Every kind but the bulk ones, a kind without a template too (it fails, recorded). `kind <> k`
  // is written `kind < k or kind > k`: the same rows, read as two ranges of the index. They are
  // few and sorted once read; sorted by `coalesce(sent_at, created_at)`, which is created_at (sent_at
  // is empty), so that PostgreSQL does not walk the mail log's index on created_at for them.
  const regular = await due()
    .$if(bulk.length > 0, (q) =>
      q.where((eb) => eb.and(bulk.map((kind) => eb.or([eb("kind", "<", kind), eb("kind", ">", kind)])))),
    )
    .orderBy((eb) => eb.fn.coalesce("sent_at", "created_at"))
    .limit(MAIL_BATCH)
    .execute();
  // `held`: whether bulk notices wait for the daily budget; null when this batch cannot tell.
  if (bulk.length === 0 || regular.length === MAIL_BATCH) return { due: regular, held: null };
  const slots = MAIL_BATCH - regular.length;
  // In the index's order: sent_at named first, since PostgreSQL takes `is null` for no equality.
  const notices = await due()
    .where("kind", "in", bulk)
    .orderBy("sent_at")
    .orderBy("created_at")
    .limit(slots)
    .execute();
  // The budget is counted only when notices are due (most batches have none).
  if (notices.length === 0 || !bulkAllowed)
    return { due: [...regular, ...notices], held: notices.length > 0 ? false : null };
  const allowed = await bulkAllowed(slots);
  const sending = notices.slice(0, allowed);
  // Waiting when the budget stopped some; going when every notice due fits (all were read, or the
  // budget has room for a whole batch); otherwise (the batch's slots stopped them) not known.
  const held =
    allowed < notices.length ? true : notices.length < slots || allowed >= MAIL_BATCH ? false : null;
  return { due: [...regular, ...sending], held };
}

/** One batch; `full` when it took a whole batch of due rows (more may be waiting). */
async function deliverBatch(
  db: Db,
  mailer: Mailer,
  templates: EmailTemplates,
  now: Date,
  options: MailQueueOptions & { stop?: () => boolean },
): Promise<{ sent: number; failed: number; full: boolean; held: boolean | null }> {
  const stamp = toTimestamp(now);
  await markInterruptedLastAttempts(db, stamp);
  const { dailyLimit } = options;
  const { due, held } = await dueEmails(
    db,
    stamp,
    options.bulkKinds ?? [],
    dailyLimit ? (atMost) => bulkNoticesAllowed(db, now, dailyLimit, atMost) : null,
  );
  let sent = 0;
  let failed = 0;
  // Each message is claimed from the moment it is taken, not the batch's start: a slow mail server
  // (20 s a message) would otherwise hand the batch's last ones a claim already over, for another
  // server's run to send again. A batch that runs long stops short of its claims' length.
  const started = Date.now();
  for (const [index, email] of due.entries()) {
    const elapsed = Date.now() - started;
    if (elapsed > CLAIM_MARGIN_MS || options.stop?.())
      return { sent, failed, full: index < due.length, held };
    const claimAt = new Date(now.getTime() + elapsed);
    const claimStamp = toTimestamp(claimAt);
    const retryAt = new Date(claimAt.getTime() + retryDelayMinutes(email.attempts + 1) * 60_000);
    const claimed = await db
      .updateTable("emails")
      .set((eb) => ({
        claimed_at: claimStamp,
        next_attempt_at: toTimestamp(retryAt),
        attempts: eb("attempts", "+", 1),
        last_error: null,
      }))
      .where("id", "=", email.id)
      .where("sent_at", "is", null)
      .where((eb) => eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", claimStamp)]))
      // Readdressed since it was read (a buyer's e-mail corrected): the next batch sends it anew.
      .where("recipient", "=", email.recipient)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue; // another server took it, or it was readdressed
    // Kept for the mail log: what the owner's customers read in their inbox (or would have).
    let subject: string | null = null;
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
      if (message === false) {
        await db
          .updateTable("emails")
          .set({ sent_at: toTimestamp(new Date()), last_error: NOT_NEEDED })
          .where("id", "=", email.id)
          .execute();
        continue;
      }
      if (!message) throw new Error("la plantilla no pudo armar el correo");
      subject = message.subject.slice(0, 500);
      if (!email.recipient) throw new Error("correo sin destinatario");
      await mailer.send({ to: email.recipient, ...message });
      sent++;
      // It left: recorded with retries, since a message recorded as failed would go out again.
      if (!(await recordSent(db, email.id, subject)))
        log.error(
          { emailId: email.id },
          "Correo enviado, pero no se pudo registrar como enviado: puede salir otra vez",
        );
    } catch (error) {
      failed++;
      const refused = addressRefused(error);
      await db
        .updateTable("emails")
        .set({
          last_error: (refused ?? String((error as Error).message ?? error)).slice(0, 500),
          ...(subject === null ? {} : { subject }),
          // No retry can deliver to an address that does not exist: failed for good, said why.
          ...(refused ? { attempts: MAX_ATTEMPTS, next_attempt_at: null } : {}),
        })
        .where("id", "=", email.id)
        .execute();
    }
  }
  return { sent, failed, full: due.length === MAIL_BATCH, held };
}

/**
 * The recipient's mail server said the address does not exist (RCPT TO refused with a 5xx and an
 * enhanced status 5.1.x: no such mailbox, bad address): the owner reads why, at once, instead of
 * five days of retries. Other 5xx (a sending quota, 5.4.x/5.7.x policy) are retried as before.
 */
export function addressRefused(error: unknown): string | null {
  const e = error as { code?: unknown; responseCode?: unknown; response?: unknown };
  if (e?.code !== "EENVELOPE" || typeof e.responseCode !== "number") return null;
  const response = typeof e.response === "string" ? e.response : "";
  const permanent = e.responseCode === 551 || e.responseCode === 553 || /\b5\.1\.\d+\b/.test(response);
  if (e.responseCode < 500 || !permanent) return null;
  return `Dirección rechazada por su servidor de correo (no existe o está mal escrita): ${response}`;
}

/** Records a message as sent, trying a few times over a second or so; false if it never could. */
async function recordSent(db: Db, emailId: string, subject: string | null): Promise<boolean> {
  for (let attempt = 1; attempt <= RECORD_SENT_TRIES; attempt++) {
    try {
      await db
        .updateTable("emails")
        .set({ sent_at: toTimestamp(new Date()), subject })
        .where("id", "=", emailId)
        .execute();
      return true;
    } catch {
      if (attempt < RECORD_SENT_TRIES) await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
  return false;
}
const RECORD_SENT_TRIES = 4;

/** How long one batch takes messages: well inside the shortest claim (a retry's 5 minutes). */
const CLAIM_MARGIN_MS = 3 * 60_000;

/** Batches one round may send back to back (a drop's opening notices: 500 a round). */
const MAX_BATCHES = 25;

export interface MailQueue {
  /**
   * Sends what is due now (the scheduler calls it every minute), batch after batch while they
   * come back full and without failures. One round at a time per process: asked during a round,
   * it runs one more round once that one ends (however many asked meanwhile) and answers with it.
   */
  deliver(now?: Date): Promise<{ sent: number; failed: number }>;
  /** After queueing a message: send it now without making the caller wait; failures are retried later. */
  sendSoon(): void;
  /** Stops taking messages and waits for the one being sent (before the database closes at shutdown). */
  drain(): Promise<void>;
}

type Delivered = { sent: number; failed: number };

export interface MailQueueOptions {
  /** Kinds sent thousands at once (a drop's opening notices): after the others, within the budget. */
  bulkKinds?: readonly string[];
  /** The mail account's quota per 24 hours (MAIL_DAILY_LIMIT): bulk kinds keep a reserve of it free. */
  dailyLimit?: number | null;
}

/** Someone waiting for a round: `deliver` (told how it went) or `sendSoon` (failures only logged). */
interface Ask {
  now?: Date;
  done?: (delivered: Delivered) => void;
  failed?: (error: unknown) => void;
}

export function createMailQueue(
  db: Db,
  mailer: Mailer,
  templates: EmailTemplates,
  log: (line: string) => void,
  options: MailQueueOptions = {},
): MailQueue {
  // Stopping (drain): the message being sent finishes, no other is taken (the next start sends it).
  let stopping = false;
  const stop = () => stopping;
  // Said once when notices start waiting for the daily budget, and once when they go again.
  let holding = false;
  const round = async (now?: Date): Promise<Delivered> => {
    let sent = 0;
    let failed = 0;
    for (let batch = 0; batch < MAX_BATCHES && !stopping; batch++) {
      const done = await deliverBatch(db, mailer, templates, now ?? new Date(), { ...options, stop });
      sent += done.sent;
      failed += done.failed;
      if (done.held !== null && done.held !== holding) {
        holding = done.held;
        log(
          holding
            ? `Correos: los avisos masivos esperan; el límite diario (MAIL_DAILY_LIMIT=${options.dailyLimit}) guarda ${(options.dailyLimit ?? 0) - bulkShareOf(options.dailyLimit ?? 0)} para pedidos y el resto de los correos`
            : "Correos: los avisos masivos vuelven a salir",
        );
      }
      // Most of a batch failing is the mail server being down: the next minute tries again, not
      // now. One address refused (a full mailbox, a typo) does not hold up the others.
      if (!done.full || done.failed > done.sent) break;
    }
    return { sent, failed };
  };
  // One round at a time: every paid order, sign-up and job asks for one, and rounds side by side
  // would each read the backlog and compete for its rows (on drop day, one more per payment).
  // Whoever asks during a round is served by the one round that follows it, which sees what they
  // queued: nothing asked for is left waiting for the next minute.
  let asks: Ask[] = [];
  let pump: Promise<void> | null = null;
  const run = async () => {
    while (asks.length > 0) {
      const these = asks;
      asks = [];
      try {
        // The latest asker's time (tests give one; the app never does).
        const delivered = await round(these[these.length - 1]?.now);
        for (const ask of these) ask.done?.(delivered);
      } catch (error) {
        if (these.some((ask) => !ask.failed)) log(`Correos: ${(error as Error).message}`);
        for (const ask of these) ask.failed?.(error);
      }
    }
    pump = null;
  };
  const ask = (one: Ask) => {
    asks.push(one);
    pump ??= run();
  };
  return {
    deliver: (now?: Date) => new Promise<Delivered>((done, failed) => ask({ now, done, failed })),
    sendSoon() {
      if (stopping) return;
      ask({});
    },
    async drain() {
      stopping = true;
      await pump;
    },
  };
}
