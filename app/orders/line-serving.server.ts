import { sql } from "kysely";
import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { toDate, toTimestamp } from "~/db/database.server";
import { chunks } from "~/lib/chunks";
import { recordTurnRefused } from "~/observability/metrics.server";
import { type CheckoutLine, type HoldRefusal, pieceName } from "./cart-read.server";
import {
  LINE_MESSAGES,
  LINE_STALE_MS,
  type LineDrop,
  lineDrops,
  openingPiecesByBucket,
  parseCart,
  piecesOf,
} from "./line.server";
import { lineChanged } from "./line-ahead.server";
import { inOpening, lotteryEndsAt } from "./opening";

/*
 * Serving a drop's line (decision 27): one round at a time across every app process (a lease on
 * the drop's row), each giving the pieces in stock to the first places waiting for them, telling
 * those who cannot get one any more, and marking those waiting for held pieces to come back.
 */

/** A place reached by the line, handed to the checkout to hold its pieces and open its payment page. */
export interface LineTurn {
  entryId: string;
  dropId: string;
  browser: string;
  bucket: string;
  origin: string;
  lines: CheckoutLine[];
}

/** How a turn went: a payment page, or why not (a refusal `sin_stock` keeps the place: another took them first). */
export type TurnOutcome =
  | { ok: true; orderId: string; url: string }
  | { ok: false; refusal: { reason: HoldRefusal["reason"] | (string & {}); message: string } };

/** What one serving round did, for tests and figures. */
export interface RoundResult {
  served: number;
  told: number;
  waiting: number;
  /** False: another process holds the lease, or the lottery has not ended. */
  ran: boolean;
}

/**
 * A serving round's lease on the drop, renewed every quarter of it while the round runs (a turn
 * waits for the payment provider, which on drop day may take longer than the lease); a process
 * that dies mid-round frees it after this.
 */
const LEASE_MS = 20_000;

/** Turns given at once in one round (each holds and opens a payment page). */
const TURNS_AT_ONCE = 10;

/**
 * One round of serving the drop's line, by whichever process takes the lease. Gives the pieces in
 * stock to the first ones waiting for them, tells those who cannot get them any more, and marks
 * the ones waiting for held pieces to come back.
 */
export async function serveLine(
  db: Db,
  dropId: string,
  takeTurn: (turn: LineTurn) => Promise<TurnOutcome>,
  now = new Date(),
  options: { leaseMs?: number } = {},
): Promise<RoundResult> {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const idle = { served: 0, told: 0, waiting: 0, ran: false };
  const [drop] = await lineDrops(db, [dropId]);
  if (!drop || now < lotteryEndsAt(drop)) return idle;
  // Another process serving: said by a read. Asking for the lease is a write, and on SQLite a
  // write waits (the whole process with it) for that round's own writes to end.
  const current = await db
    .selectFrom("drops")
    .select("line_lease_until")
    .where("id", "=", dropId)
    .executeTakeFirst();
  if (current?.line_lease_until && toDate(current.line_lease_until) > now) return idle;
  let lease = toTimestamp(new Date(now.getTime() + leaseMs));
  const leased = await db
    .updateTable("drops")
    .set({ line_lease_until: lease })
    .where("id", "=", dropId)
    .where((eb) => eb.or([eb("line_lease_until", "is", null), eb("line_lease_until", "<", toTimestamp(now))]))
    .executeTakeFirst();
  if (Number(leased.numUpdatedRows) !== 1) return idle;
  // Renewed while the round runs (its clock: `now` plus the time gone by), so a round waiting on a
  // slow provider is never served again by another process; one that finds it taken (this process
  // stalled past the lease) gives no more turns.
  const started = Date.now();
  let lost = false;
  let renewing: Promise<unknown> = Promise.resolve();
  const renew = setInterval(() => {
    renewing = renewing
      .then(async () => {
        if (lost) return;
        const next = toTimestamp(new Date(now.getTime() + (Date.now() - started) + leaseMs));
        const renewed = await db
          .updateTable("drops")
          .set({ line_lease_until: next })
          .where("id", "=", dropId)
          .where("line_lease_until", "=", lease)
          .executeTakeFirst();
        if (Number(renewed.numUpdatedRows) === 1) lease = next;
        else lost = true;
      })
      .catch((error: unknown) => log.error({ dropId, err: error }, "No se pudo renovar el turno de la fila"));
  }, leaseMs / 4);
  renew.unref();
  try {
    return await serveRound(db, drop, takeTurn, now, () => !lost);
  } finally {
    lineChanged(db, dropId);
    clearInterval(renew);
    await renewing;
    // Only its own lease: one that ran out may already be another process's.
    await db
      .updateTable("drops")
      .set({ line_lease_until: null })
      .where("id", "=", dropId)
      .where("line_lease_until", "=", lease)
      .execute();
  }
}

