import type { CompiledQuery } from "kysely";
import { type Db, isUniqueViolation, toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";
import type { CheckoutLine } from "./cart-read.server";
import { addressCapRefusal, type LineDrop, lineDrops, waitingEntryOf } from "./line.server";
import { inLottery, lotteryEndsAt, placeFor } from "./opening";

/*
 * Taking a place in a drop's draw at the front door (decision 27). In the lottery's seconds every
 * shopper of the drop asks at once, and nothing can be served before it ends, so a place is taken
 * with two prepared statements and answered at once: the opening's rules read from a copy at most
 * a second old, the address's places in the draw read, the place written. No order of this drop
 * exists yet (nobody is served before the draw), so none is counted. The draw itself, and the
 * per-address rule again, strictly, happen when the line is served (line-serving.server.ts).
 */

/** The drops' opening rules, read at most this long ago. */
const RULES_FOR_MS = 1_000;

const rulesRead = new WeakMap<Db, Map<string, { at: number; drop: LineDrop | null }>>();

/** The opening rules of a drop, from a copy at most RULES_FOR_MS old. */
async function rulesOf(db: Db, dropId: string): Promise<LineDrop | null> {
  let byDrop = rulesRead.get(db);
  if (!byDrop) {
    byDrop = new Map();
    rulesRead.set(db, byDrop);
  }
  const seen = byDrop.get(dropId);
  if (seen && Date.now() - seen.at < RULES_FOR_MS) return seen.drop;
  const [drop = null] = await lineDrops(db, [dropId]);
  // Only ids of real drops are kept (at most a few at a time), so junk ids cannot fill it.
  if (byDrop.size > 100) byDrop.clear();
  if (drop) byDrop.set(dropId, { at: Date.now(), drop });
  return drop;
}

/** Stand-ins compiled into the statements, swapped for the values at each execution. */
const STAND_IN = "\u0000sorteo";

const statements = new WeakMap<Db, { places: CompiledQuery; insert: CompiledQuery }>();

function statementsOf(db: Db) {
  let found = statements.get(db);
  if (!found) {
    const p = (name: string) => `${STAND_IN}${name}`;
    found = {
      places: db
        .selectFrom("drop_line")
        .select(["id", "browser", "cart"])
        .where("drop_id", "=", p("drop"))
        .where("status", "=", "esperando")
        .where("address_bucket", "=", p("bucket"))
        .compile(),
      insert: db
        .insertInto("drop_line")
        .values({
          id: p("id"),
          drop_id: p("drop"),
          browser: p("browser"),
          address_bucket: p("bucket"),
          cart: p("cart"),
          origin: p("origin"),
          place: p("place"),
          status: "esperando",
          joined_at: p("now"),
          seen_at: p("now"),
          updated_at: p("now"),
        })
        .compile(),
    };
    statements.set(db, found);
  }
  return found;
}

function run(db: Db, compiled: CompiledQuery, values: Record<string, string>) {
  const parameters = compiled.parameters.map((p) =>
    typeof p === "string" && p.startsWith(STAND_IN) ? values[p.slice(STAND_IN.length)] : p,
  );
  return db.executeQuery<{ id: string; browser: string; cart: string }>({ ...compiled, parameters });
}

/** Whether these are one drop's pieces and its lottery is on now. */
export async function inDraw(db: Db, dropIds: readonly string[], now = new Date()): Promise<boolean> {
  if (dropIds.length !== 1 || !dropIds[0]) return false;
  const drop = await rulesOf(db, dropIds[0]);
  return drop !== null && inLottery(drop, now);
}

export type DrawPlace =
  | { ok: true; entryId: string; drop: LineDrop; drawEndsAt: Date }
  | { ok: false; reason: "limite_conexion"; message: string };

/**
 * A place in the draw of the cart's drop, when that drop's lottery is on now; null otherwise (the
 * checkout goes the usual way). One place per browser and drop: asking again answers the same one.
 */
export async function takeDrawPlace(
  db: Db,
  input: { lines: CheckoutLine[]; browser: string; bucket: string; origin: string; now?: Date },
): Promise<DrawPlace | null> {
  const now = input.now ?? new Date();
  const dropIds = [...new Set(input.lines.map((l) => l.dropId))];
  if (dropIds.length !== 1 || !dropIds[0]) return null;
  const drop = await rulesOf(db, dropIds[0]);
  if (!drop || !inLottery(drop, now)) return null;
  const { places, insert } = statementsOf(db);
  const values = { drop: drop.id, bucket: input.bucket };
  const taken = (await run(db, places, values)).rows;
  const drawEndsAt = lotteryEndsAt(drop);
  const own = taken.find((t) => t.browser === input.browser);
  if (own) return { ok: true, entryId: own.id, drop, drawEndsAt };
  const over = addressCapRefusal(drop, 0, taken, input.lines);
  if (over) return over;
  const id = newId();
  try {
    await run(db, insert, {
      id,
      drop: drop.id,
      browser: input.browser,
      bucket: input.bucket,
      cart: JSON.stringify(input.lines),
      origin: input.origin,
      place: placeFor(drop, now),
      now: toTimestamp(now),
    });
  } catch (error) {
    // The same browser twice at once: the first place stands, and is its answer.
    if (!isUniqueViolation(error, "drop_line_one_per_browser")) throw error;
    const first = await waitingEntryOf(db, drop.id, input.browser);
    if (!first) throw error;
    return { ok: true, entryId: first, drop, drawEndsAt };
  }
  return { ok: true, entryId: id, drop, drawEndsAt };
}
