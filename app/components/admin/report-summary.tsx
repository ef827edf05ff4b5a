import { formatMXN } from "~/lib/money";
import { type Figures, type Report, sellThroughText } from "~/reports/report";
import { sizesText } from "~/reports/sizes";

const pieces = (n: number) => (n === 1 ? "1 pieza" : `${n} piezas`);
const ordersText = (n: number) => (n === 1 ? "1 pedido" : `${n} pedidos`);

/** A report's figures, then what it says in words: sell-through, the 'Avísame' list, refunds owed. */
export function ReportSummary({ report }: { report: Report }) {
  const { scope } = report;
  return (
    <>
      <FigureList figures={report.figures} />
      {scope.kind === "drop" && (
        <p className="mt-3 text-sm">
          Vendido:{" "}
          {sellThroughText(
            report.products.reduce((s, p) => s + (p.offered === null ? 0 : p.kept), 0),
            report.products.reduce((s, p) => s + (p.offered ?? 0), 0),
          )}{" "}
          de las piezas ofrecidas.
        </p>
      )}
      {report.waitlist && (
        <p className="mt-3 text-sm" data-testid="report-waitlist">
          Avísame: {report.waitlist.confirmed} correos confirmados, {report.waitlist.bought} compraron.
        </p>
      )}
      {report.shipping && report.shipping.orders > 0 && (
        <p className="mt-3 text-sm" data-testid="report-shipping">
          <strong>Envíos cobrados:</strong> {ordersText(report.shipping.orders)},{" "}
          {formatMXN(report.shipping.cents)}. Aparte de las ventas netas, que son solo de piezas.
        </p>
      )}
      {report.cancelled.orders > 0 && (
        <p className="mt-3 text-sm" data-testid="report-cancelled">
          <strong>Cancelados y reembolsados:</strong> {ordersText(report.cancelled.orders)},{" "}
          {formatMXN(report.cancelled.cents)}
          {report.cancelled.pending > 0 && ` (${report.cancelled.pending} aún en el proveedor de pagos)`}
          {(report.cancelled.byHand ?? 0) > 0 && ` (${report.cancelled.byHand} por reembolsar tú a mano)`}. No
          cuentan en las ventas netas.
        </p>
      )}
      {report.returned.returns > 0 && (
        <p className="mt-3 text-sm" data-testid="report-returns">
          <strong>Devoluciones:</strong>{" "}
          {report.returned.returns === 1 ? "1 devolución" : `${report.returned.returns} devoluciones`},{" "}
          {pieces(report.returned.pieces)}, {formatMXN(report.returned.cents)} reembolsados
          {report.returned.pending > 0 && ` (${report.returned.pending} con reembolso pendiente)`}. Las ventas
          netas cuentan esas piezas como vendidas.
        </p>
      )}
      {report.refunds.orders > 0 && (
        <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-950" data-testid="report-refunds">
          <strong>Para reembolsar a mano:</strong> {ordersText(report.refunds.orders)},{" "}
          {pieces(report.refunds.pieces)}, {formatMXN(report.refunds.cents)}. No cuentan en las ventas netas.
        </p>
      )}
      {report.refundsAtProvider.orders > 0 && (
        <p className="mt-3 text-sm" data-testid="report-refunds-at-provider">
          <strong>Piezas faltantes en reembolso por el proveedor de pagos:</strong>{" "}
          {ordersText(report.refundsAtProvider.orders)}, {pieces(report.refundsAtProvider.pieces)},{" "}
          {formatMXN(report.refundsAtProvider.cents)}. La tienda se lo pide sola: no lo reembolses a mano. No
          cuentan en las ventas netas.
        </p>
      )}
    </>
  );
}

function FigureList({ figures }: { figures: Figures }) {
  const items = [
    ["Ventas netas", formatMXN(figures.netCents)],
    ["Pedidos pagados", String(figures.orders)],
    ["Ticket promedio", formatMXN(figures.averageCents)],
    ["Piezas vendidas", String(figures.pieces)],
  ];
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-xl bg-white p-4 shadow-sm">
          <dt className="text-sm text-ink/75">{label}</dt>
          <dd className="mt-1 text-xl font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The best-selling pieces of the report, with their drop when it spans several. */
export function TopPieces({ report }: { report: Report }) {
  if (report.top.length === 0) return null;
  return (
    <section className="mt-8" aria-labelledby="top-title">
      <h3 id="top-title" className="font-serif text-xl">
        Piezas más vendidas
      </h3>
      <ol className="mt-3 list-decimal space-y-1 pl-6 text-sm">
        {report.top.map((p) => (
          <li key={p.id}>
            {p.name}
            {report.scope.kind !== "drop" && p.dropName && (
              <span className="text-ink/75"> · {p.dropName}</span>
            )}
            {": "}
            {pieces(p.pieces)}, {formatMXN(p.netCents)}
            {p.option && <span className="block text-ink/75">{sizesText(p.option)}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