async function serveRound(
  db: Db,
  drop: LineDrop,
  takeTurn: (turn: LineTurn) => Promise<TurnOutcome>,
  now: Date,
  /** False once the lease went to another process: no more turns. */
  stillMine: () => boolean,
): Promise<RoundResult> {
  // Places nobody has looked at for a while: their shoppers left (an index range: drop_line_by_seen).
  await db
    .updateTable("drop_line")
    .set({ status: "retirado", message: LINE_MESSAGES.retirado, updated_at: toTimestamp(now) })
    .where("drop_id", "=", drop.id)
    .where("status", "=", "esperando")
    .where("seen_at", "<", toTimestamp(new Date(now.getTime() - LINE_STALE_MS)))
    .execute();
  const entries = await waitingPlaces(db, drop.id);
  if (entries.length === 0) return { served: 0, told: 0, waiting: 0, ran: true };

  const { stock, names, mayReturn } = await piecesWaitedFor(
    db,
    entries.flatMap((e) => e.lines),
  );
  const opening = inOpening(drop, now);
  // Only for the buckets of the places waiting: the others' pieces change nothing here.
  const byBucket = opening
    ? await openingPiecesByBucket(db, drop, new Set(entries.map((e) => e.address_bucket)))
    : new Map<string, number>();
  const waitedFor = new Map<string, number>();

  const turns: (typeof entries)[number][] = [];
  const told: { id: string; message: string; reason: string }[] = [];
  const apartadas: string[] = [];
  for (const entry of entries) {
    const mine = piecesOf(entry.lines, drop.id);
    if (opening && (byBucket.get(entry.address_bucket) ?? 0) + mine > drop.openingHoldsPerAddress) {
      told.push({
        id: entry.id,
        message: LINE_MESSAGES.porDireccion(drop.openingHoldsPerAddress),
        reason: "limite_conexion",
      });
      continue;
    }
    const short = entry.lines.filter((l) => (stock.get(pieceKey(l)) ?? 0) < l.quantity);
    if (short.length === 0) {
      for (const l of entry.lines) {
        stock.set(pieceKey(l), (stock.get(pieceKey(l)) ?? 0) - l.quantity);
        mayReturn.set(pieceKey(l), (mayReturn.get(pieceKey(l)) ?? 0) + l.quantity);
      }
      byBucket.set(entry.address_bucket, (byBucket.get(entry.address_bucket) ?? 0) + mine);
      turns.push(entry);
      continue;
    }
    // Short: it may wait while the pieces that could come back outnumber those waited for before it.
    const hopeless = short.filter(
      (l) =>
        (waitedFor.get(pieceKey(l)) ?? 0) + l.quantity >
        (stock.get(pieceKey(l)) ?? 0) + (mayReturn.get(pieceKey(l)) ?? 0),
    );
    if (hopeless.length > 0) {
      told.push({
        id: entry.id,
        message: LINE_MESSAGES.agotado(hopeless.map((l) => names.get(pieceKey(l)) ?? "").join(", ")),
        reason: "agotado",
      });
      continue;
    }
    for (const l of short) waitedFor.set(pieceKey(l), (waitedFor.get(pieceKey(l)) ?? 0) + l.quantity);
    if (entry.note !== "apartadas") apartadas.push(entry.id);
  }

  const stamp = toTimestamp(now);
  const byMessage = new Map<string, string[]>();
  for (const t of told) {
    recordTurnRefused(drop.id, t.reason);
    const group = byMessage.get(t.message);
    if (group) group.push(t.id);
    else byMessage.set(t.message, [t.id]);
  }
  // One statement per message for everyone told (at an opening that is most of the line: a
  // script's places over its address's allowance, everyone behind the last piece), and one for
  // those marked: one statement each kept the first looks after the draw waiting for seconds on a
  // busy machine. No transaction around them: on SQLite it would hold the write lock across awaits.
  for (const [message, group] of byMessage) {
    for (const ids of chunks(group)) {
      await db
        .updateTable("drop_line")
        .set({ status: "agotado", message, updated_at: stamp })
        .where("id", "in", ids)
        .where("status", "=", "esperando")
        .execute();
    }
  }
  for (const ids of chunks(apartadas)) {
    await db.updateTable("drop_line").set({ note: "apartadas" }).where("id", "in", ids).execute();
  }
  lineChanged(db, drop.id);

  let served = 0;
  // Within half the lease: the places left wait for the next round, never for two rounds at once.
  const stopAt = Date.now() + LEASE_MS / 2;
  for (let i = 0; i < turns.length && Date.now() < stopAt && stillMine(); i += TURNS_AT_ONCE) {
    const outcomes = await Promise.all(
      turns.slice(i, i + TURNS_AT_ONCE).map(async (entry) => ({
        entry,
        outcome: await takeTurn({
          entryId: entry.id,
          dropId: drop.id,
          browser: entry.browser,
          bucket: entry.address_bucket,
          origin: entry.origin,
          lines: entry.lines,
        }).catch((error: unknown) => {
          log.error({ entryId: entry.id, err: error }, "No se pudo atender un lugar de la fila");
          return null;
        }),
      })),
    );
    for (const { entry, outcome } of outcomes) {
      if (outcome === null) continue; // it keeps its place for the next round
      if (outcome.ok) {
        served++;
        await db
          .updateTable("drop_line")
          .set({
            status: "atendido",
            order_id: outcome.orderId,
            payment_url: outcome.url,
            note: null,
            updated_at: stamp,
          })
          .where("id", "=", entry.id)
          .where("status", "=", "esperando")
          .execute();
      } else if (outcome.refusal.reason !== "sin_stock") {
        recordTurnRefused(drop.id, outcome.refusal.reason);
        await db
          .updateTable("drop_line")
          .set({ status: "agotado", message: outcome.refusal.message, updated_at: stamp })
          .where("id", "=", entry.id)
          .where("status", "=", "esperando")
          .execute();
      }
    }
  }
  return { served, told: told.length, waiting: entries.length - served - told.length, ran: true };
}

