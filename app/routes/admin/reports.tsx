import { data, Link } from "react-router";
import { DropBreakdown, ProductBreakdown } from "~/components/admin/report-breakdowns";
import { ReportPeriodPicker } from "~/components/admin/report-period-picker";
import { SalesSeries } from "~/components/admin/report-series";
import { ReportSummary, TopPieces } from "~/components/admin/report-summary";
import { RouteError } from "~/components/route-error";
import { parseReportQuery, reportSearch } from "~/reports/query";
import type { ReportScope } from "~/reports/report";
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

      <ReportPeriodPicker scope={scope} drops={drops} months={months} />
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
      <ReportSummary report={report} />

      <SalesSeries report={report} />
      {scope.kind === "drop" ? <ProductBreakdown report={report} /> : <DropBreakdown report={report} />}
      <TopPieces report={report} />
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
