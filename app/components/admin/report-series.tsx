import { Link } from "react-router";
import { formatMXN } from "~/lib/money";
import { reportSearch } from "~/reports/query";
import type { Report } from "~/reports/report";
import { ReportRow, ReportTable, reportCell } from "./report-table";
import { SalesChart } from "./sales-chart";

/** Net sales by day or by month: the chart, and the same figures as a table under it. */
export function SalesSeries({ report }: { report: Report }) {
  const title = report.seriesUnit === "day" ? "Ventas netas por día" : "Ventas netas por mes";
  if (report.series.length === 0) {
    return <p className="mt-8 text-ink/75">Aún no hay ventas pagadas aquí.</p>;
  }
  return (
    <figure className="mt-8" aria-labelledby="series-title">
      <figcaption id="series-title" className="font-serif text-xl">
        {title}
      </figcaption>
      <div className="mt-3 rounded-xl bg-white p-2 shadow-sm">
        <SalesChart points={report.series} unit={report.seriesUnit} />
      </div>
      <ReportTable
        title={title}
        heads={[
          report.seriesUnit === "day" ? "Día" : "Mes",
          "Pedidos",
          "Piezas",
          "Ventas netas",
          "Ticket promedio",
        ]}
        className="mt-3"
        hiddenCaption
      >
        {report.series.map((p) => (
          <ReportRow
            key={p.key}
            head={
              report.seriesUnit === "month" ? (
                <Link
                  to={`/admin/reports${reportSearch({ kind: "month", month: p.key })}`}
                  className="underline"
                >
                  {p.label}
                </Link>
              ) : (
                p.label
              )
            }
          >
            <td className={reportCell}>{p.orders}</td>
            <td className={reportCell}>{p.pieces}</td>
            <td className={reportCell}>{formatMXN(p.netCents)}</td>
            <td className={reportCell}>{formatMXN(p.averageCents)}</td>
          </ReportRow>
        ))}
      </ReportTable>
    </figure>
  );
}
