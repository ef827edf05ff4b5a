import type { ReactNode } from "react";
import { data, Form, Link } from "react-router";
import { SalesChart } from "~/components/admin/sales-chart";
import { RouteError } from "~/components/route-error";
import { formatMXN } from "~/lib/money";
import { monthLabel } from "~/reports/calendar";
import { parseReportQuery, REPORT_PARAMS, reportSearch } from "~/reports/query";
import { type Figures, type Report, type ReportScope, sellThroughText, soldOutText } from "~/reports/report";
import { loadReport } from "~/reports/reports.server";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/reports";

export const meta: Route.MetaFunction = () => [{ title: "Reportes · Administración" }];

/** /admin/reports, ?coleccion=<id> or ?mes=2026-10 */
export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database } = args.context.get(servicesContext);
  const query = parseReportQuery(args.url.searchParams);
  const scope: ReportScope = query.ok ? query.scope : { kind: "all" };
  const result = await loadReport(database.db, scope);
  if (!result.ok) throw new Response("Colección no encontrada", { status: 404 });
  const shown = { ...result, search: reportSearch(scope) };
  // A filter the report cannot read: the page says why and shows the whole shop, with a 400.
  if (!query.ok) return data({ ...shown, error: query.message }, { status: 400 });
  return { ...shown, error: null };
}

export const action = pageTakesNoForm;

const pieces = (n: number) => (n === 1 ? "1 pieza" : `${n} piezas`);
const ordersText = (n: number) => (n === 1 ? "1 pedido" : `${n} pedidos`);

