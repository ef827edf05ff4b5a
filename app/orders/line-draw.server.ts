import { sql } from "kysely";
import { outsideRequests } from "~/config/log.server";
import { type Db, toTimestamp } from "~/db/database.server";
import { MOST_ROWS, powerOfTwoRuns, type QueryShape, shapeCache, slot } from "~/db/query-shapes";
import { createBatcher } from "~/lib/batcher";
import { newId } from "~/lib/ids";
import type { CheckoutLine } from "./cart-read.server";
import { addressCapRefusal, type LineDrop, lineDrops, waitingEntryOf } from "./line.server";
import { inLottery, lotteryEndsAt, placeFor } from "./opening";

/*
 * Taking a place in a drop's draw at the front door (decision 27). In the lottery's seconds every
 * shopper of the drop asks at once, and nothing can be served before it ends, so a place is taken
 * and answered at once: the opening's rules read from a copy at most a second old, the address's
 * places in the draw read, the place written. The places asked for within one turn of the event
 * loop are taken together, in one transaction (`takeDrawPlace` gathers them): one read of their
 * addresses' places, one insert of them all, one commit. No order of this drop exists yet (nobody
 * is served before the draw), so none is counted. The draw itself, and the per-address rule
 * again, strictly, happen when the line is served (line-serving.server.ts).
 */

/** The drops' opening rules, read at most this long ago. */
const RULES_FOR_MS = 1_000;

const rulesRead = new WeakMap<Db, Map<string, { at: number; drop: LineDrop | null }>>();

/** The copy of a drop's opening rules when it is fresh enough, without a wait. */
function rulesKept(db: Db, dropId: string): LineDrop | null | undefined {
  const seen = rulesRead.get(db)?.get(dropId);
  return seen && Date.now() - seen.at < RULES_FOR_MS ? seen.drop : undefined;
}

/** The opening rules of a drop, from a copy at most RULES_FOR_MS old. */
async function rulesOf(db: Db, dropId: string): Promise<LineDrop | null> {
  const kept = rulesKept(db, dropId);
  if (kept !== undefined) return kept;
  let byDrop = rulesRead.get(db);
  if (!byDrop) {
    byDrop = new Map();
    rulesRead.set(db, byDrop);
  }
  const [drop = null] = await lineDrops(db, [dropId]);
  // Only ids of real drops are kept (at most a few at a time), so junk ids cannot fill it.
  if (byDrop.size > 100) byDrop.clear();
  if (drop) byDrop.set(dropId, { at: Date.now(), drop });
  return drop;
}

/** Whether these are one drop's pieces and its lottery is on now. */
export async function inDraw(db: Db, dropIds: readonly string[], now = new Date()): Promise<boolean> {
  if (dropIds.length !== 1 || !dropIds[0]) return false;
  const drop = await rulesOf(db, dropIds[0]);
  return drop !== null && inLottery(drop, now);
}

export type DrawPlace =
  | { ok: true; entryId: string; drop: LineDrop; drawEndsAt: Date }
  | { ok: false; reason: "limite_conexion"; message: string }
  /** Its proof of work was spent before (by another request, on any app process): no place. */
  | { ok: false; reason: "prueba_usada" };

export interface DrawPlaceInput {
  lines: CheckoutLine[];
  browser: string;
  bucket: string;
  origin: string;
  /** When it was asked for (its place in the draw is drawn for this instant). */
  now?: Date;
  /** The single-use key of the proof of work that pays for the place, spent with it. */
  singleUse?: SingleUse;
}

/** A single-use key (a proof of work's), and how long it is remembered. */
export interface SingleUse {
  key: string;
  seconds: number;
}

/**
 * Spends single-use keys through `db` (in the transaction the places are written in): true for
 * each seen for the first time (RequestLimits.onceWithin).
 */
export type SpendWithin = (db: Db, keys: readonly SingleUse[]) => Promise<boolean[]>;

/** The statements of a batch, compiled once per number of rows (db/query-shapes.ts). */
const shapes = shapeCache();

/** The places waiting in a drop's draw from `rows` addresses. */
const placesShape = (db: Db, rows: number) =>
  shapes(db, `lugares ${rows}`, () =>
    db
      .selectFrom("drop_line")
      .select(["id", "browser", "cart", "address_bucket"])
      .where("drop_id", "=", slot(0, "drop"))
      .where("status", "=", "esperando")
      .where(
        "address_bucket",
        "in",
        Array.from({ length: rows }, (_, r) => slot(r, "bucket")),
      )
      .compile(),
  );