/** A waiting place as a round reads it: what never changes once the place is taken, and its note. */
interface WaitingPlace {
  readonly id: string;
  readonly browser: string;
  readonly address_bucket: string;
  readonly origin: string;
  readonly lines: CheckoutLine[];
  /** As the round read it ('apartadas' while the pieces it wants are all held by others). */
  note: string | null;
}

/** A drop whose line no round of this process served for this long is forgotten here. */
const FORGET_PLACES_AFTER_MS = 60_000;
/** Past this many places new to a round, it reads the whole line's rather than theirs by id. */
const NEW_PLACES_BY_ID = 500;

/**
 * The places each drop's rounds met in this process, parsed, by id. A place's browser, address,
 * origin and cart never change once it is taken, so a round reads only the ids and notes of the
 * places waiting, in order (from the index drop_line_in_order), and the rest for the places it
 * has not met yet (all of them after a restart): at 5,000 waiting, reading and parsing every cart
 * every 150 ms was most of a round. Each round keeps only the places still waiting, so this holds
 * at most each line's waiting places; a line nobody waits in, or whose rounds stopped a minute
 * ago, is let go.
 */
const placesByDb = new WeakMap<Db, Map<string, { usedAt: number; places: Map<string, WaitingPlace> }>>();

/** The drop's places waiting, in the line's order. */
async function waitingPlaces(db: Db, dropId: string): Promise<WaitingPlace[]> {
  let drops = placesByDb.get(db);
  if (!drops) {
    drops = new Map();
    placesByDb.set(db, drops);
  }
  const usedAt = Date.now();
  for (const [id, known] of drops) if (usedAt - known.usedAt > FORGET_PLACES_AFTER_MS) drops.delete(id);
  const known = drops.get(dropId)?.places ?? new Map<string, WaitingPlace>();
  const order = await db
    .selectFrom("drop_line")
    .select(["id", "note"])
    .where("drop_id", "=", dropId)
    .where("status", "=", "esperando")
    .orderBy("place")
    .orderBy("id")
    .execute();
  const unknown = order.filter((p) => !known.has(p.id)).map((p) => p.id);
  const taken = db.selectFrom("drop_line").select(["id", "browser", "address_bucket", "cart", "origin"]);
  // Many new to this process (its first round): all the line's at once, not by lists of ids.
  const batches =
    unknown.length > NEW_PLACES_BY_ID
      ? [taken.where("drop_id", "=", dropId).where("status", "=", "esperando")]
      : chunks(unknown).map((ids) => taken.where("id", "in", ids));
  for (const batch of batches) {
    for (const { cart, ...place } of await batch.execute()) {
      if (!known.has(place.id)) known.set(place.id, { ...place, lines: parseCart(cart), note: null });
    }
  }
  const places: WaitingPlace[] = [];
  for (const { id, note } of order) {
    const place = known.get(id);
    // Gone between the two reads (no longer waiting, or its drop deleted): nothing to serve.
    if (!place) continue;
    place.note = note;
    places.push(place);
  }
  if (places.length === 0) drops.delete(dropId);
  else if (places.length === known.size) drops.set(dropId, { usedAt, places: known });
  // Some no longer wait (served, told, given up): forgotten.
  else drops.set(dropId, { usedAt, places: new Map(places.map((p) => [p.id, p])) });
  return places;
}

