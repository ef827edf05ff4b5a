import type { UploadReason } from "~/media/upload-failures.server";
import { receiveUpload } from "~/media/uploads.server";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/media";

const NO_STORE = { "Cache-Control": "no-store" };

function statusOf(reason: UploadReason): 400 | 413 {
  return reason === "demasiado_grande" ? 413 : 400;
}

/**
 * POST /admin/media: one photo or video for a drop, sent by the drop form as soon as it is chosen
 * (the drop may not be saved yet); Configuración's storefront photos come here too, with
 * `STOREFRONT_MEDIA_FOLDER` as their `dropId` (decision 40). multipart/form-data with `dropId` and `kind` (image | video)
 * before `file`. 201 with { id, kind, url, width, height }; a refusal is { message } in Spanish
 * with 400, or 413 for a file over its limit. The body is streamed (app/media/multipart.server.ts);
 * server/app.ts lets this path past the 256 KB cap and drains or closes what is left unread.
 */
export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { request } = args;
  if (request.method !== "POST") {
    return Response.json(
      { message: "Método no permitido." },
      { status: 405, headers: { ...NO_STORE, Allow: "POST" } },
    );
  }
  const { database, media } = args.context.get(servicesContext);
  const length = request.headers.get("content-length");
  const result = await receiveUpload(
    { db: database.db, storage: media },
    {
      contentType: request.headers.get("content-type"),
      contentLength: length !== null && /^\d+$/.test(length) ? Number(length) : null,
      body: request.body,
    },
  );
  if (!result.ok) {
    return Response.json({ message: result.message }, { status: statusOf(result.reason), headers: NO_STORE });
  }
  return Response.json(result.media, { status: 201, headers: NO_STORE });
}

/** Nothing to show: files are sent from the drop form. */
export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  return Response.json(
    { message: "Los archivos se suben desde el formulario de la colección." },
    { status: 405, headers: { ...NO_STORE, Allow: "POST" } },
  );
}
