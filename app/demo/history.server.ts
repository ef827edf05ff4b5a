import type { Insertable } from "kysely";
import { type Db, toTimestamp } from "~/db/database.server";
import type {
  EmailsTable,
  OrderEventsTable,
  OrderLinesTable,
  OrdersTable,
  RefundsTable,
  WaitlistSubscriptionsTable,
} from "~/db/schema";
import { newId } from "~/lib/ids";
import { CANCELLATION_EMAIL, CONFIRMATION_EMAIL, SHIPMENT_EMAIL } from "~/mail/kinds";
import { addressKey, emailKey } from "~/orders/buyer-keys";
import { pieceName } from "~/orders/cart-read.server";
import { numberEditionPieces } from "~/orders/editions.server";
import { orderSearchKey } from "~/orders/search";
import type { ShippingAddress } from "~/orders/shipping";
import { DEFAULT_DELIVERY_DAYS } from "~/settings/settings";
import { DEMO_DROPS } from "./catalogue";
import { DEMO_BUYERS, DEMO_CANCEL_REASON, DEMO_ORDERS, DEMO_PAST_WAITLISTS, type DemoOrder } from "./history";

/*
 * Writes the demo shop's past (history.ts) in the first start's transaction, right after the
 * catalogue: paid orders with their lines, timeline and e-mails (recorded as sent: nothing is
 * queued), the cancelled order's refund, edition numbers as a payment gives them, and the past
 * drops' 'Avísame' lists. Rows go in a handful of inserts, so the first start stays quick.
 */

const HOUR = 3_600_000;
/** How long a demo e-mail took to leave after it was queued. */
const MAIL_DELAY = 60_000;
/** The time between opening the payment page and paying. */
const CHECKOUT_TIME = 4 * 60_000;

/** `OL-DEMO0001`: a real order number never has an O (orders/ids.ts), so these cannot clash. */
export function demoOrderId(index: number): string {
  return `OL-DEMO${String(index + 1).padStart(4, "0")}`;
}

/** Whether an order is one of the demo's (its number says so). */
export function isDemoOrderId(orderId: string): boolean {
  return /^OL-DEMO\d{4}$/.test(orderId);
}

type PastRole = DemoOrder["drop"];

interface ProductInfo {
  id: string;
  dropId: string;
  name: string;
  priceCents: number;
  optionName: "Talla" | "Largo" | null;
  edition: boolean;
  /** Its option's values by value ('7' → the row's id). */
  values: Map<string, string>;
}

