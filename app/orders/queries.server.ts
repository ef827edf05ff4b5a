import type { Selectable } from "kysely";
import { type Db, toDate } from "~/db/database.server";
import type { OrdersTable } from "~/db/schema";
import { formatMXN } from "~/lib/money";
import { trackingLink } from "./carriers";
import type { Order } from "./order";

type OrderRow = Selectable<OrdersTable>;
type LineRow = { order_id: string; name: string; quantity: number; unit_price_cents: number };

/** The one mapping from stored rows to an `Order`. */
export function toOrder(row: OrderRow, lines: LineRow[]): Order {
  return {
    id: row.id,
    status: row.status,
    totalCents: row.total_cents,
    total: formatMXN(row.total_cents),
    createdAt: toDate(row.created_at),
    paidAt: row.paid_at ? toDate(row.paid_at) : null,
    shippedAt: row.shipped_at ? toDate(row.shipped_at) : null,
    expiresAt: toDate(row.expires_at),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    paymentSessionId: row.payment_session_id,
    stockIssue: row.stock_issue,
    shipping: row.ship_line1
      ? {
          name: row.ship_name ?? "",
          phone: row.ship_phone ?? "",
          line1: row.ship_line1,
          line2: row.ship_line2 ?? "",
          city: row.ship_city ?? "",
          state: row.ship_state ?? "",
          postalCode: row.ship_postal_code ?? "",
          country: row.ship_country ?? "MX",
        }
      : null,
    carrier: row.carrier,
    trackingNumber: row.tracking_number,
    trackingUrl: trackingLink(row.carrier, row.tracking_number),
    lines: lines
      .filter((l) => l.order_id === row.id)
      .map((l) => ({ name: l.name, quantity: l.quantity, unitPriceCents: l.unit_price_cents })),
  };
}

/** Several orders with their lines, in the order of `rows`, in two queries. */
export async function withLines(db: Db, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom("order_lines")
    .select(["order_id", "name", "quantity", "unit_price_cents"])
    .where(
      "order_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("order_id")
    .orderBy("position")
    .execute();
  return rows.map((row) => toOrder(row, lines));
}

export async function getOrder(db: Db, id: string): Promise<Order | null> {
  const row = await db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [order] = await withLines(db, [row]);
  return order ?? null;
}
