import { exportSignUpsCsv } from "~/campaigns/waitlists.server";
import { shopDateTimeStamp } from "~/lib/dates";
import { isId } from "~/lib/ids";
import { requireAdmin } from "~/web/guards.server";
import { methodNotAllowed } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/export";

const plain = (status: number, message: string) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * POST /admin/campains/exportar.csv (drop=…): a drop's whole 'Avísame' list as a spreadsheet. A
 * post, not a link: a list of people's addresses leaves the shop only from its own page (401
 * signed out, 403 from another site, like every admin action; decision 25).
 */
export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  if (!form) return plain(400, "Envía el formulario.");
  const dropId = String(form.get("drop") ?? "");
  if (!isId(dropId)) return plain(404, "Esa colección no existe.");
  const csv = await exportSignUpsCsv(database.db, dropId);
  if (csv === null) return plain(404, "Esa colección no existe.");
  const day = shopDateTimeStamp(new Date()).slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="avisame-${dropId}-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/** The list is exported with the page's button (a post); the address alone shows nothing. */
export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  return methodNotAllowed("POST");
}
