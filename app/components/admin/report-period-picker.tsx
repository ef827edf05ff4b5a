import { Form } from "react-router";
import { monthLabel } from "~/reports/calendar";
import { REPORT_PARAMS } from "~/reports/query";
import type { ReportScope } from "~/reports/report";

/** The two choices of a report's period: one collection, or one month (a GET form each). */
export function ReportPeriodPicker({
  scope,
  drops,
  months,
}: {
  scope: ReportScope;
  drops: readonly { id: string; name: string }[];
  /** Months with sales, newest first ("2026-10"). */
  months: readonly string[];
}) {
  return (
    <div className="mt-6 grid gap-3 sm:grid-cols-2">
      <Form method="get" className="flex items-end gap-2" aria-label="Reporte por colección">
        <div className="min-w-0 flex-1">
          <label htmlFor="report-drop" className="block text-sm font-medium">
            Colección
          </label>
          {/* Keyed by the report shown: a changed defaultValue is not applied to a select. */}
          <select
            key={scope.kind === "drop" ? scope.dropId : ""}
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
            key={scope.kind === "month" ? scope.month : ""}
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
  );
}
