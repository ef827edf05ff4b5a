import { dayKey, dayLabel, monthKey, monthLabel, nextDay, nextMonth } from "./calendar";
import { keptFromStock, type ProductSizes, productSizes, type ReportOption, type SizedLine } from "./sizes";

/*
 * Reportes: figures computed from plain rows (reports.server.ts reads them). What counts as a sale
 * (decision 22): the lines of paid orders — pendiente, enviado, archivado — counted on the day
 * and month they were paid, in Mexico City. Orders waiting for payment or whose payment expired
 * never count. The pieces a late payment found gone ('Reembolsar a mano': stock_issue, a line's
 * `missing`) are money going back: kept out of every sales figure and shown apart; the pieces
 * it still took were sent, and are sales.
 */

export type ReportScope =
  | { kind: "all" }
  | { kind: "drop"; dropId: string }
  | { kind: "month"; month: string };

/** One line of a paid order (with the size it held, if any: `SizedLine`). */
export interface SaleLine extends SizedLine {
  orderId: string;
  paidAt: Date;
  /** The customer's e-mail as the payment page gave it. */
  email: string;
  /** The order was paid after its hold ended: its `missing` pieces are to be refunded by hand. */
  refund: boolean;
  /** The owner recorded giving those pieces' price back: no longer owed. */
  missingRefunded?: boolean;
  /** That refund is the payment provider's to make (asked, not made yet): not the owner's by hand. */
  missingAtProvider?: boolean;
  dropId: string;
  productId: string;
  name: string;
  unitPriceCents: number;
  quantity: number;
  /** Pieces of the line the late payment could not take from stock. */
  missing: number;
}

export interface ReportDrop {
  id: string;
  name: string;
  startAt: Date;
  endAt: Date;
}

export interface ReportProduct {
  id: string;
  dropId: string;
  name: string;
  /** Pieces in stock now. */
  stock: number;
  /** Pieces held now by checkouts still waiting for payment (they may come back). */
  held: number;
  /** Its sizes or lengths, each with its stock and pieces held; null: none. */
  option: ReportOption | null;
}

export interface ReportData {
  drops: ReportDrop[];
  /** The products of the drops whose lines are all read (the drop and the whole-shop views). */
  products: ReportProduct[];
  /** Lines of paid orders in the scope (all of them, whole history, for the drop and shop views). */
  lines: SaleLine[];
  /** Confirmed 'Avísame' addresses (lower case) per drop. */
  waitlist: { dropId: string; email: string }[];
  /** Months with paid orders, for the filter. */
  months: string[];
  /** Paid orders cancelled and refunded in the scope (decisions 29 and 37): outside the sales. */
  cancelled?: CancelledFigures;
  /** Shipping collected by the sold orders in the scope (decision 43); not read for a drop. */
  shipping?: ShippingFigures;
  /** Returns received in the scope, their pieces' price refunded or being refunded (decision 48). */
  returned?: ReturnedFigures;
}

/** Returns whose pieces came back: the price refunded for them is money given back from the sales. */
export interface ReturnedFigures {
  returns: number;
  pieces: number;
  /** Refunded or being refunded, in centavos. */
  cents: number;
  /** Of them, refunds the provider has not made yet. */
  pending: number;
}

/** Shipping charged apart from the pieces: never inside the sales of pieces. */
export interface ShippingFigures {
  /** Sold orders that paid shipping (free ones are not counted). */
  orders: number;
  cents: number;
}

export interface CancelledFigures {
  orders: number;
  /** Refunded or being refunded, in centavos. */
  cents: number;
  /** Of them, refunds the provider has not made yet. */
  pending: number;
  /** Of them, refunds only the owner can make (cash paid at OXXO, a provider no longer used), not made yet. */
  byHand?: number;
}

export interface Figures {
  netCents: number;
  orders: number;
  averageCents: number;
  pieces: number;
}

export interface SeriesPoint extends Figures {
  key: string;
  label: string;
}

export interface DropRow extends Figures {
  id: string;
  name: string;
  sold: number;
  offered: number;
  /** Of `offered`, the pieces sold and kept: the sell-through's part. */
  kept: number;
  waitlist: WaitlistFigures | null;
}

