import { dropTimeState } from "./drop-time";
import type { DropStatus } from "./taxonomy";

/** The home page shows every drop that has not been archived by hand, running ones first. */
export function dropsForHome<T extends { status: DropStatus; startAt: Date; endAt: Date }>(
  drops: T[],
  now: Date,
): T[] {
  const order = { running: 0, pending: 1, ended: 2 } as const;
  return drops
    .filter((d) => d.status !== "archivada")
    .map((d, i) => ({ d, i, rank: order[dropTimeState(d, now)] }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ d }) => d);
}
