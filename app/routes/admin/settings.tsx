import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useCallback, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { keepFormWhenSessionEnds } from "~/components/admin/session-ended";
import {
  CarriersSection,
  LegalTextsSection,
  PurchasesSection,
  ShopDetailsSection,
} from "~/components/admin/settings-sections";
import { StorefrontSection, StoryUploads } from "~/components/admin/storefront-section";
import { RouteError } from "~/components/route-error";
import { formatShopDateTime } from "~/lib/dates";
import {
  DETAIL_FIELDS,
  fieldDigests,
  formValues,
  isSettingsField,
  keepUntouched,
  type SettingsField,
  STORY_FIELDS,
  settingsSchema,
} from "~/settings/settings";
import { missingPhotos, storyPictures } from "~/settings/storefront.server";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Configuración · Administración" }];

const NOTICES = {
  guardado: "Configuración guardada. La tienda la muestra en unos segundos en todos los servidores.",
  restablecido: "Se restableció el valor original.",
} as const;

/**
 * What a 'Restablecer' button may name: a field, or the details section. (A Map: a posted name is
 * looked up, and 'constructor' names no group.)
 */
const RESET_GROUPS = new Map<string, readonly SettingsField[]>([
  ["detalles", DETAIL_FIELDS],
  ["tienda", STORY_FIELDS],
  ["portada", ["heroImage", "heroImageAlt"]],
]);

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { settings, database, media } = args.context.get(servicesContext);
  const current = settings.current();
  const values = formValues(current);
  // Each picture's preview: an uploaded photo's WebP copy or the illustration itself.
  const story = current.storefront;
  const refs = [
    story.heroImage,
    ...story.storyCards.map((c) => c.image),
    ...story.workshopPairs.flatMap((p) => [p.before, p.after]),
  ];
  const pictures = await storyPictures(
    database.db,
    media,
    refs.map((ref) => ({ ref, alt: "" })),
  );
  const previews: Record<string, string> = {};
  refs.forEach((ref, i) => {
    const picture = pictures[i];
    if (ref && picture) previews[ref] = picture.src;
  });
  // A photo that is gone (never the case unless removed by hand) shows as none.
  const shown = (ref: string | null) => (ref && ref in previews ? ref : "");
  const aviso = args.url.searchParams.get("aviso");
  const updatedAt = settings.updatedAt();
  const formShown = {
    ...values,
    processVideoUrl: values.processVideoUrl ?? "",
    heroImage: shown(values.heroImage),
    storyCards: values.storyCards.map((c) => ({ ...c, image: shown(c.image) })),
    workshopPairs: values.workshopPairs.map((p) => ({
      ...p,
      before: shown(p.before),
      after: shown(p.after),
    })),
    defaultMaxPerOrder: values.defaultMaxPerOrder === null ? "" : String(values.defaultMaxPerOrder),
    deliveryDays: String(values.deliveryDays),
    oxxoEnabled: values.oxxoEnabled ? "on" : "",
    speiEnabled: values.speiEnabled ? "on" : "",
    voucherDays: String(values.voucherDays),
    installmentsEnabled: values.installmentsEnabled ? "on" : "",
    installmentsMonths: String(values.installmentsMonths),
    installmentsMinimum: String(values.installmentsMinimum),
    shippingStandardCost: String(values.shippingStandardCost),
    shippingExpressCost: String(values.shippingExpressCost),
    shippingFreeFrom: values.shippingFreeFrom === null ? "" : String(values.shippingFreeFrom),
    carriers: values.carriers.map((c) => ({ name: c.name, trackingUrl: c.trackingUrl ?? "" })),
  };
  // What this form shows, field by field: its save changes only the fields the owner edited.
  const parsedShown = settingsSchema.safeParse(asSubmitted(formShown));
  return {
    version: settings.version(),
    values: formShown,
    shown: parsedShown.success ? JSON.stringify(fieldDigests(parsedShown.data)) : "",
    previews,
    changed: [...settings.changed()],
    updatedAt: updatedAt ? formatShopDateTime(updatedAt) : null,
    notice: aviso && Object.hasOwn(NOTICES, aviso) ? NOTICES[aviso as keyof typeof NOTICES] : null,
  };
}

/** Values as a submitted form reads them: Conform turns an empty field into none. */
function asSubmitted(value: unknown): unknown {
  if (value === "") return undefined;
  if (Array.isArray(value)) return value.map(asSubmitted);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asSubmitted(v)]));
  return value;
}

/** The digests the form was sent with (hidden 'mostrados'); null when missing or not ours. */
function shownDigests(value: FormDataEntryValue | null): Record<string, string> | null {
  if (typeof value !== "string" || value === "") return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return null;
  }
}

type ActionData = { result: SubmissionResult<string[]> | null; message?: string };

function answer(status: number, body: ActionData) {
  return data(body, { status, headers: { "Cache-Control": "no-store" } });
}

