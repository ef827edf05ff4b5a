import { sql } from "kysely";
import { type Db, toTimestamp } from "~/db/database.server";
import type { OrderEventsTable, OrderStatus } from "~/db/schema";
import { toCsv } from "~/lib/csv";
import { shopDateTimeStamp } from "~/lib/dates";
import { newId } from "~/lib/ids";
import { mailKindLabel, SHIPMENT_EMAIL, TRACKING_CORRECTED } from "~/mail/kinds";
import { queueEmail, requeueEmail } from "~/mail/queue.server";
import type { DeskQuery } from "./desk-query";
import { missingCents, type Order } from "./order";
import { withLines } from "./queries.server";
import { refundedByReturns } from "./return-refunds.server";
import { containsPattern } from "./search";
import type { ShipmentInput } from "./shipment-input";
import { DESK_TABS, movableFrom, ORDER_MOVES, type OrderMove, STATUS_LABELS } from "./status";

/*
 * The orders desk: what the owner sees and does with paid orders. Orders waiting for payment or
 * whose payment expired never appear here. Every change is a move of status.ts applied with a
 * conditional update, so a second tab or a second app server cannot apply it twice.
 */

export const PAGE_SIZE = 20;
/** A CSV export holds at most this many orders (a year of a busy small shop). */
export const EXPORT_LIMIT = 50_000;

/** Every status an order on the desk may have: its tabs' and the cancelled. */
export const DESK_STATUSES: readonly OrderStatus[] = [...DESK_TABS, "cancelado"];

function filtered(db: Db, query: DeskQuery) {
  const view = query.tab;
  // The tabs hold what is still worked on; the read-only views, the records kept for the accounts.
  let q =
    view === "borrado"
      ? db.selectFrom("orders").where("removed_at", "is not", null)
      : view === "cancelado"
        ? db.selectFrom("orders").where("status", "=", "cancelado")
        : db.selectFrom("orders").where("status", "=", view).where("removed_at", "is", null);
  const term = query.search?.trim();
  if (term) q = q.where(sql<boolean>`search_text like ${containsPattern(term)} escape '\\'`);
  if (query.from) q = q.where("created_at", ">=", toTimestamp(query.from));
  if (query.until) q = q.where("created_at", "<", toTimestamp(query.until));
  return q;
}

/** One page of a tab, newest first, with how many there are in all. */
export async function listOrders(
  db: Db,
  query: DeskQuery,
): Promise<{ orders: Order[]; total: number; page: number; pages: number }> {
  const counted = await filtered(db, query)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(query.page ?? 1)), pages);
  const rows = await filtered(db, query)
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .execute();
  return { orders: await withLines(db, rows), total, page, pages };
}

/** Paid orders still to ship: the number beside 'Pedidos' in the admin menu. */
export async function countPending(db: Db): Promise<number> {
  const row = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "pendiente")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The orders of a tab and search (every page), as a spreadsheet opens them. */