/** A line's piece as the line counts it: the product, or the product in one size (decision 34). */
function pieceKey(line: Pick<CheckoutLine, "productId" | "optionId">): string {
  return line.optionId ? `${line.productId}:${line.optionId}` : line.productId;
}

/**
 * What the places waiting ask for, by `pieceKey`: the stock left (a size's own, for a sized
 * line), its name as the shopper reads it, and the pieces held by unpaid checkouts that may come
 * back. A size is its own shelf: counted per product, places asking for a size that is gone
 * would be served, refused and kept at the head of the line while another size still has pieces.
 */
async function piecesWaitedFor(db: Db, lines: readonly CheckoutLine[]) {
  const productIds = [...new Set(lines.map((l) => l.productId))];
  const optionIds = [...new Set(lines.flatMap((l) => (l.optionId ? [l.optionId] : [])))];
  const products = await db
    .selectFrom("products")
    .select(["id", "name", "stock", "option_name"])
    .where("id", "in", productIds)
    .execute();
  const values =
    optionIds.length === 0
      ? []
      : await db
          .selectFrom("product_options")
          .select(["id", "product_id", "value", "stock"])
          .where("id", "in", optionIds)
          .execute();
  const held = await db
    .selectFrom("order_lines")
    .innerJoin("orders", "orders.id", "order_lines.order_id")
    .select([
      "order_lines.product_id",
      "order_lines.option_id",
      sql<number>`sum(order_lines.quantity - order_lines.missing)`.as("pieces"),
    ])
    .where("orders.status", "=", "esperando_pago")
    .where("order_lines.product_id", "in", productIds)
    .groupBy(["order_lines.product_id", "order_lines.option_id"])
    .execute();
  const stock = new Map(products.map((p) => [p.id, p.stock]));
  const names = new Map(products.map((p) => [p.id, p.name]));
  for (const v of values) {
    const key = pieceKey({ productId: v.product_id, optionId: v.id });
    const product = products.find((p) => p.id === v.product_id);
    stock.set(key, v.stock);
    if (product) names.set(key, pieceName(product, v));
  }
  // Pieces that may still come back: held by unpaid checkouts (a size's, and its product's).
  const mayReturn = new Map<string, number>();
  for (const h of held) {
    const pieces = Number(h.pieces);
    mayReturn.set(h.product_id, (mayReturn.get(h.product_id) ?? 0) + pieces);
    if (h.option_id) {
      const key = pieceKey({ productId: h.product_id, optionId: h.option_id });
      mayReturn.set(key, (mayReturn.get(key) ?? 0) + pieces);
    }
  }
  return { stock, names, mayReturn };
}
