import { data, redirect, useNavigation } from "react-router";
import { DropForm } from "~/components/admin/drop-form";
import { keepFormWhenSessionEnds } from "~/components/admin/session-ended";
import { RouteError } from "~/components/route-error";
import { createDropFromInput } from "~/drops-desk/create.server";
import { dropInput } from "~/drops-desk/drop-input";
import { fieldErrors, formToDropInput } from "~/drops-desk/form-reading";
import { emptyDrop } from "~/drops-desk/form-values";
import { newId } from "~/lib/ids";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => [{ title: "Crear colección · Administración" }];

/** A new form gets the new drop's id at once: its photos are stored in the drop's folder as they upload. */
export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { settings } = args.context.get(servicesContext);
  return { initial: emptyDrop(newId(), { maxPerOrder: settings.current().defaultMaxPerOrder }) };
}

/** A save after the session ended keeps the page and what was typed (components/admin/session-ended). */
export const clientAction = (args: Route.ClientActionArgs) => keepFormWhenSessionEnds(args);

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database, media } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  if (!form) return data({ errors: { fields: {}, first: "Envía el formulario." } }, { status: 400 });
  const parsed = dropInput.safeParse(formToDropInput(form));
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, { status: 400 });
  const created = await createDropFromInput(database.db, media, parsed.data);
  if (!created.ok) return data({ errors: { fields: {}, first: created.message } }, { status: 409 });
  // A new drop is a draft under Próximas (decision 38); the list says it was created.
  throw redirect("/admin/drops/show-upcoming-drops?aviso=creado");
}

export default function NewDrop({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <DropForm
      initial={loaderData.initial}
      mode="create"
      errors={actionData?.errors}
      busy={navigation.state === "submitting"}
    />
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Crear colección"
      home={{ to: "/admin/drops", label: "Volver a las colecciones" }}
    />
  );
}
