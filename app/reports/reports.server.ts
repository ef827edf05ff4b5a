import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { REFUND_IN_PROGRESS } from "~/orders/order";
import { isByHandReason, isNoAnswer } from "~/orders/refund-timing";
import { DESK_TABS } from "~/orders/status";
import { monthKey, monthRange } from "./calendar";
import { buildReport, type Report, type ReportData, type ReportScope } from "./report";

/*
 * Reads what a report needs, read-only, with queries both databases run alike (timestamps are
 * compared as ISO text on SQLite, as instants on PostgreSQL); report.ts does the arithmetic.
 */

/** Paid orders: the orders desk's three tabs. Waiting and expired orders never sold anything. */
const SOLD = [...DESK_TABS];

export type ReportResult =
  | { ok: true; report: Report; drops: { id: string; name: string }[]; months: string[] }
  | { ok: false; reason: "no_encontrado" };

export async function loadReport(db: Db, scope: ReportScope): Promise<ReportResult> {
  const dropRows = await db
    .selectFrom("drops")
    .select(["id", "name", "start_at", "end_at"])
    .orderBy("start_at", "desc")
    .execute();
  const drops = dropRows.map((d) => ({
    id: d.id,
    name: d.name,
    startAt: toDate(d.start_at),
    endAt: toDate(d.end_at),
  }));
  if (scope.kind === "drop" && !drops.some((d) => d.id === scope.dropId))
    return { ok: false, reason: "no_encontrado" };

  let linesQuery = db
    .selectFrom("order_lines as l")
    .innerJoin("orders as o", "o.id", "l.order_id")
    .leftJoin("products as p", "p.id", "l.product_id")
    .select([
      "l.order_id",
      "o.paid_at",
      "o.customer_email",
      "o.stock_issue",
      "o.missing_refunded_at",
      "o.missing_refund_status",
      "o.missing_refund_error",
      "l.drop_id",
      "l.product_id",
      "l.name",
      "l.unit_price_cents",
      "l.quantity",
      "l.missing",
      "l.option_id",
      "l.option_value",
      "p.option_name",
      "p.name as product_name",
      // Its pieces a made return put back on the shelf: in the stock again, no longer this line's.
      (eb) =>
        eb
          .selectFrom("return_lines as rl")
          .innerJoin("returns as r", "r.id", "rl.return_id")
          .select((sub) => sub.fn.sum<number | string>(sub.fn.coalesce("rl.received", "rl.quantity")).as("n"))
          .whereRef("r.order_id", "=", "l.order_id")
          .whereRef("rl.position", "=", "l.position")
          .where("rl.restock", "=", 1)
          .where("r.status", "=", "reembolsada")
          .as("restocked"),
    ])
    .where("o.status", "in", SOLD)
    .where("o.paid_at", "is not", null);
  if (scope.kind === "drop") linesQuery = linesQuery.where("l.drop_id", "=", scope.dropId);
  if (scope.kind === "month") {
    const { start, end } = monthRange(scope.month);
    linesQuery = linesQuery
      .where("o.paid_at", ">=", toTimestamp(start))
      .where("o.paid_at", "<", toTimestamp(end));
  }
  const lineRows = await linesQuery
    .orderBy("o.paid_at")
    .orderBy("l.order_id")
    .orderBy("l.position")
    .execute();

  // Products and the waitlist matter where a drop's whole history is read (not in a month's view).
  const wholeHistory = scope.kind !== "month";
  const productRows = wholeHistory
    ? await db
        .selectFrom("products")
        .select(["id", "drop_id", "name", "stock", "option_name"])
        .$if(scope.kind === "drop", (q) => q.where("drop_id", "=", scope.kind === "drop" ? scope.dropId : ""))
        .orderBy("drop_id")
        .orderBy("position")
        .execute()
    : [];
  const heldRows = wholeHistory
    ? await db
        .selectFrom("order_lines as l")
        .innerJoin("orders as o", "o.id", "l.order_id")
        .select(["l.product_id", "l.option_id", (eb) => eb.fn.sum<number | string>("l.quantity").as("held")])
        .where("o.status", "=", "esperando_pago")
        .$if(scope.kind === "drop", (q) =>
          q.where("l.drop_id", "=", scope.kind === "drop" ? scope.dropId : ""),
        )
        .groupBy(["l.product_id", "l.option_id"])
        .execute()
    : [];
  const held = new Map<string, number>();
  const heldPerValue = new Map<string, number>();
  for (const r of heldRows) {
    held.set(r.product_id, (held.get(r.product_id) ?? 0) + Number(r.held));
    if (r.option_id) heldPerValue.set(r.option_id, Number(r.held));
  }
  // Each sized product's values, in the owner's order: which sizes sell and which are left.
  const valueRows = productRows.some((p) => p.option_name !== null)
    ? await db
        .selectFrom("product_options as v")
        .innerJoin("products as p", "p.id", "v.product_id")
        .select(["v.id", "v.product_id", "v.value", "v.stock"])
        .$if(scope.kind === "drop", (q) =>
          q.where("p.drop_id", "=", scope.kind === "drop" ? scope.dropId : ""),
        )
        .orderBy("v.product_id")
        .orderBy("v.position")
        .execute()
    : [];
  const values = new Map<string, { id: string; value: string; stock: number; held: number }[]>();
  for (const { product_id, ...v } of valueRows) {
    const value = { ...v, held: heldPerValue.get(v.id) ?? 0 };
    const list = values.get(product_id);
    if (list) list.push(value);
    else values.set(product_id, [value]);
  }
  const waitlist = wholeHistory
    ? await db
        .selectFrom("waitlist_subscriptions")
        .select(["drop_id", "email"])
        // Confirmed now, as Campañas counts them: an address that left the list is not one.
        .where("status", "=", "confirmada")
        .$if(scope.kind === "drop", (q) => q.where("drop_id", "=", scope.kind === "drop" ? scope.dropId : ""))
        .execute()
    : [];
  const paidAts = await db
    .selectFrom("orders")
    .select("paid_at")
    .distinct()
    .where("status", "in", SOLD)
    .where("paid_at", "is not", null)
    .execute();
  const months = [...new Set(paidAts.map((r) => monthKey(toDate(r.paid_at as Date | string))))]
    .sort()
    .reverse();

  // Paid orders cancelled with their refund (over the limit, or by the shop), in the scope: a
  // drop's counts only its own pieces of an order that had pieces of several drops.
  let cancelledQuery = db
    .selectFrom("refunds as r")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .innerJoin("order_lines as l", "l.order_id", "r.order_id")
    .select([
      "r.order_id",
      "r.status",
      "r.last_error",
      "o.shipping_cents",
      (eb) => eb.fn.sum<number | string>(eb("l.unit_price_cents", "*", eb.ref("l.quantity"))).as("cents"),
    ])
    .where("o.status", "=", "cancelado")
    .groupBy(["r.order_id", "r.status", "r.last_error", "o.shipping_cents"]);
  if (scope.kind === "drop") cancelledQuery = cancelledQuery.where("l.drop_id", "=", scope.dropId);
  if (scope.kind === "month") {
    const { start, end } = monthRange(scope.month);
    cancelledQuery = cancelledQuery
      .where("o.paid_at", ">=", toTimestamp(start))
      .where("o.paid_at", "<", toTimestamp(end));
  }
  const cancelledRows = await cancelledQuery.execute();
  // The whole shop's and a month's refunds gave the shipping back too; a drop's, only its pieces.
  const refundedShipping = (r: { shipping_cents: number }) => (scope.kind === "drop" ? 0 : r.shipping_cents);

  // Shipping collected by the sold orders (decision 43), apart from the pieces; an order paid late
  // with nothing left to send is kept out (its shipping goes back too), one that sent some is not.
  // Not read for a drop: an order's shipping is not one drop's.
  let shippingQuery = db
    .selectFrom("orders")
    .select([
      (eb) => eb.fn.sum<number | string>("shipping_cents").as("cents"),
      (eb) => eb.fn.count<number | string>("id").as("orders"),
    ])
    .where("status", "in", SOLD)
    .where("paid_at", "is not", null)
    .where((eb) =>
      eb.or([
        eb("stock_issue", "is", null),
        eb.exists(
          eb
            .selectFrom("order_lines as sent")
            .select("sent.order_id")
            .whereRef("sent.order_id", "=", "orders.id")
            .whereRef("sent.quantity", ">", "sent.missing"),
        ),
      ]),
    )
    .where("shipping_cents", ">", 0);
  if (scope.kind === "month") {
    const { start, end } = monthRange(scope.month);
    shippingQuery = shippingQuery
      .where("paid_at", ">=", toTimestamp(start))
      .where("paid_at", "<", toTimestamp(end));
  }
  const shippingRow = scope.kind === "drop" ? null : await shippingQuery.executeTakeFirst();

  // Returns whose pieces came back (decision 48), by the month their order was paid, like the
  // sales they give money back from; a drop's counts only its own pieces.
  let returnedQuery = db
    .selectFrom("return_lines as rl")
    .innerJoin("returns as r", "r.id", "rl.return_id")
    .innerJoin("orders as o", "o.id", "r.order_id")
    .innerJoin("order_lines as l", (j) =>
      j.onRef("l.order_id", "=", "r.order_id").onRef("l.position", "=", "rl.position"),
    )
    // The pieces that came back: those that arrived (a return received with fewer counts those).
    .select((eb) => [
      "r.id",
      "r.refund_status",
      eb.fn.coalesce("rl.received", "rl.quantity").as("quantity"),
      "rl.unit_price_cents",
    ])
    .where("r.status", "in", ["recibida", "reembolsada"]);
  if (scope.kind === "drop") returnedQuery = returnedQuery.where("l.drop_id", "=", scope.dropId);
  if (scope.kind === "month") {
    const { start, end } = monthRange(scope.month);
    returnedQuery = returnedQuery
      .where("o.paid_at", ">=", toTimestamp(start))
      .where("o.paid_at", "<", toTimestamp(end));
  }
  const returnedRows = await returnedQuery.execute();

  const data: ReportData = {
    returned: {
      returns: new Set(returnedRows.map((r) => r.id)).size,
      pieces: returnedRows.reduce((sum, r) => sum + r.quantity, 0),
      cents: returnedRows.reduce((sum, r) => sum + r.quantity * r.unit_price_cents, 0),
      pending: new Set(returnedRows.filter((r) => r.refund_status !== "hecho").map((r) => r.id)).size,
    },
    cancelled: {
      orders: cancelledRows.length,
      cents: cancelledRows.reduce((sum, r) => sum + Number(r.cents) + refundedShipping(r), 0),
      // A refund no provider can make (cash paid at OXXO) waits for the owner, not the provider.
      pending: cancelledRows.filter((r) => r.status !== "hecho" && !isByHandReason(r.last_error)).length,
      byHand: cancelledRows.filter((r) => r.status !== "hecho" && isByHandReason(r.last_error)).length,
    },
    shipping: { orders: Number(shippingRow?.orders ?? 0), cents: Number(shippingRow?.cents ?? 0) },
    drops,
    products: productRows.map((p) => ({
      id: p.id,
      dropId: p.drop_id,
      name: p.name,
      stock: p.stock,
      held: held.get(p.id) ?? 0,
      option: p.option_name === null ? null : { name: p.option_name, values: values.get(p.id) ?? [] },
    })),
    lines: lineRows.map((l) => ({
      orderId: l.order_id,
      paidAt: toDate(l.paid_at as Date | string),
      email: l.customer_email,
      refund: l.stock_issue !== null,
      missingRefunded: l.missing_refunded_at !== null,
      // The provider's to make while it is asked, in its hands or unanswered; one it refused is the
      // owner's to give back by hand (the order offers it), so it is counted as hers.
      missingAtProvider:
        l.missing_refund_status === "pendiente" &&
        (l.missing_refund_error === null ||
          l.missing_refund_error === REFUND_IN_PROGRESS ||
          isNoAnswer(l.missing_refund_error)),
      dropId: l.drop_id,
      productId: l.product_id,
      // A sized line is named as bought ('Anillo Marea talla 7'); the month's view lists the piece.
      name: l.option_value !== null && l.product_name !== null ? l.product_name : l.name,
      unitPriceCents: l.unit_price_cents,
      quantity: l.quantity,
      missing: l.missing,
      restocked: Number(l.restocked ?? 0),
      optionName: l.option_name ?? null,
      optionId: l.option_id,
      optionValue: l.option_value,
    })),
    waitlist: waitlist.map((w) => ({ dropId: w.drop_id, email: w.email })),
    months,
  };
  return {
    ok: true,
    report: buildReport(data, scope),
    drops: drops.map((d) => ({ id: d.id, name: d.name })),
    months,
  };
}
