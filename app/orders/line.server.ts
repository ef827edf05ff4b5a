import { log, outsideRequests } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { isUniqueViolation, toDate, toTimestamp } from "~/db/database.server";
import { type Batcher, createBatcher } from "~/lib/batcher";
import { chunks } from "~/lib/chunks";
import { newId } from "~/lib/ids";
import type { CheckoutLine } from "./cart-read.server";
import { placesBefore } from "./line-ahead.server";
import { inLottery, inOpening, lotteryEndsAt, lotteryStartsAt, type OpeningRules, placeFor } from "./opening";

/*
 * The line of a drop's checkouts (decision 27). During a drop's opening every checkout of its
 * pieces takes a place here instead of racing for a hold: drawn by lot in the first seconds, by
 * arrival after. One app process at a time serves the line (a lease on the drop's row), in
 * order: the first one waiting whose pieces are in stock gets the hold; while the pieces it wants
 * are held by others, it waits ('apartadas') for them to come back, unless more people before it
 * wait for them than could ever come back, then it is told they are gone.
 *
 * The line decides who may try, in which order; the hold's conditional decrement still alone
 * decides that a piece is taken (nothing here can sell a piece twice).
 */

/** A drop's opening rules, as the line reads them. */
export interface LineDrop extends OpeningRules {
  id: string;
  name: string;
}

/** What a shopper waiting in line is told on each look (GET /api/fila/:id). */
export type LineView =
  | { estado: "sorteo"; sorteoTermina: string }
  | { estado: "esperando"; antes: number; apartadas: boolean }
  | { estado: "listo"; url: string }
  | { estado: "terminado"; mensaje: string };

/** A waiting place not looked at for this long is given up (its shopper closed the page). */
export const LINE_STALE_MS = 15_000;
/** How often a waiting place's last look is written at most. */
const SEEN_WRITE_MS = 4_000;
/** Looks to write are gathered this long in each process, then written in one statement. */
const SEEN_BATCH_MS = 1_000;
/**
 * A look that finds its place's last look written longer ago than this writes it at once, as
 * before: gathered, it could wait for its batch while a round gives the place up. Any place is
 * thus at least LINE_STALE_MS − SEEN_AT_ONCE_MS (5 s) from being given up while its look waits in
 * a batch, and a batch is written within about a second.
 */
const SEEN_AT_ONCE_MS = LINE_STALE_MS - 5_000;

const ACTIVE_ORDER = ["esperando_pago", "pendiente", "enviado", "archivado"] as const;

export const LINE_MESSAGES = {
  agotado: (names: string) => `Se acabaron las piezas que pedías: ${names}.`,
  porDireccion: (most: number) =>
    `Desde tu conexión ya se apartaron ${most} ${most === 1 ? "pieza" : "piezas"} de esta colección en su apertura. Intenta más tarde o desde otra conexión.`,
  retirado: "Dejaste la fila. Vuelve a pedir tus piezas para tomar un lugar nuevo.",
} as const;

/** The opening rules of these drops. */
export async function lineDrops(db: Db, dropIds: readonly string[]): Promise<LineDrop[]> {
  if (dropIds.length === 0) return [];
  const rows = await db
    .selectFrom("drops")
    .select([
      "id",
      "name",
      "start_at",
      "lottery_seconds",
      "opening_minutes",
      "opening_hold_minutes",
      "opening_holds_per_address",
    ])
    .where("id", "in", [...new Set(dropIds)])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    startAt: toDate(r.start_at),
    lotterySeconds: r.lottery_seconds,
    openingMinutes: r.opening_minutes,
    openingHoldMinutes: r.opening_hold_minutes,
    openingHoldsPerAddress: r.opening_holds_per_address,
  }));
}

/**
 * The drop whose line a checkout of these drops must take a place in: one in its opening, or one
 * with people already waiting (so that nobody gets past them). Null: the checkout may go straight on.
 */
export async function lineToJoin(db: Db, drops: readonly LineDrop[], now: Date): Promise<LineDrop | null> {
  const opening = drops.find((d) => inOpening(d, now));
  if (opening) return opening;
  if (drops.length === 0) return null;
  const waiting = await db
    .selectFrom("drop_line")
    .select("drop_id")
    .where(
      "drop_id",
      "in",
      drops.map((d) => d.id),
    )
    .where("status", "=", "esperando")
    .limit(1)
    .executeTakeFirst();
  return drops.find((d) => d.id === waiting?.drop_id) ?? null;
}

/** Pieces of the drop in the cart. */
export function piecesOf(lines: readonly CheckoutLine[], dropId: string): number {
  return lines.filter((l) => l.dropId === dropId).reduce((sum, l) => sum + l.quantity, 0);
}

/**
 * Pieces of the drop that one address bucket holds or bought since its opening began (orders
 * only), for each place taken during the opening.
 *
 * Read from the bucket's orders (`orders_by_address_bucket`), then their lines; the drop is picked
 * from those lines here, not in the statement: told the drop's id, SQLite starts from the drop's
 * lines instead (`order_lines_by_drop`) and reads every one of them, thousands during an opening.
 */
