import { shopDateTimeStamp } from "~/lib/dates";
import { reportCsv } from "~/reports/csv";
import { parseReportQuery } from "~/reports/query";
import { loadReport } from "~/reports/reports.server";
import { requireAdminForDownload } from "~/web/guards.server";
import { methodNotAllowed } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/reports-csv";

const noStore = { "Cache-Control": "private, no-store" };

/** /admin/reports.csv?coleccion=… or ?mes=2026-10: the report on screen, as a spreadsheet. */
export async function loader(args: Route.LoaderArgs) {
  requireAdminForDownload(args);
  const query = parseReportQuery(args.url.searchParams);
  const text = (message: string, status: number) =>
    new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...noStore } });
  if (!query.ok) return text(query.message, 400);
  const { database } = args.context.get(servicesContext);
  const result = await loadReport(database.db, query.scope);
  if (!result.ok) return text("La colección no existe.", 404);
  const { scope } = query;
  const day = shopDateTimeStamp(new Date()).slice(0, 10);
  const name = scope.kind === "month" ? scope.month : scope.kind === "drop" ? "coleccion" : "tienda";
  return new Response(reportCsv(result.report), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="reporte-${name}-${day}.csv"`,
      ...noStore,
    },
  });
}

/** Nothing to post here; the guard still answers first (401 signed out, 403 from another site). */
export function action(args: Route.ActionArgs) {
  requireAdminForDownload(args);
  return methodNotAllowed();
}