async function readProducts(trx: Db, dropIds: string[]): Promise<Map<string, ProductInfo>> {
  const rows = await trx
    .selectFrom("products")
    .select(["id", "drop_id", "name", "price_cents", "option_name", "edition_size"])
    .where("drop_id", "in", dropIds)
    .execute();
  const values = await trx
    .selectFrom("product_options")
    .select(["id", "product_id", "value"])
    .where(
      "product_id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
  const byKey = new Map<string, ProductInfo>();
  for (const r of rows) {
    byKey.set(`${r.drop_id}:${r.name}`, {
      id: r.id,
      dropId: r.drop_id,
      name: r.name,
      priceCents: r.price_cents,
      optionName: r.option_name,
      edition: r.edition_size !== null,
      values: new Map(values.filter((v) => v.product_id === r.id).map((v) => [v.value, v.id])),
    });
  }
  return byKey;
}

interface Rows {
  orders: Insertable<OrdersTable>[];
  lines: Insertable<OrderLinesTable>[];
  events: Insertable<OrderEventsTable>[];
  emails: Insertable<EmailsTable>[];
  refunds: Insertable<RefundsTable>[];
  /** Orders with a numbered piece, with when they were paid, oldest first. */
  numbered: { orderId: string; paidAt: Date }[];
}

/** An e-mail of the order, recorded as queued at `at` and sent a minute later. */
function sentEmail(kind: string, orderId: string, recipient: string, at: Date, dedupe: boolean) {
  return {
    id: newId(),
    kind,
    recipient,
    order_id: orderId,
    dedupe_key: dedupe ? `${kind}:${orderId}` : null,
    payload: "{}",
    created_at: toTimestamp(at),
    claimed_at: toTimestamp(at),
    next_attempt_at: null,
    sent_at: toTimestamp(new Date(at.getTime() + MAIL_DELAY)),
    attempts: 1,
    last_error: null,
    // Null: the mail log names it by its kind ('Confirmación de pedido'); no template ran.
    subject: null,
  };
}

function orderRows(
  rows: Rows,
  index: number,
  order: DemoOrder,
  opened: Date,
  products: Map<string, ProductInfo>,
  dropId: string,
) {
  const id = demoOrderId(index);
  const buyer = DEMO_BUYERS[order.buyer];
  if (!buyer) throw new Error(`demo order ${id}: no buyer ${order.buyer}`);
  const at = (hours: number, from: Date) => new Date(from.getTime() + hours * HOUR);
  const paidAt = at(order.paidAfterHours, opened);
  const createdAt = new Date(paidAt.getTime() - CHECKOUT_TIME);
  const lines = order.lines.map((line, position) => {
    const product = products.get(`${dropId}:${line.product}`);
    if (!product) throw new Error(`demo order ${id}: no product ${line.product}`);
    const optionId = line.size === undefined ? null : product.values.get(line.size);
    if (optionId === undefined || (optionId === null) !== (product.optionName === null)) {
      throw new Error(`demo order ${id}: ${line.product} has no size ${line.size ?? "(none)"}`);
    }
    return {
      order_id: id,
      position,
      product_id: product.id,
      drop_id: product.dropId,
      // As a checkout names it: the piece and its size ('Anillos Tarde Larga talla 7').
      name: pieceName(
        { name: product.name, option_name: product.optionName },
        line.size ? { value: line.size } : null,
      ),
      option_id: optionId,
      option_value: line.size ?? null,
      unit_price_cents: product.priceCents,
      quantity: line.quantity,
      edition: product.edition,
    };
  });
  const shipping: ShippingAddress = {
    name: buyer.name,
    phone: buyer.phone,
    line1: buyer.line1,
    line2: buyer.line2,
    city: buyer.city,
    state: buyer.state,
    postalCode: buyer.postalCode,
    country: "MX",
  };
  const shippedAt = order.shipped ? at(order.shipped.afterHours, paidAt) : null;
  const archivedAt =
    shippedAt && order.archivedAfterHours !== undefined ? at(order.archivedAfterHours, shippedAt) : null;
  const cancelledAt = order.cancelledAfterHours !== undefined ? at(order.cancelledAfterHours, paidAt) : null;
  const totalCents = lines.reduce((sum, l) => sum + l.unit_price_cents * l.quantity, 0);
  const lastChange = cancelledAt ?? archivedAt ?? shippedAt ?? paidAt;

  rows.orders.push({
    id,
    status: order.status,
    total_cents: totalCents,
    currency: "mxn",
    customer_name: buyer.name,
    customer_email: buyer.email,
    payment_provider: "demo",
    payment_session_id: `demo_${id}`,
    expires_at: toTimestamp(new Date(createdAt.getTime() + 30 * 60_000)),
    paid_at: toTimestamp(paidAt),
    stock_issue: null,
    ship_name: shipping.name,
    ship_phone: shipping.phone,
    ship_line1: shipping.line1,
    ship_line2: shipping.line2,
    ship_city: shipping.city,
    ship_state: shipping.state,
    ship_postal_code: shipping.postalCode,
    ship_country: shipping.country,
    tracking_number: order.shipped?.tracking ?? null,
    carrier: order.shipped?.carrier ?? null,
    shipped_at: shippedAt ? toTimestamp(shippedAt) : null,
    // Shipped with the days a new shop's Configuración says, as 'Atender pedido' keeps them.
    delivery_days: shippedAt ? DEFAULT_DELIVERY_DAYS : null,
    delivery_business_days: 1,
    search_text: orderSearchKey(id, buyer.name, buyer.email),
    email_key: emailKey(buyer.email),
    address_key: addressKey(shipping),
    created_at: toTimestamp(createdAt),
    updated_at: toTimestamp(lastChange),
  });
  rows.lines.push(...lines.map(({ edition: _, ...line }) => line));
  rows.emails.push(sentEmail(CONFIRMATION_EMAIL, id, buyer.email, paidAt, true));
  if (order.shipped && shippedAt) {
    const detail = `${order.shipped.carrier} · guía ${order.shipped.tracking}`;
    rows.events.push({
      id: newId(),
      order_id: id,
      kind: "enviado",
      detail,
      created_at: toTimestamp(shippedAt),
    });
    rows.emails.push(sentEmail(SHIPMENT_EMAIL, id, buyer.email, shippedAt, false));
  }
  if (archivedAt) {
    rows.events.push({
      id: newId(),
      order_id: id,
      kind: "archivado",
      detail: "",
      created_at: toTimestamp(archivedAt),
    });
  }
  if (cancelledAt) {
    // Refunded through the demo provider as it records one ('demo_re_<order>'); its pieces are
    // back in stock: the catalogue's stock counts them.
    rows.refunds.push({
      order_id: id,
      amount_cents: totalCents,
      currency: "mxn",
      provider: "demo",
      reason: DEMO_CANCEL_REASON,
      status: "hecho",
      provider_refund_id: `demo_re_${id}`,
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
      created_at: toTimestamp(cancelledAt),
      refunded_at: toTimestamp(cancelledAt),
    });
    rows.emails.push(sentEmail(CANCELLATION_EMAIL, id, buyer.email, cancelledAt, true));
  }
  if (order.status !== "cancelado" && lines.some((l) => l.edition))
    rows.numbered.push({ orderId: id, paidAt });
}

function pastSignUps(role: PastRole, dropId: string, opened: Date): Insertable<WaitlistSubscriptionsTable>[] {
  const before = (hours: number) => toTimestamp(new Date(opened.getTime() - hours * HOUR));
  // The opening notice went out in the drop's first minute.
  const notifiedAt = new Date(opened.getTime() + 60_000);
  return DEMO_PAST_WAITLISTS[role].map((s) => ({
    id: newId(),
    drop_id: dropId,
    email: s.email,
    status: s.status,
    site_url: "http://localhost:3000",
    created_at: before(s.signedUpHoursBefore),
    confirmation_sent_at: before(s.signedUpHoursBefore),
    confirmed_at: s.confirmedHoursBefore === undefined ? null : before(s.confirmedHoursBefore),
    unsubscribed_at:
      s.unsubscribedHoursAfter === undefined
        ? null
        : toTimestamp(new Date(notifiedAt.getTime() + s.unsubscribedHoursAfter * HOUR)),
    notified_at: s.confirmedHoursBefore === undefined ? null : toTimestamp(notifiedAt),
  }));
}

/**
 * The past of a freshly seeded demo shop: `dropIds` are the catalogue's drops in DEMO_DROPS'
 * order, just written with the same `now`.
 */
export async function writeDemoHistory(trx: Db, dropIds: readonly string[], now: Date): Promise<void> {
  const past = new Map<PastRole, { id: string; opened: Date }>();
  DEMO_DROPS.forEach((drop, i) => {
    const id = dropIds[i];
    if (id && (drop.role === "ended" || drop.role === "archived")) {
      past.set(drop.role, { id, opened: new Date(now.getTime() + drop.startOffsetHours * HOUR) });
    }
  });
  if (past.size === 0) return;
  const products = await readProducts(
    trx,
    [...past.values()].map((d) => d.id),
  );
  const rows: Rows = { orders: [], lines: [], events: [], emails: [], refunds: [], numbered: [] };
  DEMO_ORDERS.forEach((order, index) => {
    const drop = past.get(order.drop);
    if (drop) orderRows(rows, index, order, drop.opened, products, drop.id);
  });
  const signUps = [...past].flatMap(([role, drop]) => pastSignUps(role, drop.id, drop.opened));

  if (rows.orders.length > 0) {
    await trx.insertInto("orders").values(rows.orders).execute();
    await trx.insertInto("order_lines").values(rows.lines).execute();
    await trx.insertInto("emails").values(rows.emails).execute();
  }
  if (rows.events.length > 0) await trx.insertInto("order_events").values(rows.events).execute();
  if (rows.refunds.length > 0) await trx.insertInto("refunds").values(rows.refunds).execute();
  if (signUps.length > 0) await trx.insertInto("waitlist_subscriptions").values(signUps).execute();
  // Numbered pieces get their numbers as a payment gives them, in the order they were paid.
  rows.numbered.sort((a, b) => a.paidAt.getTime() - b.paidAt.getTime());
  for (const { orderId, paidAt } of rows.numbered) await numberEditionPieces(trx, orderId, paidAt);
}
