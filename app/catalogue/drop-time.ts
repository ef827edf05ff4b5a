import type { DropStatus } from "./taxonomy";

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

export interface Countdown {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** True once the target has been reached. */
  done: boolean;
}

/** Whole days, then hours 0-23, minutes and seconds left until `target` (never negative). */
export function countdownTo(target: Date, now: Date): Countdown {
  const totalSeconds = Math.max(0, Math.floor((target.getTime() - now.getTime()) / 1000));
  return {
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
    done: totalSeconds === 0,
  };
}
