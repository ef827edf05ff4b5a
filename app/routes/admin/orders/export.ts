import { shopDateTimeStamp } from "~/lib/dates";
import { exportOrdersCsv } from "~/orders/desk.server";
import { parseDeskQuery } from "~/orders/desk-query";
import { requireAdminForDownload } from "~/web/guards.server";
import { onlyGet } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/export";

/** /admin/orders/exportar.csv?estado=…&q=…&desde=…&hasta=…: the tab and search as a spreadsheet. */
export async function loader(args: Route.LoaderArgs) {
  requireAdminForDownload(args);
  const { database } = args.context.get(servicesContext);
  const { query, values, refused, errors } = parseDeskQuery(args.url.searchParams);
  if (refused) {
    return new Response(errors.join("\n"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const csv = await exportOrdersCsv(database.db, query);
  const day = shopDateTimeStamp(new Date()).slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="pedidos-${values.tab}-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/** Not a form: signed out 401 (and from another site 403), as every admin action; then 405. */
export function action(args: Route.ActionArgs) {
  requireAdminForDownload(args);
  return onlyGet();
}