/** A multi-row insert of `rows` new places; those whose browser already waits are left out. */
const insertShape = (db: Db, rows: number) =>
  shapes(db, `lugar nuevo ${rows}`, () =>
    db
      .insertInto("drop_line")
      .values(
        Array.from({ length: rows }, (_, r) => ({
          id: slot(r, "id"),
          drop_id: slot(r, "drop_id"),
          browser: slot(r, "browser"),
          address_bucket: slot(r, "address_bucket"),
          cart: slot(r, "cart"),
          origin: slot(r, "origin"),
          place: slot(r, "place"),
          status: "esperando" as const,
          joined_at: slot(r, "joined_at"),
          seen_at: slot(r, "seen_at"),
          updated_at: slot(r, "updated_at"),
        })),
      )
      // The partial unique index drop_line_one_per_browser, named by its columns and condition.
      .onConflict((oc) =>
        oc.columns(["drop_id", "browser"]).where("status", "=", sql.lit("esperando")).doNothing(),
      )
      .returning("id")
      .compile(),
  );

/**
 * Compiles every shape of a batch's statements now (and returns them, for SQLite to prepare): the
 * first batch of an opening is the biggest, and compiling its 256-row statements then cost
 * milliseconds of the rush.
 */
export function compileDrawShapes(db: Db): QueryShape[] {
  const compiled: QueryShape[] = [];
  for (let rows = 1; rows <= MOST_ROWS; rows *= 2)
    compiled.push(placesShape(db, rows), insertShape(db, rows));
  return compiled;
}

/** Most places written in one transaction; more wait for the next. */
const MOST_PER_BATCH = MOST_ROWS;

/**
 * Takes a place in the draw of the cart's drop, when that drop's lottery is on at the moment it is
 * asked for: its place, or null (the checkout goes the usual way). One place per browser and drop:
 * asking again answers the same one. The places asked for within one turn of the event loop are
 * written together (`takeDrawPlaces`), their proofs spent with them by `spend`.
 */
export function drawPlaceTaker(
  db: Db,
  spend: SpendWithin,
): (input: DrawPlaceInput) => Promise<DrawPlace | null> {
  const take = createBatcher<DrawPlaceInput, DrawPlace | null>({
    write: (inputs) => takeDrawPlaces(db, inputs, spend),
    maxItems: MOST_PER_BATCH,
    // The batch speaks for all its requests: its lines carry none's id.
    schedule: (run) => outsideRequests(() => setImmediate(run)),
  });
  return (input) => take({ ...input, now: input.now ?? new Date() });
}

/**
 * `drawPlaceTaker`'s writing, for many at once, in one transaction, answered in the order asked:
 * for each, its place (or the one its browser already has), a refusal (the address's cap, its
 * proof already spent), null when its cart is in no draw at its `now`, or an Error for that one
 * alone (its browser's place vanished between the write and the read: it goes the usual way). Its
 * proof is spent first, also when the place is refused or already its browser's. A failure of the
 * transaction throws: nothing of it is kept.
 */
export async function takeDrawPlaces(
  db: Db,
  inputs: readonly DrawPlaceInput[],
  spend?: SpendWithin,
): Promise<(DrawPlace | null | Error)[]> {
  const results: (DrawPlace | null | Error)[] = inputs.map(() => null);
  const byDrop = new Map<string, { drop: LineDrop; asked: number[] }>();
  /** The inputs whose draw is on at their `now`, and their drop. */
  const inDrawNow = new Map<number, LineDrop>();
  for (const [i, input] of inputs.entries()) {
    const dropIds = [...new Set(input.lines.map((l) => l.dropId))];
    if (dropIds.length !== 1 || !dropIds[0]) continue;
    // The copy the front door just read, mostly: a wait only for one past its second.
    const drop = rulesKept(db, dropIds[0]) ?? (await rulesOf(db, dropIds[0]));
    if (!drop || !inLottery(drop, input.now ?? new Date())) continue;
    inDrawNow.set(i, drop);
  }
  if (inDrawNow.size === 0) return results;
  await db.transaction().execute(async (trx) => {
    const paying = spend ? [...inDrawNow.keys()].filter((i) => inputs[i]?.singleUse) : [];
    const fresh = paying.length
      ? await (spend as SpendWithin)(
          trx,
          paying.map((i) => inputs[i]?.singleUse as SingleUse),
        )
      : [];
    const spentBefore = new Set(paying.filter((_, k) => !fresh[k]));
    for (const [i, drop] of inDrawNow) {
      if (spentBefore.has(i)) {
        results[i] = { ok: false, reason: "prueba_usada" };
        continue;
      }
      const found = byDrop.get(drop.id);
      if (found) found.asked.push(i);
      else byDrop.set(drop.id, { drop, asked: [i] });
    }
    for (const { drop, asked } of byDrop.values()) {
      await placesInDraw(db, trx, drop, asked, inputs, results);
    }
  });
  return results;
}

