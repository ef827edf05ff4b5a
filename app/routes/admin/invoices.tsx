import { data, Form, Link } from "react-router";
import { RouteError } from "~/components/route-error";
import { parseInvoiceMonth } from "~/invoices/month-query";
import { monthLabel, recentMonths } from "~/invoices/month-rule";
import { globalInvoiceSales, invoiceRequestsOf } from "~/invoices/requests.server";
import { requestView } from "~/invoices/sales";
import { formatMXN } from "~/lib/money";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = () => [{ title: "Facturas · Administración" }];

/** /admin/facturas?mes=2026-11: the month's 'Requiero factura' requests and its sales without one. */
export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database } = args.context.get(servicesContext);
  const now = new Date();
  const query = parseInvoiceMonth(args.url.searchParams, now);
  const { month } = query;
  const [requests, globalSales] = await Promise.all([
    invoiceRequestsOf(database.db, month),
    globalInvoiceSales(database.db, month),
  ]);
  const months = recentMonths(now);
  const shown = {
    month,
    monthName: monthLabel(month),
    months: (months.includes(month) ? months : [month, ...months]).map((m) => ({
      value: m,
      label: monthLabel(m),
    })),
    requests: requests.map(requestView),
    globalCount: globalSales.length,
    globalTotal: formatMXN(globalSales.reduce((sum, s) => sum + s.totalCents, 0)),
  };
  // A month the page cannot read: it says why and shows this month, with a 400.
  if (!query.ok) return data({ ...shown, error: query.message }, { status: 400 });
  return { ...shown, error: null };
}

export const action = pageTakesNoForm;

const COLUMNS = [
  "Pedido",
  "Solicitada",
  "RFC",
  "Nombre o razón social",
  "Régimen fiscal",
  "Uso del CFDI",
  "Total",
  "Estado",
];

export default function AdminInvoices({ loaderData }: Route.ComponentProps) {
  const { month, monthName, months, requests, error } = loaderData;
  const download = (list: string) => `/admin/facturas/${list}.csv?mes=${month}`;
  return (
    <section aria-labelledby="invoices-title">
      <h1 id="invoices-title" className="font-serif text-3xl">
        Facturas
      </h1>
      <p className="mt-2 text-sm text-ink/75">
        Las solicitudes de factura (CFDI 4.0) que hacen los compradores desde 'Mi pedido', dentro del mes en
        que pagaron. Las ventas del mes sin solicitud van en la factura global (público en general).
      </p>

      <Form method="get" className="mt-6 flex items-end gap-2" aria-label="Facturas por mes">
        <div className="min-w-0 flex-1 sm:max-w-xs">
          <label htmlFor="invoice-month" className="block text-sm font-medium">
            Mes de la venta
          </label>
          <select
            id="invoice-month"
            name="mes"
            defaultValue={month}
            className="mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3"
          >
            {months.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="min-h-11 rounded-full bg-ink px-4 text-sm font-medium text-cream">
          Ver mes
        </button>
      </Form>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {error}
        </p>
      )}

      <div className="mt-8 flex flex-wrap items-baseline justify-between gap-3">
        <h2 className="font-serif text-2xl">Solicitudes de {monthName}</h2>
        <a
          href={download("solicitudes")}
          download
          className="min-h-11 content-center rounded-full border border-ink px-4 text-sm"
        >
          Exportar solicitudes (CSV)
        </a>
      </div>
      {requests.length === 0 ? (
        <p className="mt-4 text-sm text-ink/75">Nadie ha pedido factura de las ventas de {monthName}.</p>
      ) : (
        // biome-ignore lint/a11y/useSemanticElements: the scroll container is a named region inside this section
        <div
          className="mt-4 overflow-x-auto"
          role="region"
          aria-label={`Solicitudes de factura de ${monthName}`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: on a phone the table scrolls sideways, with the keyboard too (WCAG 2.1.1)
          tabIndex={0}
        >
          <table className="w-full min-w-[48rem] text-left text-sm">
            <caption className="sr-only">Solicitudes de factura de {monthName}</caption>
            <thead>
              <tr className="border-b border-sand">
                {COLUMNS.map((c) => (
                  <th key={c} scope="col" className="py-2 pr-3">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr
                  key={r.orderId}
                  className="border-b border-sand/60 align-top"
                  data-testid="invoice-request-row"
                >
                  <td className="py-2 pr-3">
                    <Link to={`/admin/orders/${r.orderId}`} className="underline">
                      {r.orderId}
                    </Link>
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap">{r.requestedAt}</td>
                  <td className="py-2 pr-3 font-mono">{r.rfc}</td>
                  <td className="py-2 pr-3">
                    {r.name}
                    <span className="block text-ink/75">
                      C.P. {r.postalCode} · {r.email}
                    </span>
                  </td>
                  <td className="py-2 pr-3">{r.regimen}</td>
                  <td className="py-2 pr-3">{r.uso}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{r.total}</td>
                  <td className="py-2 pr-3">{r.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <div className="mt-10 flex flex-wrap items-baseline justify-between gap-3">
        <h2 className="font-serif text-2xl">Factura global de {monthName}</h2>
        <a
          href={download("global")}
          download
          className="min-h-11 content-center rounded-full border border-ink px-4 text-sm"
        >
          Exportar ventas sin factura (CSV)
        </a>
      </div>
      <p className="mt-2 text-sm" data-testid="global-summary">
        {loaderData.globalCount === 1
          ? `1 venta pagada sin solicitud de factura: ${loaderData.globalTotal} (IVA incluido).`
          : `${loaderData.globalCount} ventas pagadas sin solicitud de factura: ${loaderData.globalTotal} (IVA incluido).`}{" "}
        Van en la factura global del mes, que se emite al cerrar el mes.
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Página no encontrada"
      message="No se pudieron cargar las facturas."
      home={{ to: "/admin/orders", label: "Volver a la administración" }}
    />
  );
}
