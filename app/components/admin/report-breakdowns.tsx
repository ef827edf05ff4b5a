import { Link } from "react-router";
import { formatMXN } from "~/lib/money";
import { reportSearch } from "~/reports/query";
import { type Report, sellThroughText, soldOutText } from "~/reports/report";
import { ReportRow, ReportTable, reportCell } from "./report-table";

/** A drop's report: each of its pieces, sold against offered, and when it sold out. */
export function ProductBreakdown({ report }: { report: Report }) {
  return (
    <ReportTable
      title="Piezas de la colección"
      heads={["Pieza", "Vendidas", "Ofrecidas", "Vendido", "Ventas netas", "Se agotó"]}
      className="mt-8"
    >
      {report.products.map((p) => (
        <ReportRow key={p.id} head={p.name}>
          <td className={reportCell}>{p.pieces}</td>
          <td className={reportCell}>{p.offered ?? "—"}</td>
          <td className={reportCell}>{sellThroughText(p.pieces, p.offered)}</td>
          <td className={reportCell}>{formatMXN(p.netCents)}</td>
          <td className={reportCell}>
            {p.soldOutAfterMs === null ? "Sin agotar" : `a ${soldOutText(p.soldOutAfterMs)} de abrir`}
          </td>
        </ReportRow>
      ))}
    </ReportTable>
  );
}

/** The whole shop's or a month's report: each collection's figures. */
export function DropBreakdown({ report }: { report: Report }) {
  if (report.drops.length === 0) return null;
  const whole = report.scope.kind === "all";
  const heads = ["Colección", "Ventas netas", "Pedidos", "Ticket promedio", "Piezas"];
  return (
    <ReportTable
      title="Por colección"
      heads={[...heads, ...(whole ? ["Vendido", "Avísame"] : [])]}
      className="mt-8"
    >
      {report.drops.map((d) => (
        <ReportRow
          key={d.id}
          head={
            <Link to={`/admin/reports${reportSearch({ kind: "drop", dropId: d.id })}`} className="underline">
              {d.name}
            </Link>
          }
        >
          <td className={reportCell}>{formatMXN(d.netCents)}</td>
          <td className={reportCell}>{d.orders}</td>
          <td className={reportCell}>{formatMXN(d.averageCents)}</td>
          <td className={reportCell}>{d.pieces}</td>
          {whole && <td className={reportCell}>{sellThroughText(d.sold, d.offered)}</td>}
          {whole && (
            <td className={reportCell}>
              {d.waitlist ? `${d.waitlist.confirmed} confirmados, ${d.waitlist.bought} compraron` : "—"}
            </td>
          )}
        </ReportRow>
      ))}
    </ReportTable>
  );
}
