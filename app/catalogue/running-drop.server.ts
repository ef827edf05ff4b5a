import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { currentRunningDrop } from "./drop-time";
import { dropHref } from "./views.server";

/**
 * The drop on sale at `now` that the public sees (the one ending first when several run, like the
 * floating countdown's), as a link: a product page of another drop points to it, so an ended or
 * sold-out piece is never a dead end. Null when none runs.
 */
export async function runningDropLink(
  db: Db,
  now: Date,
): Promise<{ id: string; name: string; href: string } | null> {
  const stamp = toTimestamp(now);
  const rows = await db
    .selectFrom("drops")
    .select(["id", "name", "start_at", "end_at", "status"])
    .where("status", "!=", "archivada")
    .where("visible_from", "<=", stamp)
    .where("start_at", "<=", stamp)
    // Its end is inclusive to the whole second (drop-time.ts): the exact rule is applied below.
    .where("end_at", ">=", toTimestamp(new Date(now.getTime() - 1_000)))
    .execute();
  const running = currentRunningDrop(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      startAt: toDate(r.start_at),
      endAt: toDate(r.end_at),
      status: r.status,
    })),
    now,
  );
  return running && { id: running.id, name: running.name, href: dropHref(running.id) };
}
