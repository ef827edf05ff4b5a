import { type Db, toTimestamp } from "~/db/database.server";
import { WAITLIST_OPENING_EMAIL } from "./kinds";
import { isDue, NOT_NEEDED } from "./queue.server";

/*
 * A mail account's daily quota (MAIL_DAILY_LIMIT; many sending services count 24 hours back). A
 * drop's opening notices go to every 'Avísame' sign-up at once, thousands on a big drop: sent
 * without a budget they could use up the day's quota in the first minutes, and that drop's order
 * confirmations and payment vouchers would then wait for the next day. So the bulk kinds may use
 * the quota only down to a reserve kept for everything else; the rest of the notices wait, in
 * order, until messages of the last 24 hours drop out of the count. The other kinds always go.
 */

/** Kinds sent thousands at once: after every other kind, and within the daily budget. */
export const BULK_KINDS: readonly string[] = [WAITLIST_OPENING_EMAIL];

/** The share of the daily quota that bulk notices never take: kept for orders' and the owner's mail. */
export const DAILY_RESERVE_SHARE = 0.25;
const DAY_MS = 24 * 60 * 60_000;

/** The most bulk notices a 24-hour window may hold under `dailyLimit` (three quarters of it). */
export function bulkShareOf(dailyLimit: number): number {
  return dailyLimit - Math.ceil(dailyLimit * DAILY_RESERVE_SHARE);
}

/**
 * Messages sent in the 24 hours before `now`, counted up to `upTo` (those recorded as no longer
 * wanted were never sent). The count stops there: a day's thousands are not read for every batch.
 */
async function sentInLastDay(db: Db, now: Date, upTo: number): Promise<number> {
  const { sent } = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("emails")
        .select("id")
        .where("sent_at", ">", toTimestamp(new Date(now.getTime() - DAY_MS)))
        .where((w) => w.or([w("last_error", "is", null), w("last_error", "!=", NOT_NEEDED)]))
        .limit(upTo)
        .as("recent"),
    )
    .select((eb) => eb.fn.countAll<number | string>().as("sent"))
    .executeTakeFirstOrThrow();
  return Number(sent);
}

/** How many bulk notices (up to `atMost`) may still go now without eating into the reserve. */
export async function bulkNoticesAllowed(
  db: Db,
  now: Date,
  dailyLimit: number,
  atMost: number,
): Promise<number> {
  const share = bulkShareOf(dailyLimit);
  return Math.min(atMost, Math.max(0, share - (await sentInLastDay(db, now, share))));
}

export interface DailyBudget {
  limit: number;
  /** What bulk notices may use of it. */
  bulkShare: number;
  sentInLastDay: number;
  /** Notices due and waiting for the count to fall (0 while they may go). */
  noticesWaiting: number;
}

/** The owner's view of the budget (the mail log); null without MAIL_DAILY_LIMIT. */
export async function dailyBudget(
  db: Db,
  dailyLimit: number | null,
  now = new Date(),
): Promise<DailyBudget | null> {
  if (!dailyLimit) return null;
  const sent = await sentInLastDay(db, now, dailyLimit);
  const bulkShare = bulkShareOf(dailyLimit);
  let noticesWaiting = 0;
  if (sent >= bulkShare) {
    const { waiting } = await db
      .selectFrom("emails")
      .select((eb) => eb.fn.countAll<number | string>().as("waiting"))
      .where("kind", "in", BULK_KINDS)
      .where((eb) => isDue(eb, toTimestamp(now)))
      .executeTakeFirstOrThrow();
    noticesWaiting = Number(waiting);
  }
  return { limit: dailyLimit, bulkShare, sentInLastDay: sent, noticesWaiting };
}