export interface ProductRow {
  id: string;
  name: string;
  dropName: string;
  pieces: number;
  netCents: number;
  offered: number | null;
  /**
   * Of `offered`, the pieces sold and kept, what the sell-through counts: a piece returned and put
   * back on the shelf is on offer again, and sold again it is one piece, not two.
   */
  kept: number;
  /** From the drop's opening to the sale of its last piece; null: not sold out. */
  soldOutAfterMs: number | null;
  /** Per size (or length): pieces sold and left; null for a product without sizes. */
  option: ProductSizes | null;
}

export interface WaitlistFigures {
  confirmed: number;
  bought: number;
}

export interface Report {
  scope: ReportScope;
  title: string;
  figures: Figures;
  /** Paid orders to refund by hand: never inside the figures. */
  refunds: { orders: number; cents: number; pieces: number };
  /** Missing pieces whose refund the payment provider is making (decision 37): not the owner's to make. */
  refundsAtProvider: { orders: number; cents: number; pieces: number };
  /** Paid orders cancelled with their refund: never inside the figures either. */
  cancelled: CancelledFigures;
  /** Returns refunded: the net sales count the pieces as sold; this says what went back. */
  returned: ReturnedFigures;
  /** Shipping collected, apart from the pieces; null for a drop (an order's shipping is not one drop's). */
  shipping: ShippingFigures | null;
  seriesUnit: "day" | "month";
  series: SeriesPoint[];
  months: (Figures & { month: string; label: string })[];
  drops: DropRow[];
  products: ProductRow[];
  top: ProductRow[];
  /** The drop's 'Avísame' list; null for a month, the whole shop, or a drop nobody confirmed for. */
  waitlist: WaitlistFigures | null;
}

const TOP = 5;

