import type { Db } from "~/db/database.server";

/*
 * How many people wait before a place ('Hay 37 personas antes que tú'). Counted per look, that is
 * one index range of everyone ahead for every shopper every half second: N² rows a second while
 * thousands wait. Instead each process keeps the drop's waiting places in order, read again at
 * most every READ_EVERY_MS (and after its own rounds), and counts by binary search.
 *
 * A place that joins after the read is behind all of them (arrivals come in time order; during the
 * draw nobody is shown a count), so its count is right without a new read; places served or told
 * by another process are counted until this process's next read, at most a quarter second later.
 */

const READ_EVERY_MS = 250;
/** A drop nobody has looked at for this long is dropped from memory. */
const FORGET_AFTER_MS = 60_000;

interface WaitingPlaces {
  readAt: number;
  lookedAt: number;
  places: readonly string[];
  reading: Promise<readonly string[]> | null;
  /** Bumped by each change: a read begun before it is not kept as fresh. */
  generation: number;
}

const byDb = new WeakMap<Db, Map<string, WaitingPlaces>>();

/** The number of places of the drop's line still waiting before `place`. */
export async function placesBefore(db: Db, dropId: string, place: string): Promise<number> {
  const places = await waitingPlaces(db, dropId);
  return countBelow(places, place);
}

/** This process changed who waits in the drop's line: the next count reads it again. */
export function lineChanged(db: Db, dropId: string): void {
  const entry = byDb.get(db)?.get(dropId);
  if (!entry) return;
  entry.readAt = Number.NEGATIVE_INFINITY;
  entry.reading = null;
  entry.generation++;
}

/** Places sort as text of digits of one width (orders/opening.ts), so `<` orders them as the database does. */
export function countBelow(sorted: readonly string[], place: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < place) low = middle + 1;
    else high = middle;
  }
  return low;
}

async function waitingPlaces(db: Db, dropId: string): Promise<readonly string[]> {
  let drops = byDb.get(db);
  if (!drops) {
    drops = new Map();
    byDb.set(db, drops);
  }
  const now = performance.now();
  let entry = drops.get(dropId);
  if (!entry) {
    forgetQuiet(drops, now);
    entry = { readAt: Number.NEGATIVE_INFINITY, lookedAt: now, places: [], reading: null, generation: 0 };
    drops.set(dropId, entry);
  }
  entry.lookedAt = now;
  if (now - entry.readAt < READ_EVERY_MS) return entry.places;
  // One read at a time per drop: the looks meanwhile share it.
  if (!entry.reading) {
    const reading = readPlaces(db, dropId);
    const current = entry;
    const generation = current.generation;
    current.reading = reading;
    reading.then(
      (places) => {
        if (current.generation !== generation) return;
        current.places = places;
        current.readAt = now;
        current.reading = null;
      },
      () => {
        if (current.generation === generation) current.reading = null;
      },
    );
  }
  return entry.reading as Promise<readonly string[]>;
}

async function readPlaces(db: Db, dropId: string): Promise<readonly string[]> {
  const rows = await db
    .selectFrom("drop_line")
    .select("place")
    .where("drop_id", "=", dropId)
    .where("status", "=", "esperando")
    .orderBy("place")
    .execute();
  return rows.map((r) => r.place);
}

function forgetQuiet(drops: Map<string, WaitingPlaces>, now: number): void {
  for (const [id, entry] of drops) {
    if (now - entry.lookedAt > FORGET_AFTER_MS && !entry.reading) drops.delete(id);
  }
}
