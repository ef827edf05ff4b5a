import { Link } from "react-router";
import { formatMXN } from "~/lib/money";
import { reportSearch } from "~/reports/query";
import { type ProductRow, type Report, sellThroughText, soldOutText } from "~/reports/report";
import type { ProductSizes } from "~/reports/sizes";
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
        <ProductRows key={p.id} product={p} />
      ))}
    </ReportTable>
  );
}

/** A piece's row and, when it comes in sizes, a row per size: which sell and which are left. */
function ProductRows({ product: p }: { product: ProductRow }) {
  return (
    <>
      <ReportRow head={p.name}>
        <td className={reportCell}>{p.pieces}</td>
        <td className={reportCell}>{p.offered ?? "—"}</td>
        <td className={reportCell}>{sellThroughText(p.kept, p.offered)}</td>
        <td className={reportCell}>{formatMXN(p.netCents)}</td>
        <td className={reportCell}>
          {p.soldOutAfterMs === null ? "Sin agotar" : `a ${soldOutText(p.soldOutAfterMs)} de abrir`}
        </td>
      </ReportRow>
      {p.option && <SizeRows product={p} option={p.option} />}
    </>
  );
}

/** A sized piece's sizes under its row: sold against offered, and how many are left of each. */
function SizeRows({ product, option }: { product: ProductRow; option: ProductSizes }) {
  const cell = "px-3 py-1 tabular-nums";
  return option.sizes.map((size) => (
    <tr key={size.value} className="text-ink/80">
      <th scope="row" className="py-1 pr-3 pl-8 text-left font-normal">
        {/* Read alone, the row still says whose size it is. */}
        <span className="sr-only">{product.name}, </span>
        {option.name} {size.value}
      </th>
      <td className={cell}>{size.pieces}</td>
      <td className={cell}>{size.offered ?? "—"}</td>
      <td className={cell}>{sellThroughText(size.kept, size.offered)}</td>
      <td className={cell}>{formatMXN(size.netCents)}</td>
      <td className={cell}>{size.stock === null ? "Ya no se ofrece" : `Quedan ${size.stock}`}</td>
    </tr>
  ));
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
          {whole && <td className={reportCell}>{sellThroughText(d.kept, d.offered)}</td>}
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
