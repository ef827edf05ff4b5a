import { openingSnapshot } from "~/drops-desk/live-opening.server";
import { isId } from "~/lib/ids";
import { requireAdminForDownload } from "~/web/guards.server";
import { methodNotAllowed } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/opening-data";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * /admin/drops/:dropId/apertura/datos: the live opening page's figures, read by the page every
 * second (drops-desk/live-opening.server.ts). Signed out: a 401 with the Spanish message.
 */
export async function loader(args: Route.LoaderArgs) {
  requireAdminForDownload(args);
  const { database } = args.context.get(servicesContext);
  const snapshot = isId(args.params.dropId) ? await openingSnapshot(database.db, args.params.dropId) : null;
  if (!snapshot) return Response.json({ message: "Drop no encontrado." }, { status: 404, headers: noStore });
  return Response.json(snapshot, { headers: noStore });
}

/** Nothing to post here; the guard still answers first (401 signed out, 403 from another site). */
export function action(args: Route.ActionArgs) {
  requireAdminForDownload(args);
  return methodNotAllowed();
}
