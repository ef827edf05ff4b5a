import { sql } from "kysely";
import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { isUniqueViolation, toDate, toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";
import type { CheckoutLine, HoldRefusal } from "./cart-read.server";
import { inOpening, lotteryEndsAt, lotteryStartsAt, type OpeningRules, placeFor } from "./opening";

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
/** A serving round's lease on the drop; a process that dies mid-round frees it after this. */
const LEASE_MS = 20_000;

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
function piecesOf(lines: readonly CheckoutLine[], dropId: string): number {
  return lines.filter((l) => l.dropId === dropId).reduce((sum, l) => sum + l.quantity, 0);
}

/** Pieces of the drop that one address bucket holds or bought since its opening began (orders only). */
async function bucketOrderPieces(db: Db, drop: LineDrop): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("order_lines")
    .innerJoin("orders", "orders.id", "order_lines.order_id")
    .select(["orders.address_bucket", sql<number>`sum(order_lines.quantity)`.as("pieces")])
    .where("order_lines.drop_id", "=", drop.id)
    .where("orders.status", "in", [...ACTIVE_ORDER])
    .where("orders.address_bucket", "is not", null)
    .where("orders.created_at", ">=", toTimestamp(lotteryStartsAt(drop)))
    .groupBy("orders.address_bucket")
    .execute();
  return new Map(rows.map((r) => [r.address_bucket ?? "", Number(r.pieces)]));
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
  const own = await waitingEntryOf(db, drop.id, browser);
  if (own) return { ok: true, entryId: own };
  if (inOpening(drop, now)) {
    const ordered = (await bucketOrderPieces(db, drop)).get(bucket) ?? 0;
    const waiting = await db
      .selectFrom("drop_line")
      .select("cart")
      .where("drop_id", "=", drop.id)
      .where("status", "=", "esperando")
      .where("address_bucket", "=", bucket)
      .execute();
    const waitingPieces = waiting.reduce((sum, w) => sum + piecesOf(parseCart(w.cart), drop.id), 0);
    if (ordered + waitingPieces + piecesOf(input.lines, drop.id) > drop.openingHoldsPerAddress) {
      return {
        ok: false,
        reason: "limite_conexion",
        message: LINE_MESSAGES.porDireccion(drop.openingHoldsPerAddress),
      };
    }
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

async function waitingEntryOf(db: Db, dropId: string, browser: string): Promise<string | null> {
  const row = await db
    .selectFrom("drop_line")
    .select("id")
    .where("drop_id", "=", dropId)
    .where("browser", "=", browser)
    .where("status", "=", "esperando")
    .executeTakeFirst();
  return row?.id ?? null;
}

function parseCart(text: string): CheckoutLine[] {
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
  if (row.status === "atendido" && row.payment_url) return { estado: "listo", url: row.payment_url };
  if (row.status !== "esperando")
    return { estado: "terminado", mensaje: row.message ?? LINE_MESSAGES.retirado };
  if (now.getTime() - toDate(row.seen_at).getTime() > SEEN_WRITE_MS) {
    await db
      .updateTable("drop_line")
      .set({ seen_at: toTimestamp(now) })
      .where("id", "=", entryId)
      .where("status", "=", "esperando")
      .execute();
  }
  const ends = lotteryEndsAt({ startAt: toDate(row.start_at), lotterySeconds: row.lottery_seconds });
  if (now < ends) return { estado: "sorteo", sorteoTermina: ends.toISOString() };
  const ahead = await db
    .selectFrom("drop_line")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("drop_id", "=", row.drop_id)
    .where("status", "=", "esperando")
    .where("place", "<", row.place)
    .executeTakeFirstOrThrow();
  return { estado: "esperando", antes: Number(ahead.n), apartadas: row.note === "apartadas" };
}

/** The shopper gives up a place (a new cart, or 'Salir de la fila'). */
export async function leaveLine(
  db: Db,
  entryId: string,
  browser: string,
  now = new Date(),
): Promise<boolean> {
  const changed = await db
    .updateTable("drop_line")
    .set({ status: "retirado", message: LINE_MESSAGES.retirado, updated_at: toTimestamp(now) })
    .where("id", "=", entryId)
    .where("browser", "=", browser)
    .where("status", "=", "esperando")
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) === 1;
}

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
): Promise<RoundResult> {
  const idle = { served: 0, told: 0, waiting: 0, ran: false };
  const [drop] = await lineDrops(db, [dropId]);
  if (!drop || now < lotteryEndsAt(drop)) return idle;
  const leased = await db
    .updateTable("drops")
    .set({ line_lease_until: toTimestamp(new Date(now.getTime() + LEASE_MS)) })
    .where("id", "=", dropId)
    .where((eb) => eb.or([eb("line_lease_until", "is", null), eb("line_lease_until", "<", toTimestamp(now))]))
    .executeTakeFirst();
  if (Number(leased.numUpdatedRows) !== 1) return idle;
  try {
    return await serveRound(db, drop, takeTurn, now);
  } finally {
    await db.updateTable("drops").set({ line_lease_until: null }).where("id", "=", dropId).execute();
  }
}

