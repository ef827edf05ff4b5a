import { type ExpressionBuilder, sql } from "kysely";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import type { KyselyDatabase } from "~/db/schema";
import { NOT_NEEDED } from "~/mail/queue.server";
import {
  MAIL_LOG_PAGE_SIZE,
  MAIL_STATES,
  type MailScope,
  type MailState,
  UNDELIVERED_NOTICE_DAYS,
} from "./mail-log";

/*
 * The shop's mail log (decision 25): every message of the queue (app/mail/queue.server.ts), newest
 * first, with how it stands. Read-only, but for 'Reenviar' (`retryFailedEmail` in the queue).
 */

export interface MailLogEntry {
  id: string;
  kind: string;
  recipient: string;
  /** As its template wrote it at the last attempt; null before any. */
  subject: string | null;
  state: MailState;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  /** When a failed message will be tried again (null: due now, or never again). */
  nextAttemptAt: Date | null;
}

type Emails = ExpressionBuilder<KyselyDatabase, "emails">;

/** The rows in one state, as a condition. */
function inState(eb: Emails, state: MailState) {
  switch (state) {
    case "pendiente":
      return eb.and([eb("sent_at", "is", null), eb("last_error", "is", null)]);
    case "fallido":
      return eb.and([eb("sent_at", "is", null), eb("last_error", "is not", null)]);
    case "descartado":
      return eb.and([eb("sent_at", "is not", null), eb("last_error", "=", NOT_NEEDED)]);
    case "enviado":
      return eb.and([
        eb("sent_at", "is not", null),
        eb.or([eb("last_error", "is", null), eb("last_error", "!=", NOT_NEEDED)]),
      ]);
  }
}

function stateOf(row: { sent_at: unknown; last_error: string | null }): MailState {
  if (row.sent_at === null) return row.last_error === null ? "pendiente" : "fallido";
  return row.last_error === NOT_NEEDED ? "descartado" : "enviado";
}

/** One page of the log, newest first, in one state or all, of all messages or only orders'; `more` when an older page exists. */
export async function listMailLog(
  db: Db,
  query: { state: MailState | null; scope?: MailScope; page: number },
): Promise<{ entries: MailLogEntry[]; more: boolean }> {
  const rows = await db
    .selectFrom("emails")
    .select([
      "id",
      "kind",
      "recipient",
      "subject",
      "sent_at",
      "last_error",
      "attempts",
      "created_at",
      "next_attempt_at",
    ])
    .$if(query.state !== null, (q) => q.where((eb) => inState(eb, query.state ?? "pendiente")))
    .$if(query.scope === "pedidos", (q) => q.where("order_id", "is not", null))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(MAIL_LOG_PAGE_SIZE + 1)
    .offset((query.page - 1) * MAIL_LOG_PAGE_SIZE)
    .execute();
  const entries = rows.slice(0, MAIL_LOG_PAGE_SIZE).map((r) => {
    const state = stateOf(r);
    return {
      id: r.id,
      kind: r.kind,
      recipient: r.recipient,
      subject: r.subject,
      state,
      attempts: r.attempts,
      lastError: state === "fallido" ? r.last_error : null,
      createdAt: toDate(r.created_at),
      sentAt: r.sent_at === null ? null : toDate(r.sent_at),
      nextAttemptAt: state === "fallido" && r.next_attempt_at !== null ? toDate(r.next_attempt_at) : null,
    };
  });
  return { entries, more: rows.length > MAIL_LOG_PAGE_SIZE };
}

/** How many messages (of all, or only orders') are in each state (the filter's tabs say it). */
export async function countMailByState(db: Db, scope: MailScope = null): Promise<Record<MailState, number>> {
  const counts = Object.fromEntries(MAIL_STATES.map((s) => [s, 0])) as Record<MailState, number>;
  const rows = await db
    .selectFrom("emails")
    .select([
      sql<number>`sum(case when sent_at is null and last_error is null then 1 else 0 end)`.as("pendiente"),
      sql<number>`sum(case when sent_at is null and last_error is not null then 1 else 0 end)`.as("fallido"),
      sql<number>`sum(case when sent_at is not null and last_error = ${NOT_NEEDED} then 1 else 0 end)`.as(
        "descartado",
      ),
      (eb) => eb.fn.countAll<number>().as("total"),
    ])
    .$if(scope === "pedidos", (q) => q.where("order_id", "is not", null))
    .executeTakeFirst();
  if (!rows) return counts;
  counts.pendiente = Number(rows.pendiente ?? 0);
  counts.fallido = Number(rows.fallido ?? 0);
  counts.descartado = Number(rows.descartado ?? 0);
  counts.enviado = Number(rows.total ?? 0) - counts.pendiente - counts.fallido - counts.descartado;
  return counts;
}

/**
 * Messages about an order (a confirmation, a voucher, a shipment, a return) queued in the last
 * days that have not gone out and whose last attempt failed: the administration says so on every
 * page (routes/admin/layout.tsx), since a buyer without her confirmation has no link to her order.
 * Read from the failed unsent messages' own index (migration 0048): a few rows, even while an
 * opening's thousands of 'Avísame' notices wait. Those, and test messages, are left out.
 */
export async function countUndeliveredOrderMail(db: Db, now = new Date()): Promise<number> {
  const since = toTimestamp(new Date(now.getTime() - UNDELIVERED_NOTICE_DAYS * 86_400_000));
  const row = await db
    .selectFrom("emails")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("sent_at", "is", null)
    .where("created_at", ">=", since)
    .where("last_error", "is not", null)
    .where("order_id", "is not", null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