export async function exportOrdersCsv(
  db: Db,
  query: Omit<DeskQuery, "page">,
  limit = EXPORT_LIMIT,
): Promise<string> {
  const found = await filtered(db, query)
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  // Past the limit the sheet says so in its last row, rather than ending as if it were whole.
  const cut = found.length > limit;
  const rows = cut ? found.slice(0, limit) : found;
  const orders = await withLines(db, rows);
  const returned = await refundedByReturns(
    db,
    orders.map((o) => o.id),
  );
  return toCsv([
    [
      "Pedido",
      "Fecha",
      "Estatus",
      "Cliente",
      "Correo",
      "Teléfono",
      "Calle y número",
      "Colonia",
      "Ciudad",
      "Estado",
      "Código postal",
      "País",
      "Piezas",
      "Piezas (MXN)",
      "Envío",
      "Envío (MXN)",
      "Total (MXN)",
      "Paquetería",
      "Guía",
      "Problema de stock",
      "Reembolso (MXN)",
      "Piezas faltantes reembolsadas (MXN)",
      "Devoluciones reembolsadas (MXN)",
      "Borrado del historial",
    ],
    ...orders.map((o) => [
      o.id,
      shopDateTimeStamp(o.createdAt),
      STATUS_LABELS[o.status],
      o.customerName,
      o.customerEmail,
      o.shipping?.phone ?? "",
      o.shipping?.line1 ?? "",
      o.shipping?.line2 ?? "",
      o.shipping?.city ?? "",
      o.shipping?.state ?? "",
      o.shipping?.postalCode ?? "",
      o.shipping?.country ?? "",
      o.lines.map((l) => `${l.name} x ${l.quantity}${l.edition ? ` (${l.edition})` : ""}`).join("; "),
      (o.piecesCents / 100).toFixed(2),
      o.shippingRate?.label ?? "",
      ((o.shippingRate?.cents ?? 0) / 100).toFixed(2),
      (o.totalCents / 100).toFixed(2),
      o.carrier,
      o.trackingNumber,
      o.stockIssue,
      pesosCell(o.cancellation?.amountCents),
      // A late payment's missing pieces given back (by the provider or by hand), apart from a
      // cancellation's refund, which is the rest: together, the money that went back.
      pesosCell(o.missingRefundedAt ? missingCents(o) : undefined),
      pesosCell(returned.get(o.id)),
      o.removedAt ? shopDateTimeStamp(o.removedAt) : "",
    ]),
    ...(cut
      ? [
          [
            `Solo los ${limit.toLocaleString("es-MX")} pedidos más recientes de esta vista: elige fechas (Desde y Hasta) para exportar los anteriores.`,
          ],
        ]
      : []),
  ]);
}

/** An amount in pesos for the sheet, or an empty cell when there is none. */
const pesosCell = (amountCents: number | undefined) =>
  amountCents === undefined ? "" : (amountCents / 100).toFixed(2);

/**
 * Why a desk action did not happen; the route turns it into a status and a message.
 * `correo_pendiente`: the order's shipment notice has not gone out yet (deleting it would lose it).
 */
export type DeskRefusal = {
  ok: false;
  reason: "no_encontrado" | "conflicto" | "correo_pendiente" | "faltantes_por_devolver";
  status: OrderStatus | null;
};
export type DeskResult<T = object> = ({ ok: true } & T) | DeskRefusal;

/** Why a conditional update on an order changed nothing: unknown or unpaid, or now in another status. */
export async function refusal(
  trx: Db,
  orderId: string,
): Promise<DeskRefusal & { reason: "no_encontrado" | "conflicto" }> {
  const row = await trx.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirst();
  // Unpaid orders do not exist for the desk.
  if (!row || !DESK_STATUSES.includes(row.status)) {
    return { ok: false, reason: "no_encontrado", status: null };
  }
  return { ok: false, reason: "conflicto", status: row.status };
}

export async function recordEvent(
  trx: Db,
  orderId: string,
  kind: OrderEventsTable["kind"],
  detail: string,
  now: Date,
): Promise<void> {
  await trx
    .insertInto("order_events")
    .values({ id: newId(), order_id: orderId, kind, detail, created_at: toTimestamp(now) })
    .execute();
}

/** An unsent shipment notice of the order, if any: it will carry whatever tracking is current. */
async function unsentShipmentEmail(trx: Db, orderId: string) {
  return trx
    .selectFrom("emails")
    .select("id")
    .where("order_id", "=", orderId)
    .where("kind", "=", SHIPMENT_EMAIL)
    .where("sent_at", "is", null)
    .executeTakeFirst();
}

/**
 * Queues the shipment notice; false when one is still waiting (it will carry the current tracking).
 * `corrected`: a notice sent before had the wrong tracking, and this one says so.
 */
async function queueShipmentEmail(trx: Db, orderId: string, now: Date, corrected: boolean): Promise<boolean> {
  // Not twice: a notice still waiting is rendered when it is sent, with the corrected tracking.
  if (await unsentShipmentEmail(trx, orderId)) return false;
  const order = await trx
    .selectFrom("orders")
    .select("customer_email")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  await queueEmail(trx, {
    kind: SHIPMENT_EMAIL,
    recipient: order.customer_email,
    orderId,
    now,
    ...(corrected ? { payload: { [TRACKING_CORRECTED]: true } } : {}),
  });
  return true;
}