function figures(lines: readonly SaleLine[]): Figures {
  const netCents = lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
  const orders = new Set(lines.map((l) => l.orderId)).size;
  const pieces = lines.reduce((sum, l) => sum + l.quantity, 0);
  return { netCents, orders, pieces, averageCents: orders === 0 ? 0 : Math.round(netCents / orders) };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Pieces a line took from stock. */
const taken = (line: SaleLine) => keptFromStock(line);

/**
 * The lines of an order paid late ('Reembolsar a mano') split in two: the pieces its payment still
 * took from stock were sent, and are sales; only the missing ones are money going back.
 */
export function splitLateLines(lines: readonly SaleLine[]): SaleLine[] {
  return lines.flatMap((l) => {
    if (!l.refund) return [l];
    const sent = l.quantity - l.missing;
    return [
      ...(sent > 0 ? [{ ...l, refund: false, quantity: sent, missing: 0 }] : []),
      ...(l.missing > 0 ? [{ ...l, quantity: l.missing, restocked: 0 }] : []),
    ];
  });
}

/** Orders, pieces and their price, of missing pieces still owed. */
function owedFigures(lines: readonly SaleLine[]): { orders: number; cents: number; pieces: number } {
  return {
    orders: new Set(lines.map((l) => l.orderId)).size,
    cents: lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
    pieces: lines.reduce((sum, l) => sum + l.quantity, 0),
  };
}

export function buildReport(data: ReportData, scope: ReportScope): Report {
  const dropsById = new Map(data.drops.map((d) => [d.id, d]));
  const allLines = splitLateLines(data.lines);
  const sales = allLines.filter((l) => !l.refund);
  // Owed: the missing pieces whose price was not given back yet; by the owner's hand, or being
  // asked of the provider (shown apart, so she does not give it back twice).
  const owedLines = allLines.filter((l) => l.refund && !l.missingRefunded);
  const refundLines = owedLines.filter((l) => !l.missingAtProvider);
  const atProviderLines = owedLines.filter((l) => l.missingAtProvider);
  const linesByProduct = groupBy(allLines, (l) => l.productId);
  const salesByDrop = groupBy(sales, (l) => l.dropId);
  const waitlistByDrop = groupBy(data.waitlist, (w) => w.dropId);

  const productRow = (product: ReportProduct): ProductRow => {
    const lines = linesByProduct.get(product.id) ?? [];
    const sold = lines.filter((l) => !l.refund);
    const pieces = sold.reduce((sum, l) => sum + l.quantity, 0);
    const takenLines = lines.filter((l) => taken(l) > 0);
    // Every piece the product had: in stock, held by a checkout, or taken by a paid order.
    const offered = product.stock + product.held + takenLines.reduce((sum, l) => sum + taken(l), 0);
    const drop = dropsById.get(product.dropId);
    const lastSale = Math.max(...takenLines.map((l) => l.paidAt.getTime()));
    const soldOut = product.stock === 0 && product.held === 0 && takenLines.length > 0 && drop;
    return {
      id: product.id,
      name: product.name,
      dropName: drop?.name ?? "",
      pieces,
      netCents: sold.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
      offered,
      kept: takenLines.reduce((sum, l) => sum + taken(l), 0),
      soldOutAfterMs: soldOut ? Math.max(0, lastSale - drop.startAt.getTime()) : null,
      option: productSizes(product.option, lines),
    };
  };

  const waitlistOf = (dropId: string): WaitlistFigures | null => {
    const list = waitlistByDrop.get(dropId);
    if (!list) return null;
    const buyers = new Set((salesByDrop.get(dropId) ?? []).map((l) => l.email.trim().toLowerCase()));
    return { confirmed: list.length, bought: list.filter((w) => buyers.has(w.email.toLowerCase())).length };
  };

  const dropOfProduct = new Map(data.products.map((p) => [p.id, p.dropId]));
  // A piece taken off its drop after it sold keeps its sales in the figures: a row of its own, from
  // its lines (no stock read: nothing offered to count against).
  const gone: ProductRow[] = [...linesByProduct.entries()]
    .filter(
      ([id, lines]) =>
        !dropOfProduct.has(id) &&
        lines.some((l) => !l.refund && (scope.kind !== "drop" || l.dropId === scope.dropId)),
    )
    .map(([id, lines]) => {
      const first = lines[0] as SaleLine;
      dropOfProduct.set(id, first.dropId);
      const sold = lines.filter((l) => !l.refund);
      const pieces = sold.reduce((sum, l) => sum + l.quantity, 0);
      return {
        id,
        name: first.name,
        dropName: dropsById.get(first.dropId)?.name ?? "",
        pieces,
        netCents: sold.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
        offered: null,
        kept: pieces,
        soldOutAfterMs: null,
        option: productSizes(null, lines),
      };
    });
  const allProducts = scope.kind === "month" ? [] : [...data.products.map(productRow), ...gone];
  // The month view has no product rows of its own: what sold that month, by piece.
  const soldInScope = [...groupBy(sales, (l) => l.productId).entries()].map(([id, lines]) => {
    const known = allProducts.find((p) => p.id === id);
    const first = lines[0] as SaleLine;
    return {
      id,
      name: first.name,
      dropName: dropsById.get(first.dropId)?.name ?? "",
      pieces: lines.reduce((sum, l) => sum + l.quantity, 0),
      netCents: lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
      offered: known?.offered ?? null,
      kept: known?.kept ?? lines.reduce((sum, l) => sum + l.quantity, 0),
      soldOutAfterMs: known?.soldOutAfterMs ?? null,
      // The month's view reads no stock: what sold of each size that month.
      option: scope.kind === "month" ? productSizes(null, lines) : (known?.option ?? null),
    };
  });
  const top = soldInScope
    .filter((p) => p.pieces > 0)
    .sort((a, b) => b.pieces - a.pieces || b.netCents - a.netCents || a.name.localeCompare(b.name, "es"))
    .slice(0, TOP);

  const dropRows: DropRow[] =
    scope.kind === "drop"
      ? []
      : [...salesByDrop.keys(), ...(scope.kind === "all" ? data.drops.map((d) => d.id) : [])]
          .filter((id, i, all) => all.indexOf(id) === i && dropsById.has(id))
          .map((id) => {
            const products = allProducts.filter((p) => dropOfProduct.get(p.id) === id);
            return {
              id,
              name: dropsById.get(id)?.name ?? "",
              ...figures(salesByDrop.get(id) ?? []),
              sold: products.reduce((sum, p) => sum + p.pieces, 0),
              offered: products.reduce((sum, p) => sum + (p.offered ?? 0), 0),
              // Of the pieces still offered (one taken off the drop has no stock to count against).
              kept: products.reduce((sum, p) => sum + (p.offered === null ? 0 : p.kept), 0),
              waitlist: scope.kind === "all" ? waitlistOf(id) : null,
            };
          })
          .sort((a, b) => b.netCents - a.netCents || a.name.localeCompare(b.name, "es"));

  const months =
    scope.kind === "all"
      ? [...groupBy(sales, (l) => monthKey(l.paidAt)).entries()]
          .map(([month, lines]) => ({ month, label: monthLabel(month), ...figures(lines) }))
          .sort((a, b) => a.month.localeCompare(b.month))
      : [];

  const drop = scope.kind === "drop" ? dropsById.get(scope.dropId) : undefined;
  return {
    scope,
    title:
      scope.kind === "all"
        ? "Toda la tienda"
        : scope.kind === "month"
          ? capitalize(monthLabel(scope.month))
          : (drop?.name ?? ""),
    figures: figures(sales),
    refunds: owedFigures(refundLines),
    refundsAtProvider: owedFigures(atProviderLines),
    cancelled: data.cancelled ?? { orders: 0, cents: 0, pending: 0 },
    returned: data.returned ?? { returns: 0, pieces: 0, cents: 0, pending: 0 },
    shipping: scope.kind === "drop" ? null : (data.shipping ?? { orders: 0, cents: 0 }),
    seriesUnit: scope.kind === "all" ? "month" : "day",
    series: series(sales, scope, drop),
    months,
    drops: dropRows,
    products:
      scope.kind === "drop"
        ? allProducts
        : soldInScope.sort((a, b) => b.pieces - a.pieces || a.name.localeCompare(b.name, "es")),
    top,
    waitlist: scope.kind === "drop" ? waitlistOf(scope.dropId) : null,
  };
}

/** The longest run of days a chart draws (a drop left open for years stops there). */
const MAX_DAYS = 400;

function series(sales: readonly SaleLine[], scope: ReportScope, drop: ReportDrop | undefined): SeriesPoint[] {
  if (scope.kind === "all") {
    const byMonth = groupBy(sales, (l) => monthKey(l.paidAt));
    const keys = [...byMonth.keys()].sort();
    const points: SeriesPoint[] = [];
    const last = keys[keys.length - 1];
    for (let month = keys[0]; month && last && month <= last; month = nextMonth(month)) {
      points.push({
        key: month,
        label: monthLabel(month),
        ...figures(byMonth.get(month) ?? []),
      });
    }
    return points;
  }
  const byDay = groupBy(sales, (l) => dayKey(l.paidAt));
  const saleDays = [...byDay.keys()].sort();
  let [first, last] =
    scope.kind === "month"
      ? [`${scope.month}-01`, lastDayOf(scope.month)]
      : drop
        ? [dayKey(drop.startAt), dayKey(drop.endAt)]
        : [saleDays[0], saleDays[saleDays.length - 1]];
  if (saleDays[0] && first && saleDays[0] < first) first = saleDays[0];
  const lastSale = saleDays[saleDays.length - 1];
  if (lastSale && last && lastSale > last) last = lastSale;
  const points: SeriesPoint[] = [];
  for (let day = first; day && last && day <= last && points.length < MAX_DAYS; day = nextDay(day)) {
    points.push({
      key: day,
      label: dayLabel(day),
      ...figures(byDay.get(day) ?? []),
    });
  }
  return points;
}

function lastDayOf(month: string): string {
  let day = `${month}-01`;
  while (nextDay(day).startsWith(month)) day = nextDay(day);
  return day;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "62.5 %" of pieces sold out of those offered; "—" when nothing was offered. */
export function sellThroughText(sold: number, offered: number | null): string {
  if (!offered) return "—";
  return `${(Math.round((sold * 1000) / offered) / 10).toLocaleString("es-MX")} %`;
}

/** "1 d 3 h 20 min" from the opening to the last piece; "Sin agotar" when pieces are left. */
export function soldOutText(ms: number | null): string {
  if (ms === null) return "Sin agotar";
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "menos de 1 min";
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return [d && `${d} d`, h && `${h} h`, m && `${m} min`].filter(Boolean).join(" ");
}
