import { data, redirect, useNavigation } from "react-router";
import { DropForm } from "~/components/admin/drop-form";
import { RouteError } from "~/components/route-error";
import { deleteDrop } from "~/drops-desk/delete.server";
import { dropInput } from "~/drops-desk/drop-input";
import { dropForEdit } from "~/drops-desk/edit-form.server";
import { fieldErrors, formToDropInput } from "~/drops-desk/form-reading";
import { updateDropFromInput } from "~/drops-desk/update.server";
import { isId } from "~/lib/ids";
import { requireAdmin } from "~/web/guards.server";
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
  const initial = isId(args.params.dropId) ? await dropForEdit(database.db, media, args.params.dropId) : null;
  if (!initial) throw redirect(NOT_FOUND);
  return { initial };
}

/** Saves the form, or (intent=eliminar, from the lists) deletes the drop. */
export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database, media, payments } = args.context.get(servicesContext);
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
  return data({ notice: "Drop actualizado correctamente" });
}

export default function EditDrop({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const answer = actionData as
    | { errors?: { fields: Record<string, string>; first: string }; notice?: string }
    | undefined;
  return (
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