type PlainMove = OrderMove & ("ship" | "correctTracking" | "archive" | "unarchive");
type MoveChanges = {
  carrier?: string;
  tracking_number?: string;
  shipped_at?: string;
  delivery_days?: number | null;
  delivery_business_days?: number;
};
type MoveEvent = { kind: OrderEventsTable["kind"]; detail: string };

/**
 * A move whose update is a plain change of columns, with its event (and notice), inside the
 * caller's transaction: null when the order is not in a status the move starts from (nothing changed).
 */
async function moveWithin(
  trx: Db,
  orderId: string,
  name: PlainMove,
  changes: MoveChanges,
  event: MoveEvent,
  options: { notify: boolean; now: Date },
): Promise<{ queued: boolean } | null> {
  const { now } = options;
  const changed = await trx
    .updateTable("orders")
    .set({ ...changes, status: ORDER_MOVES[name].to, updated_at: toTimestamp(now) })
    .where("id", "=", orderId)
    .where("status", "in", movableFrom(name))
    // Taken off the tabs: kept as it was, for the accounts.
    .where("removed_at", "is", null)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 0) return null;
  await recordEvent(trx, orderId, event.kind, event.detail, now);
  return {
    queued: options.notify ? await queueShipmentEmail(trx, orderId, now, name === "correctTracking") : false,
  };
}

/** Applies a plain move in a transaction of its own. */
async function move(
  db: Db,
  orderId: string,
  name: PlainMove,
  changes: MoveChanges,
  event: MoveEvent,
  options: { notify: boolean; now: Date },
): Promise<DeskResult<{ queued: boolean }>> {
  return db.transaction().execute(async (trx) => {
    const done = await moveWithin(trx, orderId, name, changes, event, options);
    return done ? { ok: true, ...done } : refusal(trx, orderId);
  });
}

/**
 * A shipment as the desk records it: its carrier and guide, and the days after which it counts as
 * delivered as Configuración says them now (kept with the order: decision 44).
 */
export type Shipment = ShipmentInput & { deliveryDays?: number };

const shipChanges = (shipment: Shipment, now: Date): MoveChanges => ({
  carrier: shipment.carrier,
  tracking_number: shipment.trackingNumber,
  shipped_at: toTimestamp(now),
  delivery_days: shipment.deliveryDays ?? null,
  // Counted in business days, as the rates promise them (orders shipped before: calendar days).
  delivery_business_days: 1,
});
const shipEvent = (shipment: Shipment): MoveEvent => ({
  kind: "enviado",
  detail: `${shipment.carrier} · guía ${shipment.trackingNumber}`,
});

/**
 * 'Atender pedido' inside the caller's transaction (bulk shipping): the same conditional move
 * pendiente -> enviado, its event and its notice; false when the order is no longer pending.
 */
export async function shipWithin(trx: Db, orderId: string, shipment: Shipment, now: Date): Promise<boolean> {
  const done = await moveWithin(trx, orderId, "ship", shipChanges(shipment, now), shipEvent(shipment), {
    notify: true,
    now,
  });
  return done !== null;
}

/** Just whether it happened: shipping always queues its notice, archiving never does. */
const plain = (result: DeskResult<{ queued: boolean }>): DeskResult => (result.ok ? { ok: true } : result);

/** 'Atender pedido': pendiente -> enviado with carrier and tracking number; the notice is queued with it. */
export async function shipOrder(db: Db, orderId: string, shipment: Shipment, now = new Date()) {
  return plain(
    await move(db, orderId, "ship", shipChanges(shipment, now), shipEvent(shipment), { notify: true, now }),
  );
}

/**
 * A shipped order's tracking, corrected; with `notify` the customer gets the notice again
 * (`queued`), unless the first one has not gone out yet (it will carry the new number).
 */
export function correctTracking(
  db: Db,
  orderId: string,
  shipment: ShipmentInput,
  options: { notify: boolean; now?: Date },
) {
  return move(
    db,
    orderId,
    "correctTracking",
    { carrier: shipment.carrier, tracking_number: shipment.trackingNumber },
    { kind: "guia_corregida", detail: `${shipment.carrier} · guía ${shipment.trackingNumber}` },
    { notify: options.notify, now: options.now ?? new Date() },
  );
}

