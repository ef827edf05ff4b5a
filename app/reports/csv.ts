import { toCsv } from "~/lib/csv";
import { type ProductRow, type Report, sellThroughText, soldOutText } from "./report";
import type { ProductSizes } from "./sizes";

/** Centavos as pesos with two decimals, the way spreadsheets read numbers: 123456 -> "1234.56". */
export function pesos(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * The report as a spreadsheet (UTF-8 with BOM, every cell quoted, formulas defused: lib/csv.ts):
 * the figures, then one row per piece, then the chart's data, each block under its own header.
 * Where pieces come in sizes, each such piece's row is followed by one row per size (or length),
 * named in a last column ('Talla 7') with the pieces left of it, so a spreadsheet can sum by size.
 */
export function reportCsv(report: Report): string {
  const { figures, refunds } = report;
  const perProduct = report.scope.kind !== "month";
  const sized = report.products.some((p) => p.option !== null);
  const sizeHeads = sized ? ["Talla o largo", ...(perProduct ? ["Quedan"] : [])] : [];
  const perSize = (p: ProductRow, option: ProductSizes) =>
    option.sizes.map((size) => [
      p.dropName,
      p.name,
      size.pieces,
      pesos(size.netCents),
      ...(perProduct ? [size.offered, sellThroughText(size.kept, size.offered), ""] : []),
      `${option.name} ${size.value}`,
      ...(perProduct ? [size.stock] : []),
    ]);
  const productRows = (p: ProductRow) => [
    [
      p.dropName,
      p.name,
      p.pieces,
      pesos(p.netCents),
      ...(perProduct ? [p.offered, sellThroughText(p.kept, p.offered), soldOutText(p.soldOutAfterMs)] : []),
      ...sizeHeads.map(() => ""),
    ],
    ...(p.option ? perSize(p, p.option) : []),
  ];
  return toCsv([
    ["Reporte", report.title],
    ["Ventas netas (MXN)", pesos(figures.netCents)],
    ["Pedidos pagados", figures.orders],
    ["Ticket promedio (MXN)", pesos(figures.averageCents)],
    ["Piezas vendidas", figures.pieces],
    // Shipping collected, apart from the pieces' net sales, as the page states it (not for a drop).
    ...(report.shipping
      ? [
          ["Pedidos con envío cobrado", report.shipping.orders],
          ["Envíos cobrados (MXN, fuera de las ventas netas)", pesos(report.shipping.cents)],
        ]
      : []),
    ["Pedidos para reembolsar a mano (fuera de las ventas)", refunds.orders],
    ["Monto para reembolsar a mano (MXN)", pesos(refunds.cents)],
    ["Pedidos con piezas faltantes en reembolso por el proveedor", report.refundsAtProvider.orders],
    ["Monto en reembolso por el proveedor (MXN)", pesos(report.refundsAtProvider.cents)],
    ["Pedidos cancelados y reembolsados (fuera de las ventas)", report.cancelled.orders],
    ["Monto reembolsado o en curso (MXN)", pesos(report.cancelled.cents)],
    ["Reembolsos aún en el proveedor de pagos", report.cancelled.pending],
    ["Cancelaciones por reembolsar a mano", report.cancelled.byHand ?? 0],
    ["Devoluciones recibidas", report.returned.returns],
    ["Piezas devueltas", report.returned.pieces],
    ["Monto de devoluciones reembolsado o en curso (MXN)", pesos(report.returned.cents)],
    ["Devoluciones con reembolso pendiente", report.returned.pending],
    ...(report.waitlist
      ? [
          ["Avísame: correos confirmados", report.waitlist.confirmed],
          ["Avísame: compraron", report.waitlist.bought],
        ]
      : []),
    [],
    [
      "Colección",
      "Pieza",
      "Piezas vendidas",
      "Ventas netas (MXN)",
      ...(perProduct ? ["Piezas ofrecidas", "Vendido (%)", "Tiempo para agotarse"] : []),
      ...sizeHeads,
    ],
    ...report.products.flatMap(productRows),
    [],
    [report.seriesUnit === "day" ? "Día" : "Mes", "Pedidos pagados", "Piezas vendidas", "Ventas netas (MXN)"],
    ...report.series.map((point) => [point.key, point.orders, point.pieces, pesos(point.netCents)]),
  ]);
}