export default function AdminReports({ loaderData }: Route.ComponentProps) {
  const { report, drops, months, search, error } = loaderData;
  const { scope } = report;
  return (
    <section aria-labelledby="reports-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 id="reports-title" className="font-serif text-3xl">
          Reportes
        </h1>
        <a
          href={`/admin/reports.csv${search}`}
          download
          className="min-h-11 content-center rounded-full border border-ink px-4 text-sm"
        >
          Exportar CSV
        </a>
      </div>

      <div className="mt-6 grid gap-3 sm:grid-cols-2">
        <Form method="get" className="flex items-end gap-2" aria-label="Reporte por colección">
          <div className="min-w-0 flex-1">
            <label htmlFor="report-drop" className="block text-sm font-medium">
              Colección
            </label>
            <select
              id="report-drop"
              name={REPORT_PARAMS.drop}
              defaultValue={scope.kind === "drop" ? scope.dropId : ""}
              className="mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3"
            >
              <option value="">Todas</option>
              {drops.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="min-h-11 rounded-full bg-ink px-4 text-sm font-medium text-cream">
            Ver colección
          </button>
        </Form>
        <Form method="get" className="flex items-end gap-2" aria-label="Reporte por mes">
          <div className="min-w-0 flex-1">
            <label htmlFor="report-month" className="block text-sm font-medium">
              Mes
            </label>
            <select
              id="report-month"
              name={REPORT_PARAMS.month}
              defaultValue={scope.kind === "month" ? scope.month : ""}
              className="mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3"
            >
              <option value="">Todos</option>
              {(scope.kind === "month" && !months.includes(scope.month)
                ? [scope.month, ...months]
                : months
              ).map((m) => (
                <option key={m} value={m}>
                  {monthLabel(m)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="min-h-11 rounded-full bg-ink px-4 text-sm font-medium text-cream">
            Ver mes
          </button>
        </Form>
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {error}
        </p>
      )}

      <div className="mt-8 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-serif text-2xl">{report.title}</h2>
        {scope.kind !== "all" && (
          <Link to="/admin/reports" className="text-sm underline">
            Ver toda la tienda
          </Link>
        )}
      </div>
      <FigureList figures={report.figures} />
      {scope.kind === "drop" && (
        <p className="mt-3 text-sm">
          Vendido:{" "}
          {sellThroughText(
            report.products.reduce((s, p) => s + p.pieces, 0),
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
      {report.refunds.orders > 0 && (
        <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-950" data-testid="report-refunds">
          <strong>Para reembolsar a mano:</strong> {ordersText(report.refunds.orders)},{" "}
          {pieces(report.refunds.pieces)}, {formatMXN(report.refunds.cents)}. No cuentan en las ventas netas.
        </p>
      )}

      <SeriesSection report={report} />
      {scope.kind === "drop" ? <ProductTable report={report} /> : <DropTable report={report} />}
      <TopPieces report={report} />
    </section>
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

const th = "px-3 py-2 text-left font-medium";
const td = "px-3 py-2 tabular-nums";

/**
 * A report's table, titled by its caption, with `heads` as the column headings and `children` as
 * its rows. It may be wider than a phone: it scrolls sideways, and the keyboard can reach it. A
 * hidden caption (the table under a chart, which shows the title) leaves the table its own margin.
 */
function ReportTable({
  title,
  heads,
  className,
  hiddenCaption = false,
  children,
}: {
  title: string;
  heads: readonly string[];
  className: string;
  hiddenCaption?: boolean;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the scroll container is a named region inside the report
    <div
      role="region"
      aria-label={title}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard (WCAG 2.1.1)
      tabIndex={0}
      className={`${className} overflow-x-auto focus-visible:outline-2 focus-visible:outline-gold-500`}
    >
      <table className={hiddenCaption ? "mt-2 w-full text-sm" : "w-full text-sm"}>
        <caption className={hiddenCaption ? "sr-only" : "text-left font-serif text-xl"}>{title}</caption>
        <thead>
          <tr>
            {heads.map((h) => (
              <th key={h} scope="col" className={th}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A row of a report's table: `head` names it, `children` are its cells. */
function ReportRow({ head, children }: { head: ReactNode; children: ReactNode }) {
  return (
    <tr className="border-t border-sand">
      <th scope="row" className={th}>
        {head}
      </th>
      {children}
    </tr>
  );
}

function SeriesSection({ report }: { report: Report }) {
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
            <td className={td}>{p.orders}</td>
            <td className={td}>{p.pieces}</td>
            <td className={td}>{formatMXN(p.netCents)}</td>
            <td className={td}>{formatMXN(p.averageCents)}</td>
          </ReportRow>
        ))}
      </ReportTable>
    </figure>
  );
}

function ProductTable({ report }: { report: Report }) {
  return (
    <ReportTable
      title="Piezas de la colección"
      heads={["Pieza", "Vendidas", "Ofrecidas", "Vendido", "Ventas netas", "Se agotó"]}
      className="mt-8"
    >
      {report.products.map((p) => (
        <ReportRow key={p.id} head={p.name}>
          <td className={td}>{p.pieces}</td>
          <td className={td}>{p.offered ?? "—"}</td>
          <td className={td}>{sellThroughText(p.pieces, p.offered)}</td>
          <td className={td}>{formatMXN(p.netCents)}</td>
          <td className={td}>
            {p.soldOutAfterMs === null ? "Sin agotar" : `a ${soldOutText(p.soldOutAfterMs)} de abrir`}
          </td>
        </ReportRow>
      ))}
    </ReportTable>
  );
}

function DropTable({ report }: { report: Report }) {
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
          <td className={td}>{formatMXN(d.netCents)}</td>
          <td className={td}>{d.orders}</td>
          <td className={td}>{formatMXN(d.averageCents)}</td>
          <td className={td}>{d.pieces}</td>
          {whole && <td className={td}>{sellThroughText(d.sold, d.offered)}</td>}
          {whole && (
            <td className={td}>
              {d.waitlist ? `${d.waitlist.confirmed} confirmados, ${d.waitlist.bought} compraron` : "—"}
            </td>
          )}
        </ReportRow>
      ))}
    </ReportTable>
  );
}

function TopPieces({ report }: { report: Report }) {
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
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Colección no encontrada"
      notFoundMessage="Esa colección no existe."
      message="No se pudo cargar el reporte."
      home={{ to: "/admin/reports", label: "Volver a los reportes" }}
    />
  );
}