/** A save after the session ended keeps the page and what was typed (components/admin/session-ended). */
export const clientAction = (args: Route.ClientActionArgs) => keepFormWhenSessionEnds(args);

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { settings, database } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  if (!form) return answer(400, { result: null, message: "Envía el formulario." });
  const reset = form.get("restablecer");
  if (reset !== null) {
    const name = String(reset);
    const fields = RESET_GROUPS.get(name) ?? (isSettingsField(name) ? [name] : null);
    if (!fields) return answer(400, { result: null, message: "No hay nada que restablecer con ese nombre." });
    await settings.reset(fields);
    throw redirect("/admin/settings?aviso=restablecido");
  }
  const submission = parseWithZod(form, { schema: settingsSchema });
  // Adding or removing a carrier without JavaScript comes back here (Conform's intents): not an error.
  if (submission.status !== "success") {
    return answer(submission.status === "error" ? 400 : 200, { result: submission.reply() });
  }
  // A photo's id that names no stored image (a forged form, or a photo removed meanwhile).
  const missing = await missingPhotos(database.db, submission.value);
  if (missing.size > 0) {
    const value = submission.value;
    const gone = (ref: string | null) => ref !== null && missing.has(ref);
    const message = ["No se encontró la foto; súbela de nuevo."];
    const fieldErrors: Record<string, string[]> = {};
    if (gone(value.heroImage)) fieldErrors.heroImage = message;
    value.storyCards.forEach((c, i) => {
      if (gone(c.image)) fieldErrors[`storyCards[${i}].image`] = message;
    });
    value.workshopPairs.forEach((p, i) => {
      if (gone(p.before)) fieldErrors[`workshopPairs[${i}].before`] = message;
      if (gone(p.after)) fieldErrors[`workshopPairs[${i}].after`] = message;
    });
    return answer(400, { result: submission.reply({ fieldErrors }) });
  }
  await settings.save(
    keepUntouched(submission.value, shownDigests(form.get("mostrados")), formValues(settings.current())),
    settings.current().shop,
  );
  throw redirect("/admin/settings?aviso=guardado");
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [uploading, setUploading] = useState(0);
  const onUpload = useCallback((delta: number) => setUploading((n) => n + delta), []);
  const changed = new Set<string>(loaderData.changed);
  const [form, fields] = useForm({
    // A new version (saved here or elsewhere) is a new form with the stored values.
    id: `configuracion-${loaderData.version}`,
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    defaultValue: loaderData.values,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData, submitter }) {
      const submission = parseWithZod(formData, { schema: settingsSchema });
      // 'Restablecer' goes back to a default whatever else the page holds: a field left invalid
      // elsewhere must not stop it (the server reads only the field it names).
      if (submitter?.name !== "restablecer") return submission;
      return parseWithZod(formData, { schema: z.object({}).passthrough() }) as unknown as typeof submission;
    },
  });
  const message = actionData?.message;
  const formErrors = form.errors?.length ? form.errors : null;
  const failed = actionData?.result?.status === "error";

  return (
    <section aria-labelledby="section-title" className="space-y-6">
      <div>
        <h1 id="section-title" className="font-serif text-3xl">
          Configuración
        </h1>
        <p className="mt-2 text-sm text-ink/75">
          Los datos de la tienda, las paqueterías, los textos legales y lo que cuenta la tienda en línea. Lo
          que no cambies aquí sigue la configuración del servidor.
          {loaderData.updatedAt && ` Último cambio: ${loaderData.updatedAt}.`}
        </p>
      </div>
      {loaderData.notice && !actionData && (
        <p role="status" className="rounded-lg bg-sand/70 px-4 py-3 text-sm">
          {loaderData.notice}
        </p>
      )}
      {(message || formErrors || failed) && (
        <p
          role="alert"
          className="rounded-lg border border-red-800/40 bg-red-50 px-4 py-3 text-sm text-red-900"
        >
          {message ?? formErrors?.[0] ?? "Revisa los campos marcados: no se guardó nada."}
        </p>
      )}

      <Form method="post" {...getFormProps(form)} className="space-y-6">
        <input type="hidden" name="mostrados" value={loaderData.shown} />
        <ShopDetailsSection fields={fields} changed={changed} />
        {/* A save while a photo uploads would keep the old photo and call itself done. */}
        <StoryUploads.Provider value={onUpload}>
          <StorefrontSection
            key={`tienda-${loaderData.version}`}
            fields={fields}
            changed={changed}
            form={form}
            previews={loaderData.previews}
          />
        </StoryUploads.Provider>
        <PurchasesSection fields={fields} changed={changed} />
        <CarriersSection form={form} fields={fields} changed={changed} />
        <LegalTextsSection fields={fields} changed={changed} />

        <button
          type="submit"
          disabled={busy || uploading > 0}
          className="min-h-11 rounded-full bg-ink px-6 text-sm font-medium text-cream disabled:opacity-60"
        >
          {busy ? "Guardando..." : "Guardar configuración"}
        </button>
        {uploading > 0 && (
          <p role="status" className="text-sm text-ink/75">
            Espera a que terminen de subir las fotos.
          </p>
        )}
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError notFoundTitle="Configuración" home={{ to: "/admin/orders", label: "Volver a pedidos" }} />
  );
}
