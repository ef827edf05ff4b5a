import { sql } from "kysely";
import { isDropPurchasable } from "~/catalogue/drop-time";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import type { OrderStatus } from "~/db/schema";
import { newId } from "~/lib/ids";
import { formatMXN } from "~/lib/money";
import type { ShippingAddress } from "./shipping";

/** How long a checkout holds its pieces: the life of the payment session. */
export const HOLD_MINUTES = 30;

export interface CheckoutLine {
  productId: string;
  dropId: string;
  quantity: number;
}

/** A checkout the shop must refuse, with the Spanish message the shopper sees. */
export class CheckoutRefused extends Error {
  constructor(
    message: string,
    readonly status: 400 | 409,
  ) {
    super(message);
  }
}

export interface HeldOrder {
  id: string;
  totalCents: number;
  expiresAt: Date;
  lines: { productId: string; dropId: string; name: string; unitPriceCents: number; quantity: number }[];
}

/** Order numbers people can read out on the phone: "OL-" and 8 unambiguous characters. */
export function newOrderId(): string {
  return `OL-${newId(8).toUpperCase()}`;
}

/** Whether `value` has the shape of an order number from `newOrderId`: checked before any query. */
export function isOrderId(value: string): boolean {
  return /^OL-[A-Z0-9]{8}$/.test(value);
}

/** The same product twice in a cart is one line with both quantities. */
function mergeLines(lines: CheckoutLine[]): CheckoutLine[] {
  const merged = new Map<string, CheckoutLine>();
  for (const line of lines) {
    const seen = merged.get(line.productId);
    merged.set(line.productId, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/**
 * Holds the pieces of a cart and creates its order (`esperando_pago`), in one transaction.
 * Names and prices come from the database, never from the shopper. Each hold is a conditional
 * decrement (`stock >= quantity`), so two shoppers can never both get the last piece; if any line
 * is short, nothing is held and the refusal names every short piece and what is left.
 */
export async function holdCart(
  db: Db,
  input: { lines: CheckoutLine[]; provider: string; now?: Date },
): Promise<HeldOrder> {
  const now = input.now ?? new Date();
  const lines = mergeLines(input.lines);
  // Products are always locked in id order, so two carts with the same pieces in another order
  // cannot deadlock each other. Messages and the order keep the shopper's order.
  const lockOrder = [...lines].sort((a, b) =>
    a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0,
  );
  if (lines.length === 0) throw new CheckoutRefused("Tu carrito está vacío.", 400);

  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("products")
      .innerJoin("drops", "drops.id", "products.drop_id")
      .select([
        "products.id",
        "products.drop_id",
        "products.name",
        "products.price_cents",
        "drops.status",
        "drops.start_at",
        "drops.end_at",
      ])
      .where(
        "products.id",
        "in",
        lines.map((l) => l.productId),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));

    // Each line with its product's row: the names and prices of the order come from here.
    const found = lines.map((line) => {
      const row = byId.get(line.productId);
      if (!row || row.drop_id !== line.dropId)
        throw new CheckoutRefused("Uno de los productos ya no existe.", 409);
      return { line, row };
    });
    const unavailable: string[] = [];
    for (const { row } of found) {
      const drop = { status: row.status, startAt: toDate(row.start_at), endAt: toDate(row.end_at) };
      if (!isDropPurchasable(drop, now)) unavailable.push(row.name);
    }
    if (unavailable.length > 0) {
      throw new CheckoutRefused(
        `Ya no se puede comprar: ${unavailable.join(", ")}. Su colección no está activa.`,
        409,
      );
    }

    const shortById = new Map<string, string>();
    for (const line of lockOrder) {
      const held = await trx
        .updateTable("products")
        .set({ stock: sql`stock - ${line.quantity}`, updated_at: toTimestamp(now) })
        .where("id", "=", line.productId)
        .where("stock", ">=", line.quantity)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) {
        const left = await trx
          .selectFrom("products")
          .select("stock")
          .where("id", "=", line.productId)
          .executeTakeFirst();
        const name = byId.get(line.productId)?.name ?? "";
        const stock = left?.stock ?? 0;
        shortById.set(line.productId, stock === 0 ? `${name} (agotado)` : `${name} (quedan ${stock})`);
      }
    }
    const short = lines.map((l) => shortById.get(l.productId)).filter((m) => m !== undefined);
    if (short.length > 0) {
      // Throwing rolls back every hold taken above.
      throw new CheckoutRefused(`No hay piezas suficientes: ${short.join(", ")}.`, 409);
    }

    const snapshot = found.map(({ line, row }) => ({
      productId: row.id,
      dropId: row.drop_id,
      name: row.name,
      unitPriceCents: row.price_cents,
      quantity: line.quantity,
    }));
    const order: HeldOrder = {
      id: newOrderId(),
      totalCents: snapshot.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
      expiresAt: new Date(now.getTime() + HOLD_MINUTES * 60_000),
      lines: snapshot,
    };
    await trx
      .insertInto("orders")
      .values({
        id: order.id,
        status: "esperando_pago",
        total_cents: order.totalCents,
        currency: "mxn",
        customer_name: "",
        customer_email: "",
        payment_provider: input.provider,
        // The session, shipping address and tracking columns stay null until they are known.
        expires_at: toTimestamp(order.expiresAt),
        created_at: toTimestamp(now),
        updated_at: toTimestamp(now),
      })
      .execute();
    await trx
      .insertInto("order_lines")
      .values(
        snapshot.map((l, position) => ({
          order_id: order.id,
          position,
          product_id: l.productId,
          drop_id: l.dropId,
          name: l.name,
          unit_price_cents: l.unitPriceCents,
          quantity: l.quantity,
        })),
      )
      .execute();
    return order;
  });
}

