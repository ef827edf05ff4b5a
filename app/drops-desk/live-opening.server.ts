import { sql } from "kysely";
import { type DropTimeState, dropTimeState } from "~/catalogue/drop-time";
import { type Db, toDate } from "~/db/database.server";
import { type DropFigures, dropFigures, shopMetrics } from "~/observability/metrics.server";
import { DESK_TABS } from "~/orders/status";

/*
 * The pieces of a drop as its opening goes, for the owner's live page (routes/admin/drops/
 * opening*.ts): per product what unpaid checkouts hold, what was sold and what is left, and how
 * many checkouts wait in the drop's line. Read fresh every second, once for all the tabs open on
 * the drop in one process; a few grouped counts over one drop's rows.
 */

/** One row of the live table. Sizes will add a row per value with the same figures. */
export interface LivePieces {
  productId: string;
  name: string;
  /** Pieces in unpaid holds (orders waiting for payment). */
  held: number;
  /** Pieces of paid orders (to ship, shipped, archived). */
  sold: number;
  /** Pieces still in stock. */
  left: number;
}

export interface LiveOpening {
  drop: { id: string; name: string; startAt: Date; endAt: Date; timeState: DropTimeState };
  pieces: LivePieces[];
  /** Checkouts waiting their turn in the drop's line. */
  inLine: number;
}

/** The drop's live figures, or null when there is no such drop. */
export async function liveOpening(db: Db, dropId: string, now = new Date()): Promise<LiveOpening | null> {
  const drop = await db
    .selectFrom("drops")
    .select(["id", "name", "start_at", "end_at"])
    .where("id", "=", dropId)
    .executeTakeFirst();
  if (!drop) return null;
  const [products, lines, waiting] = await Promise.all([
    db
      .selectFrom("products")
      .select(["id", "name", "stock"])
      .where("drop_id", "=", dropId)
      .orderBy("position")
      .execute(),
    db
      .selectFrom("order_lines")
      .innerJoin("orders", "orders.id", "order_lines.order_id")
      .select(["order_lines.product_id", "orders.status"])
      // Less the pieces a payment after its hold's end could not take (never held, never sold).
      .select(sql<number>`sum(order_lines.quantity - order_lines.missing)`.as("pieces"))
      .where("order_lines.drop_id", "=", dropId)
      .where("orders.status", "in", ["esperando_pago", ...DESK_TABS])
      .groupBy(["order_lines.product_id", "orders.status"])
      .execute(),
    db
      .selectFrom("drop_line")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("drop_id", "=", dropId)
      .where("status", "=", "esperando")
      .executeTakeFirst(),
  ]);
  const held = new Map<string, number>();
  const sold = new Map<string, number>();
  for (const line of lines) {
    const into = line.status === "esperando_pago" ? held : sold;
    into.set(line.product_id, (into.get(line.product_id) ?? 0) + Number(line.pieces));
  }
  const startAt = toDate(drop.start_at);
  const endAt = toDate(drop.end_at);
  return {
    drop: { id: drop.id, name: drop.name, startAt, endAt, timeState: dropTimeState({ startAt, endAt }, now) },
    pieces: products.map((p) => ({
      productId: p.id,
      name: p.name,
      held: held.get(p.id) ?? 0,
      sold: sold.get(p.id) ?? 0,
      left: p.stock,
    })),
    inLine: Number(waiting?.count ?? 0),
  };
}

/**
 * What the live page reads each second: the pieces and the line from the database, and the
 * drop's counters from the whole shop's metrics (the same numbers /metrics serves), with the
 * instant they were read. The page makes per-second figures from two successive snapshots.
 */
export interface OpeningSnapshot {
  /** When it was read (ms since the epoch). */
  at: number;
  drop: { id: string; name: string; startAt: number; endAt: number; timeState: DropTimeState };
  pieces: LivePieces[];
  inLine: number;
  /** Null when the shop's counters could not be read this time (a process being replaced). */
  figures: DropFigures | null;
}

/**
 * How long one snapshot answers every tab of this process asking for the drop. Each tab asks a
 * second after its last answer came, so it never gets the same snapshot twice (its per-second
 * figures stay between two readings), while ten tabs open on one drop read its pieces, and ask
 * the cluster's counters, once a second instead of ten times (~12 ms each with thousands of lines
 * in the drop).
 */
const SHARED_MS = 900;

const shared = new WeakMap<Db, Map<string, { since: number; snapshot: Promise<OpeningSnapshot | null> }>>();

export function openingSnapshot(db: Db, dropId: string): Promise<OpeningSnapshot | null> {
  let byDrop = shared.get(db);
  if (!byDrop) {
    byDrop = new Map();
    shared.set(db, byDrop);
  }
  const now = Date.now();
  for (const [id, kept] of byDrop) if (now - kept.since >= SHARED_MS) byDrop.delete(id);
  const kept = byDrop.get(dropId);
  if (kept) return kept.snapshot;
  const snapshot = readSnapshot(db, dropId);
  const entry = { since: now, snapshot };
  byDrop.set(dropId, entry);
  // A failed reading is not kept for the next tab.
  snapshot.catch(() => {
    if (byDrop.get(dropId) === entry) byDrop.delete(dropId);
  });
  return snapshot;
}

async function readSnapshot(db: Db, dropId: string): Promise<OpeningSnapshot | null> {
  const [opening, metrics] = await Promise.all([liveOpening(db, dropId), shopMetrics().catch(() => null)]);
  if (!opening) return null;
  const { drop } = opening;
  return {
    at: Date.now(),
    drop: { ...drop, startAt: drop.startAt.getTime(), endAt: drop.endAt.getTime() },
    pieces: opening.pieces,
    inLine: opening.inLine,
    figures: metrics ? dropFigures(metrics, dropId) : null,
  };
}