export async function bucketOrderPieces(db: Db, drop: LineDrop, bucket: string): Promise<number> {
  const rows = await db
    .selectFrom("orders")
    .innerJoin("order_lines", "order_lines.order_id", "orders.id")
    .select(["order_lines.drop_id", "order_lines.quantity"])
    .where("orders.address_bucket", "=", bucket)
    .where("orders.status", "in", [...ACTIVE_ORDER])
    .where("orders.created_at", ">=", toTimestamp(lotteryStartsAt(drop)))
    .execute();
  return rows.reduce((sum, r) => (r.drop_id === drop.id ? sum + r.quantity : sum), 0);
}

/**
 * `bucketOrderPieces` for the buckets of a round's places (a bucket with none is left out).
 *
 * Read from the orders held or paid since the opening began (`orders_status_created_id_idx`: a few
 * hundred, bounded by the pieces on sale, where the drop's lines also count every hold that
 * expired), those of these buckets, then their lines by order. Asking for thousands of buckets
 * at once instead costs PostgreSQL more in planning the lists than the whole drop's lines.
 */
export async function openingPiecesByBucket(
  db: Db,
  drop: LineDrop,
  buckets: ReadonlySet<string>,
): Promise<Map<string, number>> {
  const orders = await db
    .selectFrom("orders")
    .select(["id", "address_bucket"])
    .where("status", "in", [...ACTIVE_ORDER])
    .where("created_at", ">=", toTimestamp(lotteryStartsAt(drop)))
    .execute();
  const bucketOf = new Map<string, string>();
  for (const o of orders)
    if (o.address_bucket !== null && buckets.has(o.address_bucket)) bucketOf.set(o.id, o.address_bucket);
  const pieces = new Map<string, number>();
  for (const ids of chunks([...bucketOf.keys()])) {
    const lines = await db
      .selectFrom("order_lines")
      .select(["order_id", "drop_id", "quantity"])
      .where("order_id", "in", ids)
      .execute();
    for (const l of lines) {
      const bucket = bucketOf.get(l.order_id);
      if (l.drop_id === drop.id && bucket !== undefined)
        pieces.set(bucket, (pieces.get(bucket) ?? 0) + l.quantity);
    }
  }
  return pieces;
}

/** The opening's pieces per address, with the pieces the bucket bought or held and those its places wait for. */
export function addressCapRefusal(
  drop: LineDrop,
  ordered: number,
  places: readonly { cart: string }[],
  lines: readonly CheckoutLine[],
): { ok: false; reason: "limite_conexion"; message: string } | null {
  const waiting = places.reduce((sum, p) => sum + piecesOf(parseCart(p.cart), drop.id), 0);
  if (ordered + waiting + piecesOf(lines, drop.id) <= drop.openingHoldsPerAddress) return null;
  return {
    ok: false,
    reason: "limite_conexion",
    message: LINE_MESSAGES.porDireccion(drop.openingHoldsPerAddress),
  };
}

export type JoinResult =
  | { ok: true; entryId: string }
  | { ok: false; reason: "limite_conexion"; message: string };

/**
 * Takes a place in the drop's line for this browser's cart; a browser already waiting keeps its
 * place (one place per browser and drop). During the opening one address bucket may hold or wait
 * for at most the drop's `openingHoldsPerAddress` pieces.
 */
export async function joinLine(
  db: Db,
  input: {
    drop: LineDrop;
    lines: CheckoutLine[];
    browser: string;
    bucket: string;
    origin: string;
    now?: Date;
    random?: () => number;
  },
): Promise<JoinResult> {
  const { drop, browser, bucket } = input;
  const now = input.now ?? new Date();
  if (inOpening(drop, now)) {
    // Nobody is served before the draw: during the lottery the bucket has no orders of the drop yet.
    const ordered = inLottery(drop, now) ? 0 : await bucketOrderPieces(db, drop, bucket);
    const waiting = await db
      .selectFrom("drop_line")
      .select(["id", "browser", "cart"])
      .where("drop_id", "=", drop.id)
      .where("status", "=", "esperando")
      .where("address_bucket", "=", bucket)
      .execute();
    // Its own place, taken before: kept (one place per browser and drop).
    const own = waiting.find((w) => w.browser === browser);
    if (own) return { ok: true, entryId: own.id };
    const over = addressCapRefusal(drop, ordered, waiting, input.lines);
    if (over) return over;
  }
  const id = newId();
  try {
    await db
      .insertInto("drop_line")
      .values({
        id,
        drop_id: drop.id,
        browser,
        address_bucket: bucket,
        cart: JSON.stringify(input.lines),
        origin: input.origin,
        place: placeFor(drop, now, input.random),
        status: "esperando",
        joined_at: toTimestamp(now),
        seen_at: toTimestamp(now),
        updated_at: toTimestamp(now),
      })
      .execute();
    return { ok: true, entryId: id };
  } catch (error) {
    // Two requests of one browser at once: the first place stands.
    if (!isUniqueViolation(error, "drop_line_one_per_browser")) throw error;
    const first = await waitingEntryOf(db, drop.id, browser);
    if (first) return { ok: true, entryId: first };
    throw error;
  }
}