/** 'Archivar': enviado -> archivado. */
export async function archiveOrder(db: Db, orderId: string, now = new Date()) {
  return plain(
    await move(db, orderId, "archive", {}, { kind: "archivado", detail: "" }, { notify: false, now }),
  );
}

/** Moved back from archivado to enviado ('Desarchivar'). */
export async function unarchiveOrder(db: Db, orderId: string, now = new Date()) {
  return plain(
    await move(db, orderId, "unarchive", {}, { kind: "desarchivado", detail: "" }, { notify: false, now }),
  );
}

/**
 * 'Borrar del historial' (`deleteFromHistory`): a shipped or archived order leaves the tabs for
 * good; its record stays for the accounts (decision 37), in the read-only 'Borrados del historial'
 * and the CSV, and still counts as a sale. Stock is not touched: its pieces were shipped.
 */
export async function removeFromHistory(db: Db, orderId: string, now = new Date()): Promise<DeskResult> {
  return db.transaction().execute(async (trx) => {
    // The shipment notice goes out first: never take off one the customer has not received.
    if (await unsentShipmentEmail(trx, orderId)) {
      return { ok: false, reason: "correo_pendiente", status: null };
    }
    // Nor one whose missing pieces' money is still owed by hand: off the tabs, its 'Ya le devolví
    // las piezas faltantes' would be out of reach, and Reportes would count it owed for ever.
    if (await missingStillOwed(trx, orderId)) {
      return { ok: false, reason: "faltantes_por_devolver", status: null };
    }
    const removed = await trx
      .updateTable("orders")
      .set({ removed_at: toTimestamp(now), updated_at: toTimestamp(now) })
      .where("id", "=", orderId)
      .where("status", "in", movableFrom("deleteFromHistory"))
      .where("removed_at", "is", null)
      .executeTakeFirst();
    if (Number(removed.numUpdatedRows) === 0) return refusal(trx, orderId);
    await recordEvent(trx, orderId, "borrado", "", now);
    return { ok: true };
  });
}

/** A late payment's missing pieces whose money the owner has not recorded giving back. */
async function missingStillOwed(db: Db, orderId: string): Promise<boolean> {
  const row = await db
    .selectFrom("orders as o")
    .innerJoin("order_lines as l", "l.order_id", "o.id")
    .select("o.id")
    .where("o.id", "=", orderId)
    .where("o.missing_refunded_at", "is", null)
    .where("l.missing", ">", 0)
    .executeTakeFirst();
  return row !== undefined;
}

/** 'Reenviar' an e-mail of this order (a failed one is tried again; a sent one is sent once more). */
export async function resendOrderEmail(
  db: Db,
  orderId: string,
  emailId: string,
  now = new Date(),
): Promise<DeskResult<{ queued: boolean }>> {
  const email = await db
    .selectFrom("emails")
    .select(["id", "kind"])
    .where("id", "=", emailId)
    .where("order_id", "=", orderId)
    .executeTakeFirst();
  if (!email) return { ok: false, reason: "no_encontrado", status: null };
  return db.transaction().execute(async (trx) => {
    // Every e-mail of an order is its buyer's: it goes to her address as the order has it now,
    // which the owner may have corrected since it first went (buyer-correction.server.ts).
    const order = await trx
      .selectFrom("orders")
      .select("customer_email")
      .where("id", "=", orderId)
      .executeTakeFirst();
    const recipient = order?.customer_email || undefined;
    // A message waiting for its first try, or being sent now, goes out anyway: nothing to do.
    if (!(await requeueEmail(trx, emailId, now, { recipient }))) return { ok: true, queued: false };
    await recordEvent(trx, orderId, "correo_reenviado", mailKindLabel(email.kind), now);
    return { ok: true, queued: true };
  });
}

/** A paid order (kept or cancelled) for the desk; null for unknown and unpaid orders alike. */
export async function getDeskOrder(db: Db, orderId: string): Promise<Order | null> {
  const row = await db
    .selectFrom("orders")
    .selectAll()
    .where("id", "=", orderId)
    .where("status", "in", [...DESK_STATUSES])
    .executeTakeFirst();
  if (!row) return null;
  return (await withLines(db, [row]))[0] ?? null;
}