/** Links the order to its payment session; the hold lasts as long as the session accepts payment. */
export async function setPaymentSession(
  db: Db,
  orderId: string,
  session: { id: string; expiresAt: Date },
): Promise<void> {
  await db
    .updateTable("orders")
    .set({ payment_session_id: session.id, expires_at: toTimestamp(session.expiresAt) })
    .where("id", "=", orderId)
    .execute();
}

/** A delayed payment (e.g. cash at a store) is still on its way: keep the hold a while longer. */
export async function extendHold(db: Db, orderId: string, until: Date): Promise<void> {
  await db
    .updateTable("orders")
    .set({ expires_at: toTimestamp(until) })
    .where("id", "=", orderId)
    .where("status", "=", "esperando_pago")
    .execute();
}

/** Gives a hold's pieces back to stock. Only the first call for an order does anything. */
export async function releaseHold(db: Db, orderId: string, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("orders")
      .set({ status: "expirado", updated_at: toTimestamp(now) })
      .where("id", "=", orderId)
      .where("status", "=", "esperando_pago")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return false;
    await restock(trx, orderId, now);
    return true;
  });
}

async function restock(trx: Db, orderId: string, now: Date) {
  for (const line of await linesInLockOrder(trx, orderId)) {
    await trx
      .updateTable("products")
      .set({ stock: sql`stock + ${line.quantity}`, updated_at: toTimestamp(now) })
      .where("id", "=", line.product_id)
      .execute();
  }
}

export type PaidOutcome =
  | "paid"
  | "already_paid"
  | "paid_after_expiry"
  | "paid_after_expiry_short"
  | "unknown_order";

/**
 * Payment confirmed: the order becomes `pendiente` with the customer's details. Idempotent: a
 * second confirmation changes nothing. A payment that arrives after its hold expired takes the
 * pieces again if they are still there; if not, the order is kept (the money is real) with a
 * `stock_issue` saying what is missing, so the shop can refund it — stock never goes below zero.
 */
