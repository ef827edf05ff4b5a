import type { Db } from "~/db/database.server";
import type { BulkShipLine, BulkShipLines, BulkShipProblem } from "./bulk-ship";
import { BULK_SHIP_LIMIT } from "./bulk-ship";
import { DESK_STATUSES, shipWithin } from "./desk.server";
import { STATUS_LABELS } from "./status";

/*
 * 'Atender seleccionados': several pending orders shipped at once, all or nothing. Every line is
 * checked against the database first (unknown order, not pending) and each problem told by its
 * line; then all are shipped in one transaction with 'Atender pedido''s own move (pendiente ->
 * enviado, conditional, its event and the buyer's notice queued with it). If another tab or app
 * server moved one of them in between, its conditional update changes nothing and the whole batch
 * is rolled back and refused, naming the orders that changed.
 */

export type BulkShipResult =
  | { ok: true; shipped: string[] }
  /** `lineas`: found before shipping; `conflicto`: changed while shipping (nothing was shipped). */
  | { ok: false; reason: "lineas" | "conflicto"; problems: BulkShipProblem[] };

class BatchConflict extends Error {
  constructor(readonly lines: BulkShipLine[]) {
    super("bulk shipment refused: orders changed meanwhile");
  }
}

/** Why an order cannot be shipped now, in the owner's words; null when it can. */
function blocker(row: { status: string; removed: boolean } | undefined, orderId: string) {
  if (!row || !(DESK_STATUSES as readonly string[]).includes(row.status)) {
    return `el pedido ${orderId} no existe.`;
  }
  if (row.removed || row.status !== "pendiente") {
    const label = STATUS_LABELS[row.status as keyof typeof STATUS_LABELS].toLowerCase();
    return `el pedido ${orderId} ya no está pendiente (está «${row.removed ? "borrado del historial" : label}»).`;
  }
  return null;
}

async function statusRows(db: Db, orderIds: string[]) {
  const rows = await db
    .selectFrom("orders")
    .select(["id", "status", "removed_at"])
    .where("id", "in", orderIds)
    .execute();
  return new Map(rows.map((r) => [r.id, { status: r.status as string, removed: r.removed_at !== null }]));
}

/** What the database says against lines that read well: unknown orders, orders not pending. */
export async function bulkShipProblems(db: Db, lines: readonly BulkShipLine[]): Promise<BulkShipProblem[]> {
  if (lines.length === 0) return [];
  const before = await statusRows(
    db,
    lines.map((l) => l.orderId),
  );
  const problems: BulkShipProblem[] = [];
  for (const line of lines) {
    const message = blocker(before.get(line.orderId), line.orderId);
    if (message) problems.push({ line: line.line, orderId: line.orderId, message });
  }
  return problems;
}

/**
 * Ships every line with `carrier`, or none: the problems found reading the lines and those the
 * database finds are all told together, by line; with none, one transaction ships them all.
 */
export async function shipOrders(
  db: Db,
  carrier: string,
  read: BulkShipLines,
  now = new Date(),
  /** The days after which they count as delivered, as Configuración says them now (decision 44). */
  deliveryDays?: number,
): Promise<BulkShipResult> {
  const { lines } = read;
  if (lines.length > BULK_SHIP_LIMIT) throw new Error(`a batch ships at most ${BULK_SHIP_LIMIT} orders`);
  const problems = [...read.problems, ...(await bulkShipProblems(db, lines))].sort((a, b) => a.line - b.line);
  if (problems.length > 0 || lines.length === 0) return { ok: false, reason: "lineas", problems };
  const ids = lines.map((l) => l.orderId);

  // In order of number, so two batches sharing orders lock them in the same order (no deadlock).
  const ordered = [...lines].sort((a, b) => (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0));
  try {
    await db.transaction().execute(async (trx) => {
      const changed: BulkShipLine[] = [];
      for (const line of ordered) {
        const shipped = await shipWithin(
          trx,
          line.orderId,
          { carrier, trackingNumber: line.trackingNumber, deliveryDays },
          now,
        );
        if (!shipped) changed.push(line);
      }
      // Thrown, so the transaction rolls back every order it did ship.
      if (changed.length > 0) throw new BatchConflict(changed);
    });
  } catch (error) {
    if (!(error instanceof BatchConflict)) throw error;
    const after = await statusRows(
      db,
      error.lines.map((l) => l.orderId),
    );
    return {
      ok: false,
      reason: "conflicto",
      problems: error.lines
        .map((line) => ({
          line: line.line,
          orderId: line.orderId,
          message: `${blocker(after.get(line.orderId), line.orderId) ?? `el pedido ${line.orderId} cambió.`} Cambió mientras se atendían los demás.`,
        }))
        .sort((a, b) => a.line - b.line),
    };
  }
  return { ok: true, shipped: ids };
}
