import type { DropStatus } from "~/db/taxonomy";

/** Where a drop stands by its dates alone. */
export type DropTimeState = "pending" | "running" | "ended";

export const DROP_TIME_LABELS: Record<DropTimeState, string> = {
  pending: "Próximamente",
  running: "Activo",
  ended: "Finalizado",
};

export interface DropDates {
  startAt: Date;
  endAt: Date;
}

/**
 * Before start: pending. From start to end, both inclusive: running. After end: ended. Drop dates
 * are set to the second, so the whole last second still counts (an end of 18:00:00 sells until
 * 18:00:00.999).
 */
export function dropTimeState(drop: DropDates, now: Date): DropTimeState {
  const t = now.getTime();
  if (t < drop.startAt.getTime()) return "pending";
  if (Math.floor(t / 1000) <= Math.floor(drop.endAt.getTime() / 1000)) return "running";
  return "ended";
}

/** A piece can be bought only while its drop runs by its dates and is not archived by hand. */
export function isDropPurchasable(drop: DropDates & { status: DropStatus }, now: Date): boolean {
  return drop.status !== "archivada" && dropTimeState(drop, now) === "running";
}

/**
 * The drop the floating countdown points at: among drops that can be bought now, the one that
 * ends first (its clock is the most urgent). Null when nothing runs.
 */
export function currentRunningDrop<T extends DropDates & { status: DropStatus }>(
  drops: T[],
  now: Date,
): T | null {
  let best: T | null = null;
  for (const drop of drops) {
    if (!isDropPurchasable(drop, now)) continue;
    if (!best || drop.endAt.getTime() < best.endAt.getTime()) best = drop;
  }
  return best;
}

/**
 * The first instant the drop no longer sells: the end is inclusive to its whole second, so an end
 * of 18:00:00 stops selling at 18:00:01.000.
 */
export function salesEndAt(drop: DropDates): Date {
  return new Date(Math.floor(drop.endAt.getTime() / 1000) * 1000 + 1000);
}

/** When the drop's time state next changes after `now`; null once it has ended. */
export function nextChangeAt(drop: DropDates, now: Date): Date | null {
  const state = dropTimeState(drop, now);
  if (state === "pending") return drop.startAt;
  if (state === "running") return salesEndAt(drop);
  return null;
}

/** A drop's dates as pages carry them (ISO text), with its hand-set archive flag. */
export interface DropMoment {
  startsAt: string;
  endsAt: string;
  archived: boolean;
}

export function datesOf(drop: DropMoment): DropDates {
  return { startAt: new Date(drop.startsAt), endAt: new Date(drop.endsAt) };
}

/** The instants at which any of these drops opens or stops selling: when their pages change. */
export function changeInstants(drops: DropMoment[]): number[] {
  return drops.flatMap((d) => {
    const dates = datesOf(d);
    return [dates.startAt.getTime(), salesEndAt(dates).getTime()];
  });
}

export interface Countdown {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** True once the target has been reached. */
  done: boolean;
}

/**
 * Whole days, then hours 0-23, minutes and seconds left until `target` (never negative). A part of
 * a second counts as a second, so the clock reads 00:00:00 only once the target is reached.
 */
export function countdownTo(target: Date, now: Date): Countdown {
  const totalSeconds = Math.max(0, Math.ceil((target.getTime() - now.getTime()) / 1000));
  return {
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
    done: totalSeconds === 0,
  };
}

const two = (n: number) => String(n).padStart(2, "0");

/** "2 días 03 h 10 min 05 s": a countdown in one line of text. */
export function countdownText(c: Countdown): string {
  const days = c.days > 0 ? `${c.days} ${c.days === 1 ? "día" : "días"} ` : "";
  return `${days}${two(c.hours)} h ${two(c.minutes)} min ${two(c.seconds)} s`;
}