async function serveRound(
  db: Db,
  drop: LineDrop,
  takeTurn: (turn: LineTurn) => Promise<TurnOutcome>,
  now: Date,
): Promise<RoundResult> {
  // Places nobody has looked at for a while: their shoppers left.
  await db
    .updateTable("drop_line")
    .set({ status: "retirado", message: LINE_MESSAGES.retirado, updated_at: toTimestamp(now) })
    .where("drop_id", "=", drop.id)
    .where("status", "=", "esperando")
    .where("seen_at", "<", toTimestamp(new Date(now.getTime() - LINE_STALE_MS)))
    .execute();
  const entries = (
    await db
      .selectFrom("drop_line")
      .select(["id", "browser", "address_bucket", "cart", "origin", "note"])
      .where("drop_id", "=", drop.id)
      .where("status", "=", "esperando")
      .orderBy("place")
      .orderBy("id")
      .execute()
  ).map((e) => ({ ...e, lines: parseCart(e.cart) }));
  if (entries.length === 0) return { served: 0, told: 0, waiting: 0, ran: true };

  const productIds = [...new Set(entries.flatMap((e) => e.lines.map((l) => l.productId)))];
  const products = await db
    .selectFrom("products")
    .select(["id", "name", "stock"])
    .where("id", "in", productIds)
    .execute();
  const held = await db
    .selectFrom("order_lines")
    .innerJoin("orders", "orders.id", "order_lines.order_id")
    .select([
      "order_lines.product_id",
      sql<number>`sum(order_lines.quantity - order_lines.missing)`.as("pieces"),
    ])
    .where("orders.status", "=", "esperando_pago")
    .where("order_lines.product_id", "in", productIds)
    .groupBy("order_lines.product_id")
    .execute();
  const stock = new Map(products.map((p) => [p.id, p.stock]));
  const names = new Map(products.map((p) => [p.id, p.name]));
  // Pieces that may still come back: held by unpaid checkouts.
  const mayReturn = new Map(held.map((h) => [h.product_id, Number(h.pieces)]));
  const opening = inOpening(drop, now);
  const byBucket = opening ? await bucketOrderPieces(db, drop) : new Map<string, number>();
  const waitedFor = new Map<string, number>();

  const turns: (typeof entries)[number][] = [];
  const told: { id: string; message: string }[] = [];
  const apartadas: string[] = [];
  for (const entry of entries) {
    const mine = piecesOf(entry.lines, drop.id);
    if (opening && (byBucket.get(entry.address_bucket) ?? 0) + mine > drop.openingHoldsPerAddress) {
      told.push({ id: entry.id, message: LINE_MESSAGES.porDireccion(drop.openingHoldsPerAddress) });
      continue;
    }
    const short = entry.lines.filter((l) => (stock.get(l.productId) ?? 0) < l.quantity);
    if (short.length === 0) {
      for (const l of entry.lines) {
        stock.set(l.productId, (stock.get(l.productId) ?? 0) - l.quantity);
        mayReturn.set(l.productId, (mayReturn.get(l.productId) ?? 0) + l.quantity);
      }
      byBucket.set(entry.address_bucket, (byBucket.get(entry.address_bucket) ?? 0) + mine);
      turns.push(entry);
      continue;
    }
    // Short: it may wait while the pieces that could come back outnumber those waited for before it.
    const hopeless = short.filter(
      (l) =>
        (waitedFor.get(l.productId) ?? 0) + l.quantity >
        (stock.get(l.productId) ?? 0) + (mayReturn.get(l.productId) ?? 0),
    );
    if (hopeless.length > 0) {
      told.push({
        id: entry.id,
        message: LINE_MESSAGES.agotado(hopeless.map((l) => names.get(l.productId) ?? "").join(", ")),
      });
      continue;
    }
    for (const l of short) waitedFor.set(l.productId, (waitedFor.get(l.productId) ?? 0) + l.quantity);
    if (entry.note !== "apartadas") apartadas.push(entry.id);
  }

  const stamp = toTimestamp(now);
  for (const t of told) {
    await db
      .updateTable("drop_line")
      .set({ status: "agotado", message: t.message, updated_at: stamp })
      .where("id", "=", t.id)
      .where("status", "=", "esperando")
      .execute();
  }
  if (apartadas.length > 0) {
    await db.updateTable("drop_line").set({ note: "apartadas" }).where("id", "in", apartadas).execute();
  }

  let served = 0;
  for (let i = 0; i < turns.length; i += TURNS_AT_ONCE) {
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
          .execute();
      } else if (outcome.refusal.reason !== "sin_stock") {
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

/** Drops whose line has someone waiting. */
export async function dropsWithLines(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("drop_line")
    .select("drop_id")
    .where("status", "=", "esperando")
    .groupBy("drop_id")
    .execute();
  return rows.map((r) => r.drop_id);
}
