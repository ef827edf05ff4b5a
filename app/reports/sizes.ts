import { type OptionName, sortOptionValues } from "~/catalogue/filters";

/*
 * A sized product's report per value (issue 24, decision 34): which sizes sell and which are left.
 * Lines name the value they held by id and as chosen ('7'); a value the owner has since removed
 * keeps its sales under the value as chosen, with no stock of its own.
 */

/** A product's option as the report reads it: each value with its stock and pieces held now. */
export interface ReportOption {
  name: OptionName;
  /** In the owner's order. */
  values: { id: string; value: string; stock: number; held: number }[];
}

/** What the breakdown reads of a paid order's line (report.ts's SaleLine). */
export interface SizedLine {
  /** The product's option now (the month's view reads it from the line); null: none. */
  optionName: OptionName | null;
  optionId: string | null;
  optionValue: string | null;
  unitPriceCents: number;
  quantity: number;
  missing: number;
  /** Pieces of the line a made return put back on the shelf (they count in the stock again). */
  restocked: number;
  refund: boolean;
}

/** Pieces a paid line took from the shelf and kept: neither missing nor back through a return. */
export function keptFromStock(line: Pick<SizedLine, "quantity" | "missing" | "restocked">): number {
  return line.quantity - line.missing - line.restocked;
}

export interface SizeRow {
  /** The value as the owner wrote it ('7', '45 cm'). */
  value: string;
  /** Pieces sold (refunds apart), as the product's row counts them. */
  pieces: number;
  netCents: number;
  /** Pieces in stock now; null: the value is no longer offered (or the view reads no stock). */
  stock: number | null;
  /** In stock, held by a checkout, or taken by a paid order; null where the stock is not read. */
  offered: number | null;
  /** Of `offered`, the pieces sold and kept (a returned piece back on the shelf is on offer again): the sell-through's part. */
  kept: number;
}

/** A sized product's breakdown; null for a product without sizes. */
export interface ProductSizes {
  name: OptionName;
  sizes: SizeRow[];
}

/** The breakdown of a product with `option` (null where the view reads none) from its lines. */
export function productSizes(option: ReportOption | null, lines: readonly SizedLine[]): ProductSizes | null {
  const name = option?.name ?? lines.find((l) => l.optionName !== null)?.optionName ?? null;
  return name === null ? null : { name, sizes: sizeRows(option, lines) };
}

/**
 * The rows of a product's values: with its option (a drop's or the shop's view), every value in
 * the owner's order, sold or not, then values since removed that sold; without it (a month's
 * view reads no stock), the values its lines name, in size order.
 */
export function sizeRows(option: ReportOption | null, lines: readonly SizedLine[]): SizeRow[] {
  const ids = new Set(option?.values.map((v) => v.id));
  const sized = lines.filter((l) => l.optionValue !== null);
  // A line of a removed value counts for a value written the same way ('7' removed and added again).
  const current = (l: SizedLine) => l.optionId !== null && ids.has(l.optionId);
  const rows: SizeRow[] = (option?.values ?? []).map((v) => {
    const own = sized.filter((l) => l.optionId === v.id || (!current(l) && l.optionValue === v.value));
    const taken = own.reduce((sum, l) => sum + keptFromStock(l), 0);
    return { value: v.value, ...sold(own), stock: v.stock, offered: v.stock + v.held + taken, kept: taken };
  });
  const listed = new Set(rows.map((r) => r.value));
  const others = sized.filter((l) => !current(l) && !listed.has(l.optionValue ?? ""));
  for (const value of sortOptionValues([...new Set(others.map((l) => l.optionValue ?? ""))])) {
    const own = sold(others.filter((l) => l.optionValue === value));
    rows.push({ value, ...own, stock: null, offered: null, kept: own.pieces });
  }
  return rows;
}

function sold(lines: readonly SizedLine[]): { pieces: number; netCents: number } {
  const sales = lines.filter((l) => !l.refund);
  return {
    pieces: sales.reduce((sum, l) => sum + l.quantity, 0),
    netCents: sales.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
  };
}

/** 'Talla 7: 3 vendidas · quedan 1; Talla 8: 1 vendida · quedan 4' (no stock read: no 'quedan'). */
export function sizesText(option: ProductSizes): string {
  return option.sizes
    .map((row) => {
      const sold = `${option.name} ${row.value}: ${row.pieces} ${row.pieces === 1 ? "vendida" : "vendidas"}`;
      return row.stock === null ? sold : `${sold} · quedan ${row.stock}`;
    })
    .join("; ");
}