export async function waitingEntryOf(db: Db, dropId: string, browser: string): Promise<string | null> {
  const row = await db
    .selectFrom("drop_line")
    .select("id")
    .where("drop_id", "=", dropId)
    .where("browser", "=", browser)
    .where("status", "=", "esperando")
    .executeTakeFirst();
  return row?.id ?? null;
}

export function parseCart(text: string): CheckoutLine[] {
  return JSON.parse(text) as CheckoutLine[];
}

/**
 * What the browser's place says now; null when there is no such place or it is another
 * browser's. Each look counts as the shopper still being there.
 */
export async function lineView(
  db: Db,
  entryId: string,
  browser: string,
  now = new Date(),
): Promise<LineView | null> {
  return (await lineLook(db, entryId, browser, now))?.view ?? null;
}

/** `lineView`, with the place's drop. */
export async function lineLook(
  db: Db,
  entryId: string,
  browser: string,
  now = new Date(),
): Promise<{ dropId: string; view: LineView } | null> {
  const row = await db
    .selectFrom("drop_line")
    .innerJoin("drops", "drops.id", "drop_line.drop_id")
    .select([
      "drop_line.drop_id",
      "drop_line.browser",
      "drop_line.place",
      "drop_line.status",
      "drop_line.note",
      "drop_line.payment_url",
      "drop_line.message",
      "drop_line.seen_at",
      "drops.start_at",
      "drops.lottery_seconds",
    ])
    .where("drop_line.id", "=", entryId)
    .executeTakeFirst();
  if (!row || row.browser !== browser) return null;
  const dropId = row.drop_id;
  if (row.status === "atendido" && row.payment_url) {
    return { dropId, view: { estado: "listo", url: row.payment_url } };
  }
  if (row.status !== "esperando") {
    return { dropId, view: { estado: "terminado", mensaje: row.message ?? LINE_MESSAGES.retirado } };
  }
  const unwritten = now.getTime() - toDate(row.seen_at).getTime();
  if (unwritten > SEEN_AT_ONCE_MS) await writeSeen(db, [entryId], now);
  else if (unwritten > SEEN_WRITE_MS) seenLater(db, entryId, now);
  const ends = lotteryEndsAt({ startAt: toDate(row.start_at), lotterySeconds: row.lottery_seconds });
  if (now < ends) return { dropId, view: { estado: "sorteo", sorteoTermina: ends.toISOString() } };
  const antes = await placesBefore(db, row.drop_id, row.place);
  return { dropId, view: { estado: "esperando", antes, apartadas: row.note === "apartadas" } };
}

/**
 * The last look of these places, written if later than the one written (a batch never moves it
 * back), while they wait.
 */
async function writeSeen(db: Db, ids: readonly string[], at: Date): Promise<void> {
  for (const some of chunks(ids)) {
    await db
      .updateTable("drop_line")
      .set({ seen_at: toTimestamp(at) })
      .where("id", "in", some)
      .where("status", "=", "esperando")
      .where("seen_at", "<", toTimestamp(at))
      .execute();
  }
}

interface Seen {
  id: string;
  at: Date;
}

const seenBatches = new WeakMap<Db, Batcher<Seen, undefined>>();

/**
 * Writes the last looks this process still holds for `db`, at once: at shutdown, before the
 * database closes (else the batch's timer finds it closed and logs a failure).
 */
export async function writePendingLooks(db: Db): Promise<void> {
  await seenBatches.get(db)?.drain();
}

/**
 * Writes a look with the others of this process within SEEN_BATCH_MS: with 5,000 waiting, each
 * place written every 4 s on its own was over a thousand single-row commits a second. A place's
 * looks in one batch are written once; each is written as the look's time rounded up to the
 * second (so one statement per second of looks, not per look; a place is never taken as looked at
 * earlier than it was). Nothing waits for it: a batch that fails is logged, and the next look
 * asks again.
 */
function seenLater(db: Db, id: string, at: Date): void {
  let take = seenBatches.get(db);
  if (!take) {
    take = createBatcher<Seen, undefined>({
      write: async (looks) => {
        const last = new Map<string, number>();
        for (const look of looks) {
          const second = Math.ceil(look.at.getTime() / 1000) * 1000;
          last.set(look.id, Math.max(second, last.get(look.id) ?? 0));
        }
        const bySecond = new Map<number, string[]>();
        for (const [place, second] of last) {
          const ids = bySecond.get(second);
          if (ids) ids.push(place);
          else bySecond.set(second, [place]);
        }
        try {
          for (const [second, ids] of bySecond) await writeSeen(db, ids, new Date(second));
        } catch (error) {
          log.warn({ err: error, places: last.size }, "No se pudo anotar la última mirada de la fila");
        }
        return looks.map(() => undefined);
      },
      maxItems: 20_000,
      paced: true,
      // The batch speaks for all its requests: its lines carry none's id.
      schedule: (run) => outsideRequests(() => setTimeout(run, SEEN_BATCH_MS).unref()),
    });
    seenBatches.set(db, take);
  }
  void take({ id, at });
}
