import { toCsv } from "~/lib/csv";
import { type Report, sellThroughText, soldOutText } from "./report";

/** Centavos as pesos with two decimals, the way spreadsheets read numbers: 123456 -> "1234.56". */
export function pesos(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * The report as a spreadsheet (UTF-8 with BOM, every cell quoted, formulas defused: lib/csv.ts):
 * the figures, then one row per piece, then the chart's data, each block under its own header.
 */
export function reportCsv(report: Report): string {
  const { figures, refunds } = report;
  const perProduct = report.scope.kind !== "month";
  return toCsv([
    ["Reporte", report.title],
    ["Ventas netas (MXN)", pesos(figures.netCents)],
    ["Pedidos pagados", figures.orders],
    ["Ticket promedio (MXN)", pesos(figures.averageCents)],
    ["Piezas vendidas", figures.pieces],
    ["Pedidos para reembolsar a mano (fuera de las ventas)", refunds.orders],
    ["Monto para reembolsar a mano (MXN)", pesos(refunds.cents)],
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
    ],
    ...report.products.map((p) => [
      p.dropName,
      p.name,
      p.pieces,
      pesos(p.netCents),
      ...(perProduct ? [p.offered, sellThroughText(p.pieces, p.offered), soldOutText(p.soldOutAfterMs)] : []),
    ]),
    [],
    [report.seriesUnit === "day" ? "Día" : "Mes", "Pedidos pagados", "Piezas vendidas", "Ventas netas (MXN)"],
    ...report.series.map((point) => [point.key, point.orders, point.pieces, pesos(point.netCents)]),
  ]);
}