export async function confirmPayment(
  db: Db,
  input: {
    orderId: string;
    customerName: string;
    customerEmail: string;
    shipping?: ShippingAddress | null;
    now?: Date;
  },
): Promise<PaidOutcome> {
  const now = input.now ?? new Date();
  const ship = input.shipping;
  const paid = {
    status: "pendiente" as const,
    customer_name: input.customerName,
    customer_email: input.customerEmail,
    ...(ship
      ? {
          ship_name: ship.name,
          ship_phone: ship.phone,
          ship_line1: ship.line1,
          ship_line2: ship.line2,
          ship_city: ship.city,
          ship_state: ship.state,
          ship_postal_code: ship.postalCode,
          ship_country: ship.country,
        }
      : {}),
    paid_at: toTimestamp(now),
    updated_at: toTimestamp(now),
  };
  // Each branch claims its transition with a conditional update: on PostgreSQL a concurrent
  // release or a second confirmation waits for this row and then finds the status changed.
  return db.transaction().execute(async (trx) => {
    const fromWaiting = await trx
      .updateTable("orders")
      .set(paid)
      .where("id", "=", input.orderId)
      .where("status", "=", "esperando_pago")
      .executeTakeFirst();
    if (Number(fromWaiting.numUpdatedRows) === 1) {
      await queueEmail(trx, input.orderId, "confirmacion", now);
      return "paid";
    }

    const fromExpired = await trx
      .updateTable("orders")
      .set(paid)
      .where("id", "=", input.orderId)
      .where("status", "=", "expirado")
      .executeTakeFirst();
    if (Number(fromExpired.numUpdatedRows) === 0) {
      const exists = await trx
        .selectFrom("orders")
        .select("id")
        .where("id", "=", input.orderId)
        .executeTakeFirst();
      return exists ? "already_paid" : "unknown_order";
    }
    // Its hold had been released: take the pieces again where they are still there.
    const missing: string[] = [];
    for (const line of await linesInLockOrder(trx, input.orderId)) {
      const taken = await trx
        .updateTable("products")
        .set({ stock: sql`stock - ${line.quantity}` })
        .where("id", "=", line.product_id)
        .where("stock", ">=", line.quantity)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) missing.push(`${line.name} × ${line.quantity}`);
    }
    if (missing.length > 0) {
      await trx
        .updateTable("orders")
        .set({ stock_issue: `Pagado después de vencer el apartado, sin stock para: ${missing.join(", ")}` })
        .where("id", "=", input.orderId)
        .execute();
    }
    await queueEmail(trx, input.orderId, "confirmacion", now);
    return missing.length === 0 ? "paid_after_expiry" : "paid_after_expiry_short";
  });
}

/** An order's lines in product-id order: every transaction locks products in the same order. */
async function linesInLockOrder(trx: Db, orderId: string) {
  return trx
    .selectFrom("order_lines")
    .selectAll()
    .where("order_id", "=", orderId)
    .orderBy("product_id")
    .execute();
}

/** Queues an e-mail about an order; one per order and kind, whatever happens. */
async function queueEmail(trx: Db, orderId: string, kind: "confirmacion" | "envio", now: Date) {
  await trx
    .insertInto("emails")
    .values({
      id: newId(),
      order_id: orderId,
      kind,
      created_at: toTimestamp(now),
      claimed_at: null,
      sent_at: null,
      attempts: 0,
      last_error: null,
    })
    .onConflict((oc) => oc.columns(["order_id", "kind"]).doNothing())
    .execute();
}

/** Records a payment event id; false when it was already processed (a replay). */
export async function recordPaymentEvent(
  db: Db,
  id: string,
  type: string,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .insertInto("payment_events")
    .values({ id, type, received_at: toTimestamp(now) })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export interface OrderSummary {
  id: string;
  status: OrderStatus;
  totalCents: number;
  total: string;
  expiresAt: Date;
  customerName: string;
  customerEmail: string;
  paymentSessionId: string | null;
  /** Why this paid order cannot be fully served from stock (refund by hand), or null. */
  stockIssue: string | null;
  shipping: ShippingAddress | null;
  lines: { name: string; quantity: number; unitPriceCents: number }[];
}

export async function getOrder(db: Db, id: string): Promise<OrderSummary | null> {
  const order = await db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
  if (!order) return null;
  const lines = await db
    .selectFrom("order_lines")
    .select(["name", "quantity", "unit_price_cents"])
    .where("order_id", "=", id)
    .orderBy("position")
    .execute();
  return {
    id: order.id,
    status: order.status,
    totalCents: order.total_cents,
    total: formatMXN(order.total_cents),
    expiresAt: toDate(order.expires_at),
    customerName: order.customer_name,
    customerEmail: order.customer_email,
    paymentSessionId: order.payment_session_id,
    stockIssue: order.stock_issue,
    shipping: order.ship_line1
      ? {
          name: order.ship_name ?? "",
          phone: order.ship_phone ?? "",
          line1: order.ship_line1,
          line2: order.ship_line2 ?? "",
          city: order.ship_city ?? "",
          state: order.ship_state ?? "",
          postalCode: order.ship_postal_code ?? "",
          country: order.ship_country ?? "MX",
        }
      : null,
    lines: lines.map((l) => ({ name: l.name, quantity: l.quantity, unitPriceCents: l.unit_price_cents })),
  };
}

/** Holds whose time is up, oldest first: what the sweeper must settle. */
export async function expiredHolds(db: Db, now = new Date(), limit = 50) {
  return db
    .selectFrom("orders")
    .select(["id", "payment_session_id", "payment_provider"])
    .where("status", "=", "esperando_pago")
    .where("expires_at", "<", toTimestamp(now))
    .orderBy("expires_at")
    .limit(limit)
    .execute();
}
