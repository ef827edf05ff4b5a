import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { formatShopDate, shopDateTimeStamp, shopTimeToInstant } from "~/lib/dates";
import { newId } from "~/lib/ids";
import { addBusinessDays } from "./return-window.server";

/*
 * Delivery (issue 27): the owner marks shipped orders 'Entregado' (one or many); until she does,
 * an order counts as delivered some days after it was shipped: the days Configuración said when
 * it shipped, kept with it, so that changing them later moves no buyer's delivery nor return
 * window (decision 44). The buyer's return window (return-window.server.ts) counts from the
 * delivery.
 */

/**
 * Marks shipped orders delivered, once each; how many were marked (others: not shipped, or
 * already). An order already counted as delivered (`assumedDays` after shipping) keeps that date:
 * marking it late never reopens a return window that had closed.
 */
export async function markDelivered(
  db: Db,
  orderIds: readonly string[],
  assumedDays: number,
  now = new Date(),
): Promise<number> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return 0;
  const rows = await db
    .selectFrom("orders")
    .select(["id", "shipped_at", "delivery_days", "delivery_business_days"])
    .where("id", "in", ids)
    .where("status", "in", ["enviado", "archivado"])
    .where("delivered_at", "is", null)
    .execute();
  let marked = 0;
  for (const row of rows) {
    const shippedAt = row.shipped_at ? toDate(row.shipped_at) : null;
    const shipment = {
      shippedAt,
      deliveredAt: null,
      deliveryDays: row.delivery_days,
      deliveryBusinessDays: row.delivery_business_days === 1,
    };
    const at = deliveredAt(shipment, assumedDays, now)?.at ?? now;
    const result = await db
      .updateTable("orders")
      .set({ delivered_at: toTimestamp(at), updated_at: toTimestamp(now) })
      .where("id", "=", row.id)
      .where("delivered_at", "is", null)
      .executeTakeFirst();
    marked += Number(result.numUpdatedRows);
  }
  return marked;
}

/**
 * When the order was delivered: marked by the owner, or assumed some days after shipping once that
 * day has come: the days kept with the order when it shipped, or `assumedDays` (Configuración's
 * now) for one that kept none. Null: not shipped, or not yet delivered.
 */
export function deliveredAt(
  order: {
    shippedAt: Date | null;
    deliveredAt: Date | null;
    deliveryDays?: number | null;
    deliveryBusinessDays?: boolean;
  },
  assumedDays: number,
  now: Date,
): { at: Date; assumed: boolean } | null {
  if (order.deliveredAt) return { at: order.deliveredAt, assumed: false };
  if (!order.shippedAt) return null;
  const days = order.deliveryDays ?? assumedDays;
  // Shipped before business days were counted: its calendar days stay (a delivery already shown never goes back).
  const assumed = order.deliveryBusinessDays
    ? assumedDeliveryAt(order.shippedAt, days)
    : new Date(order.shippedAt.getTime() + days * 86_400_000);
  return assumed <= now ? { at: assumed, assumed: true } : null;
}

/**
 * When a parcel shipped at `shippedAt` counts as delivered: `days` business days later (Mexico City,
 * at the hour it shipped), as the shipping rates promise ('3 a 7 días hábiles'): calendar days would
 * count a parcel delivered, and start her return window, before the carrier's own time was up.
 */
export function assumedDeliveryAt(shippedAt: Date, days: number): Date {
  const [date = "", time = "12:00:00"] = shopDateTimeStamp(shippedAt, { seconds: true }).split(" ");
  return (
    shopTimeToInstant(addBusinessDays(date, days), time) ?? new Date(shippedAt.getTime() + days * 86_400_000)
  );
}

export type DeliveredOnResult =
  | { ok: true }
  | { ok: false; reason: "no_enviado" | "fecha_invalida" }
  /** Not after the day it already counts as delivered: the window she was told is never shortened. */
  | { ok: false; reason: "antes_de_la_entrega"; since: Date };

/**
 * The day a shipped order actually arrived, as the owner learnt it (the buyer wrote, the carrier's
 * page says so), when it came after the day it counted as delivered (marked or assumed): recorded
 * as its delivery, at midday of that day in Mexico City (within its shipping and now), with a line
 * on its timeline. A parcel that came late opens the buyer's 5 business days from the day she had
 * it (LFPC art. 56). Never an earlier day: the window she was told is never shortened (decision 44).
 * `day` is 'YYYY-MM-DD', from the day it shipped to today.
 */
export async function markDeliveredOn(
  db: Db,
  orderId: string,
  day: string,
  assumedDays: number,
  now = new Date(),
): Promise<DeliveredOnResult> {
  const noon = shopTimeToInstant(day, "12:00");
  if (!noon) return { ok: false, reason: "fecha_invalida" };
  return db.transaction().execute(async (trx): Promise<DeliveredOnResult> => {
    const row = await trx
      .selectFrom("orders")
      .select(["shipped_at", "delivered_at", "delivery_days", "delivery_business_days"])
      .where("id", "=", orderId)
      .where("status", "in", ["enviado", "archivado"])
      .executeTakeFirst();
    if (!row?.shipped_at) return { ok: false, reason: "no_enviado" };
    const shippedAt = toDate(row.shipped_at);
    const dayOf = (at: Date) => shopDateTimeStamp(at).slice(0, 10);
    if (day < dayOf(shippedAt) || day > dayOf(now)) return { ok: false, reason: "fecha_invalida" };
    const counted = deliveredAt(
      {
        shippedAt,
        deliveredAt: row.delivered_at ? toDate(row.delivered_at) : null,
        deliveryDays: row.delivery_days,
        deliveryBusinessDays: row.delivery_business_days === 1,
      },
      assumedDays,
      now,
    );
    if (counted && day <= dayOf(counted.at))
      return { ok: false, reason: "antes_de_la_entrega", since: counted.at };
    // Midday of that day, but never before it shipped nor after now.
    const at = new Date(Math.min(Math.max(noon.getTime(), shippedAt.getTime()), now.getTime()));
    const changed = await trx
      .updateTable("orders")
      .set({ delivered_at: toTimestamp(at), updated_at: toTimestamp(now) })
      .where("id", "=", orderId)
      .where("status", "in", ["enviado", "archivado"])
      // Only over no day or an earlier one: a call beside this one may have stored a later day since
      // the read above (PostgreSQL checks the row again here, as it stands then).
      .where((eb) => eb.or([eb("delivered_at", "is", null), eb("delivered_at", "<", toTimestamp(at))]))
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) {
      const stored = await trx
        .selectFrom("orders")
        .select("delivered_at")
        .where("id", "=", orderId)
        .where("status", "in", ["enviado", "archivado"])
        .executeTakeFirst();
      if (!stored?.delivered_at) return { ok: false, reason: "no_enviado" };
      return { ok: false, reason: "antes_de_la_entrega", since: toDate(stored.delivered_at) };
    }
    await trx
      .insertInto("order_events")
      .values({
        id: newId(),
        order_id: orderId,
        kind: "entrega_registrada",
        detail: `Llegó el ${formatShopDate(at)}`,
        created_at: toTimestamp(now),
      })
      .execute();
    return { ok: true };
  });
}