/** The places of one drop's draw for the inputs at `asked`, written in `results`. */
async function placesInDraw(
  db: Db,
  trx: Db,
  drop: LineDrop,
  asked: readonly number[],
  inputs: readonly DrawPlaceInput[],
  results: (DrawPlace | null | Error)[],
): Promise<void> {
  const drawEndsAt = lotteryEndsAt(drop);
  const placed = (entryId: string): DrawPlace => ({ ok: true, entryId, drop, drawEndsAt });
  // The places already waiting in this draw from the addresses asking, by address.
  const byBucket = new Map<string, { id: string; browser: string; cart: string }[]>();
  const buckets = [...new Set(asked.map((i) => (inputs[i] as DrawPlaceInput).bucket))];
  for (const run of powerOfTwoRuns(buckets)) {
    const shape = placesShape(db, run.length);
    const { rows } = await trx.executeQuery<{
      id: string;
      browser: string;
      cart: string;
      address_bucket: string;
    }>(shape.fill(run.map((bucket) => ({ drop: drop.id, bucket }))));
    for (const row of rows) {
      const list = byBucket.get(row.address_bucket) ?? [];
      list.push(row);
      byBucket.set(row.address_bucket, list);
    }
  }
  // In the order asked: a browser's own place, the address's cap (counting the places of this
  // batch before it), or a new place.
  const rows: {
    id: string;
    drop_id: string;
    browser: string;
    address_bucket: string;
    cart: string;
    origin: string;
    place: string;
    status: "esperando";
    joined_at: string;
    seen_at: string;
    updated_at: string;
  }[] = [];
  const newPlaceOf = new Map<string, string>();
  const awaiting = new Map<string, number[]>();
  for (const i of asked) {
    const input = inputs[i] as DrawPlaceInput;
    const now = input.now ?? new Date();
    const at = toTimestamp(now);
    const places = byBucket.get(input.bucket) ?? [];
    const own = newPlaceOf.get(input.browser) ?? places.find((t) => t.browser === input.browser)?.id;
    if (own !== undefined) {
      results[i] = placed(own);
      const same = awaiting.get(own);
      if (same) same.push(i);
      continue;
    }
    const over = addressCapRefusal(drop, 0, places, input.lines);
    if (over) {
      results[i] = over;
      continue;
    }
    const id = newId();
    const cart = JSON.stringify(input.lines);
    rows.push({
      id,
      drop_id: drop.id,
      browser: input.browser,
      address_bucket: input.bucket,
      cart,
      origin: input.origin,
      place: placeFor(drop, now),
      status: "esperando",
      joined_at: at,
      seen_at: at,
      updated_at: at,
    });
    places.push({ id, browser: input.browser, cart });
    byBucket.set(input.bucket, places);
    newPlaceOf.set(input.browser, id);
    awaiting.set(id, [i]);
    results[i] = placed(id);
  }
  const written = new Set<string>();
  // In the browsers' order: two app processes' batches that both place one browser (its requests
  // sent to both at once) wait for each other in the same order, never in a circle (PostgreSQL).
  rows.sort((a, b) => (a.browser < b.browser ? -1 : a.browser > b.browser ? 1 : 0));
  for (const run of powerOfTwoRuns(rows)) {
    const shape = insertShape(db, run.length);
    const inserted = await trx.executeQuery<{ id: string }>(shape.fill(run));
    for (const row of inserted.rows) written.add(row.id);
  }
  // A browser placed meanwhile by another app process: its first place stands, and is its answer.
  for (const row of rows) {
    if (written.has(row.id)) continue;
    const first = await waitingEntryOf(trx, drop.id, row.browser);
    for (const i of awaiting.get(row.id) ?? []) {
      results[i] = first ? placed(first) : new Error("El lugar de este navegador no se encontró.");
    }
  }
}
