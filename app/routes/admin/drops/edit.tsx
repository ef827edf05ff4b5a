import { data, redirect, useNavigation } from "react-router";
import { dropHref } from "~/catalogue/views.server";
import { DropForm } from "~/components/admin/drop-form";
import { PublishPanel, type PublishPanelValues } from "~/components/admin/publish-panel";
import { keepFormWhenSessionEnds } from "~/components/admin/session-ended";
import { RouteError } from "~/components/route-error";
import type { Db } from "~/db/database.server";
import { deleteDrop } from "~/drops-desk/delete.server";
import { dropInput } from "~/drops-desk/drop-input";
import { dropForEdit } from "~/drops-desk/edit-form.server";
import { fieldErrors, formToDropInput } from "~/drops-desk/form-reading";
import { settleStartedDrops } from "~/drops-desk/list.server";
import { archiveDrop, publicationForEdit, publishDrop, unpublishDrop } from "~/drops-desk/publish.server";
import { readPublishForm } from "~/drops-desk/publish-input";
import { updateDropFromInput } from "~/drops-desk/update.server";
import { formatShopDateTime } from "~/lib/dates";
import { isId } from "~/lib/ids";
import { requireAdmin } from "~/web/guards.server";
import { previewHref, previewNotice } from "~/web/preview.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Editar ${loaderData?.initial.name ?? "colección"} · Administración` },
];

/** The spec: 'Drop no encontrado.', then back to /admin/drops (which shows the message). */
const NOT_FOUND = "/admin/drops?aviso=no-encontrado";

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database, media } = args.context.get(servicesContext);
  const dropId = args.params.dropId;
  if (!isId(dropId)) throw redirect(NOT_FOUND);
  // The status field follows the dates like the tabs do (decision 38).
  await settleStartedDrops(database.db);
  const initial = await dropForEdit(database.db, media, dropId);
  const publication = await publicationForEdit(database.db, dropId);
  if (!initial || !publication) throw redirect(NOT_FOUND);
  const notice = previewNotice(publication.visibleFrom, new Date());
  const publish: PublishPanelValues = {
    dropId,
    publication: notice.publication,
    text:
      notice.publication === "borrador"
        ? "Borrador: solo la ven los administradores y su vista previa."
        : notice.text,
    previewHref: previewHref(dropHref(dropId)),
  };
  return { initial, publish };
}

/** 'Publicar', 'Volver a borrador' and 'Archivar' (decision 38); null for any other intent. */
async function publishing(db: Db, dropId: string, form: FormData) {
  const intent = form.get("intent");
  if (intent === "archivar") {
    const archived = await archiveDrop(db, dropId);
    return archived.ok
      ? data({ ok: true, message: "Colección archivada" })
      : data({ ok: false, message: archived.message }, { status: 404 });
  }
  if (intent === "borrador") {
    const done = await unpublishDrop(db, dropId);
    return done.ok
      ? data({ publish: { ok: true, message: "La colección volvió a borrador: el público ya no la ve." } })
      : data({ publish: { ok: false, message: done.message } }, { status: 404 });
  }
  if (intent !== "publicar") return null;
  const read = readPublishForm(form);
  if (!read.ok) return data({ publish: { ok: false, message: read.message } }, { status: 400 });
  const done = await publishDrop(db, dropId, read.visibleFrom);
  if (!done.ok) {
    return data(
      { publish: { ok: false, message: done.message } },
      { status: done.reason === "no_encontrado" ? 404 : 400 },
    );
  }
  return data({
    publish: {
      ok: true,
      message: read.visibleFrom
        ? `Colección publicada: visible desde el ${formatShopDateTime(read.visibleFrom)}.`
        : "Colección publicada.",
    },
  });
}

/** A save after the session ended keeps the page and what was typed (components/admin/session-ended). */
export const clientAction = (args: Route.ClientActionArgs) => keepFormWhenSessionEnds(args);

/** Saves the form, or (intent=eliminar, from the lists) deletes the drop. */

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database, media, payments, mail } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  const dropId = args.params.dropId;
  if (form?.get("intent") === "eliminar") {
    const deleted = isId(dropId)
      ? await deleteDrop(database.db, media, payments, dropId)
      : ({ ok: false, reason: "no_encontrado", message: "Drop no encontrado." } as const);
    if (!deleted.ok) {
      return data(
        { ok: false, message: `Hubo un error al eliminar el drop. ${deleted.message}` },
        { status: deleted.reason === "no_encontrado" ? 404 : 409 },
      );
    }
    // A form posted without JavaScript (not the list's own request) goes back to the list.
    if (!new URL(args.request.url).pathname.endsWith(".data")) throw redirect("/admin/drops?aviso=eliminado");
    return data({ ok: true, message: "Colección eliminada" });
  }
  if (!form) return data({ errors: { fields: {}, first: "Envía el formulario." } }, { status: 400 });
  if (!isId(dropId)) throw redirect(NOT_FOUND);
  const published = await publishing(database.db, dropId, form);
  if (published) return published;
  const parsed = dropInput.safeParse({ ...formToDropInput(form), id: dropId });
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, { status: 400 });
  const saved = await updateDropFromInput(database.db, media, dropId, parsed.data);
  if (!saved.ok) {
    if (saved.reason === "no_encontrado") throw redirect(NOT_FOUND);
    return data(
      { errors: { fields: {}, first: `Hubo un error al actualizar el drop. ${saved.message}` } },
      // A stock past the cap is the owner's input; anything else is the drop changing meanwhile.
      { status: saved.reason === "stock_maximo" ? 400 : 409 },
    );
  }
  // Stock added may have told addresses waiting for it ('Avísame si vuelve'): out now, not in a minute.
  mail.sendSoon();
  return data({ notice: "Drop actualizado correctamente" });
}

export default function EditDrop({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const answer = actionData as
    | { errors?: { fields: Record<string, string>; first: string }; notice?: string }
    | undefined;
  return (
    <>
      <PublishPanel values={loaderData.publish} />
      <DropForm
        // A save gives the drop a new version: the form opens again on what is stored now (its
        // stock included), so a second save never applies the first one's change twice.
        key={loaderData.initial.version}
        initial={loaderData.initial}
        mode="edit"
        errors={answer?.errors}
        notice={answer?.notice}
        busy={navigation.state === "submitting"}
      />
    </>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Drop no encontrado."
      home={{ to: "/admin/drops", label: "Volver a las colecciones" }}
    />
  );
}
