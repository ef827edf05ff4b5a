import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { inOpening, LOTTERY_LEAD_SECONDS } from "./opening";

/** The rush of an opening: its first hour at most, even when its rules last longer. */
const RUSH_MINUTES = 60;

/**
 * Whether a drop the public sees is in the rush of its opening (decision 27): from its lottery
 * until its opening's rules end, an hour at most. Background work that writes a lot (the request
 * limits' cleanup) waits meanwhile: then every write is a shopper's.
 */
export async function openingRushUnderway(db: Db, now = new Date()): Promise<boolean> {
  const drops = await db
    .selectFrom("drops")
    .select(["start_at", "lottery_seconds", "opening_minutes"])
    .where("status", "!=", "archivada")
    .where("visible_from", "<=", toTimestamp(now))
    .where("start_at", "<=", toTimestamp(new Date(now.getTime() + LOTTERY_LEAD_SECONDS * 1000)))
    .where("end_at", ">=", toTimestamp(now))
    .execute();
  return drops.some((d) =>
    inOpening(
      {
        startAt: toDate(d.start_at),
        lotterySeconds: d.lottery_seconds,
        openingMinutes: Math.min(d.opening_minutes, RUSH_MINUTES),
      },
      now,
    ),
  );
}
