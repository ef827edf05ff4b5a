import { type Db, toTimestamp } from "~/db/database.server";

/*
 * A mail account's daily quota (MAIL_DAILY_LIMIT; many sending services count 24 hours back). A
 * drop's opening notices go to every 'Avísame' sign-up at once, thousands on a big drop: sent
 * without a budget they could use up the day's quota in the first minutes, and that drop's order
 * confirmations and payment vouchers would then wait for the next day. So the bulk kinds may use
 * the quota only down to a reserve kept for everything else; the rest of the notices wait, in
 * order, until messages of the last 24 hours drop out of the count. The other kinds always go.
 */

/** The share of the daily quota that bulk notices never take: kept for orders' and the owner's mail. */
export const DAILY_RESERVE_SHARE = 0.25;
const DAY_MS = 24 * 60 * 60_000;

/** How many bulk notices may still go now without eating into the reserve (0 or more). */
export async function bulkNoticesAllowed(db: Db, now: Date, dailyLimit: number): Promise<number> {
  const reserve = Math.ceil(dailyLimit * DAILY_RESERVE_SHARE);
  const { sent } = await db
    .selectFrom("emails")
    .select((eb) => eb.fn.countAll<number | string>().as("sent"))
    .where("sent_at", ">", toTimestamp(new Date(now.getTime() - DAY_MS)))
    // Recorded as done without being sent (no longer wanted): not counted by the mail server.
    .where("last_error", "is", null)
    .executeTakeFirstOrThrow();
  return Math.max(0, dailyLimit - reserve - Number(sent));
}
