import { parseInvoiceMonth } from "~/invoices/month-query";
import { globalInvoiceSales, invoiceRequestsOf } from "~/invoices/requests.server";
import { globalInvoiceCsv, invoiceRequestsCsv } from "~/invoices/sales";
import { requireAdminForDownload } from "~/web/guards.server";
import { methodNotAllowed } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/invoices-csv";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * /admin/facturas/solicitudes.csv?mes=2026-11: the month's requests, for the accountant;
 * /admin/facturas/global.csv?mes=2026-11: the month's paid sales without one, for the global invoice.
 */
export async function loader(args: Route.LoaderArgs) {
  requireAdminForDownload(args);
  const query = parseInvoiceMonth(args.url.searchParams);
  if (!query.ok) {
    return new Response(query.message, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", ...noStore },
    });
  }
  const { database } = args.context.get(servicesContext);
  const global = new URL(args.request.url).pathname.endsWith("/global.csv");
  const csv = global
    ? globalInvoiceCsv(await globalInvoiceSales(database.db, query.month))
    : invoiceRequestsCsv(await invoiceRequestsOf(database.db, query.month));
  const name = global ? "factura-global" : "solicitudes-de-factura";
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${query.month}.csv"`,
      ...noStore,
    },
  });
}

/** Nothing to post here; the guard still answers first (401 signed out, 403 from another site). */
export function action(args: Route.ActionArgs) {
  requireAdminForDownload(args);
  return methodNotAllowed();
}
