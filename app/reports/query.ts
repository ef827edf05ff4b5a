import { SHOP_MONTH_PATTERN } from "~/lib/dates";
import type { ReportScope } from "./report";

/** The report's address: /admin/reports?coleccion=<id> or ?mes=2026-10 (nothing: the whole shop). */
export const REPORT_PARAMS = { drop: "coleccion", month: "mes" } as const;

export type ReportQuery = { ok: true; scope: ReportScope } | { ok: false; message: string };

export function parseReportQuery(params: URLSearchParams): ReportQuery {
  const drop = params.get(REPORT_PARAMS.drop)?.trim() ?? "";
  const month = params.get(REPORT_PARAMS.month)?.trim() ?? "";
  if (drop && month) return { ok: false, message: "Elige una colección o un mes, no los dos." };
  if (month) {
    return SHOP_MONTH_PATTERN.test(month)
      ? { ok: true, scope: { kind: "month", month } }
      : { ok: false, message: "Mes no válido: usa el formato AAAA-MM (por ejemplo 2026-10)." };
  }
  if (drop) {
    return /^[\w-]{1,64}$/.test(drop)
      ? { ok: true, scope: { kind: "drop", dropId: drop } }
      : { ok: false, message: "Colección no válida." };
  }
  return { ok: true, scope: { kind: "all" } };
}

/** The query string of a scope ("" for the whole shop). */
export function reportSearch(scope: ReportScope): string {
  if (scope.kind === "drop") return `?${REPORT_PARAMS.drop}=${encodeURIComponent(scope.dropId)}`;
  if (scope.kind === "month") return `?${REPORT_PARAMS.month}=${scope.month}`;
  return "";
}
