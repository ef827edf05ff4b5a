import {
  type FieldMetadata,
  getFieldsetProps,
  getFormProps,
  getInputProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useNavigation } from "react-router";
import { RouteError } from "~/components/route-error";
import { MAX_ORDER_PIECES } from "~/config/ceilings";
import { formatShopDateTime } from "~/lib/dates";
import { GUIA, OTHER_CARRIER } from "~/settings/carriers";
import {
  DETAIL_FIELDS,
  formValues,
  isSettingsField,
  LEGAL_FIELDS,
  LEGAL_LABELS,
  type LegalField,
  MAX_CARRIERS,
  type SettingsField,
  settingsSchema,
} from "~/settings/settings";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Configuración · Administración" }];

const NOTICES = {
  guardado: "Configuración guardada. La tienda la muestra en unos segundos en todos los servidores.",
  restablecido: "Se restableció el valor original.",
} as const;

/** What a 'Restablecer' button may name: a field, or the details section. */
const RESET_GROUPS: Record<string, readonly SettingsField[]> = { detalles: DETAIL_FIELDS };

export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { settings } = args.context.get(servicesContext);
  const values = formValues(settings.current());
  const aviso = args.url.searchParams.get("aviso");
  const updatedAt = settings.updatedAt();
  return {
    version: settings.version(),
    values: {
      ...values,
      processVideoUrl: values.processVideoUrl ?? "",
      defaultMaxPerOrder: values.defaultMaxPerOrder === null ? "" : String(values.defaultMaxPerOrder),
      carriers: values.carriers.map((c) => ({ name: c.name, trackingUrl: c.trackingUrl ?? "" })),
    },
    changed: [...settings.changed()],
    updatedAt: updatedAt ? formatShopDateTime(updatedAt) : null,
    notice: aviso && aviso in NOTICES ? NOTICES[aviso as keyof typeof NOTICES] : null,
  };
}

type ActionData = { result: SubmissionResult<string[]> | null; message?: string };

function answer(status: number, body: ActionData) {
  return data(body, { status, headers: { "Cache-Control": "no-store" } });
}

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { settings } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  if (!form) return answer(400, { result: null, message: "Envía el formulario." });
  const reset = form.get("restablecer");
  if (reset !== null) {
    const name = String(reset);
    const fields = RESET_GROUPS[name] ?? (isSettingsField(name) ? [name] : null);
    if (!fields) return answer(400, { result: null, message: "No hay nada que restablecer con ese nombre." });
    await settings.reset(fields);
    throw redirect("/admin/settings?aviso=restablecido");
  }
  const submission = parseWithZod(form, { schema: settingsSchema });
  // Adding or removing a carrier without JavaScript comes back here (Conform's intents): not an error.
  if (submission.status !== "success") {
    return answer(submission.status === "error" ? 400 : 200, { result: submission.reply() });
  }
  await settings.save(submission.value, settings.current().shop);
  throw redirect("/admin/settings?aviso=guardado");
}

const inputClass = "mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3";
const sectionClass = "rounded-2xl border border-sand p-4 sm:p-6";

function ResetButton({
  target,
  label,
  text = "Restablecer",
}: {
  target: string;
  label: string;
  text?: string;
}) {
  return (
    <button
      type="submit"
      name="restablecer"
      value={target}
      formNoValidate
      className="text-sm text-gold-700 underline"
      aria-label={`Restablecer ${label}`}
    >
      {text}
    </button>
  );
}

function FieldError({ id, errors }: { id: string; errors: string[] | undefined }) {
  return (
    <p id={id} className="mt-1 text-sm text-red-800">
      {errors?.[0]}
    </p>
  );
}

/** A setting's label, with its 'Restablecer' button while the field differs from the original. */
function SettingLabel({
  meta,
  label,
  changed,
}: {
  meta: FieldMetadata<string>;
  label: string;
  changed: ReadonlySet<string>;
}) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <label htmlFor={meta.id} className="block text-sm font-medium">
        {label}
      </label>
      {changed.has(meta.name) && <ResetButton target={meta.name} label={label} />}
    </div>
  );
}

function TextField({
  meta,
  label,
  hint,
  type = "text",
  changed,
  inputMode,
}: {
  meta: FieldMetadata<string>;
  label: string;
  hint?: string;
  type?: "text" | "email" | "url" | "tel";
  /** The fields that differ from the original. */
  changed: ReadonlySet<string>;
  inputMode?: "numeric" | "tel";
}) {
  const props = getInputProps(meta, { type, ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <div>
      <SettingLabel meta={meta} label={label} changed={changed} />
      <input {...props} key={props.key} inputMode={inputMode} className={inputClass} />
      {hint && (
        <p id={`${meta.id}-hint`} className="mt-1 text-xs text-ink/70">
          {hint}
        </p>
      )}
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** One field of a carrier's row: no 'Restablecer' of its own (the list has one). */
function CarrierField({
  meta,
  label,
  type,
  maxLength,
}: {
  meta: FieldMetadata<string>;
  label: string;
  type: "text" | "url";
  maxLength?: number;
}) {
  return (
    <div>
      <label htmlFor={meta.id} className="block text-sm font-medium">
        {label}
      </label>
      <input {...getInputProps(meta, { type })} key={meta.key} maxLength={maxLength} className={inputClass} />
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const changed = new Set<string>(loaderData.changed);
  const [form, fields] = useForm({
    // A new version (saved here or elsewhere) is a new form with the stored values.
    id: `configuracion-${loaderData.version}`,
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    defaultValue: loaderData.values,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData }) {
      return parseWithZod(formData, { schema: settingsSchema });
    },
  });
  const carriers = fields.carriers.getFieldList();
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
          Los datos de la tienda, las paqueterías y los textos legales. Lo que no cambies aquí sigue la
          configuración del servidor.
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
        <fieldset className={sectionClass}>
          <legend className="px-1 font-serif text-xl">Datos de la tienda</legend>
          <div className="mt-2 grid gap-4 sm:grid-cols-2">
            <TextField meta={fields.name} label="Nombre de la tienda" changed={changed} />
            <TextField meta={fields.email} label="Correo de contacto" type="email" changed={changed} />
            <TextField
              meta={fields.whatsapp}
              label="WhatsApp"
              type="tel"
              inputMode="tel"
              hint="Con lada internacional, p. ej. 5215512345678."
              changed={changed}
            />
            <TextField meta={fields.instagramUrl} label="Instagram" type="url" changed={changed} />
            <TextField meta={fields.agencyName} label="Agencia (Powered by)" changed={changed} />
            <TextField meta={fields.agencyUrl} label="Sitio de la agencia" type="url" changed={changed} />
            <div className="sm:col-span-2">
              <TextField
                meta={fields.processVideoUrl}
                label="Video del proceso"
                type="url"
                hint="Se ve en Nosotros: la dirección para insertar de YouTube o Vimeo, o un archivo MP4/WebM. Vacío: sin video."
                changed={changed}
              />
            </div>
          </div>
          {DETAIL_FIELDS.some((f) => changed.has(f)) && (
            <p className="mt-4">
              <ResetButton
                target="detalles"
                label="todos los datos de la tienda"
                text="Restablecer todos los datos de la tienda"
              />
            </p>
          )}
        </fieldset>

        <fieldset className={sectionClass}>
          <legend className="px-1 font-serif text-xl">Compras</legend>
          <div className="mt-2 max-w-xs">
            <TextField
              meta={fields.defaultMaxPerOrder}
              label="Máximo por persona en colecciones nuevas"
              inputMode="numeric"
              hint={`De 1 a ${MAX_ORDER_PIECES}; vacío para no limitar. Cada colección puede cambiarlo.`}
              changed={changed}
            />
          </div>
        </fieldset>

        <fieldset className={sectionClass}>
          <legend className="px-1 font-serif text-xl">Paqueterías</legend>
          <p className="mt-1 text-sm text-ink/75">
            La dirección de seguimiento lleva {GUIA} donde va el número de guía; sin dirección, el correo de
            envío no lleva enlace. «{OTHER_CARRIER}» siempre está en la lista.
          </p>
          <ul className="mt-4 space-y-4">
            {carriers.map((carrier, index) => {
              const row = carrier.getFieldset();
              return (
                <li key={carrier.key}>
                  <fieldset
                    {...getFieldsetProps(carrier)}
                    className="grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-start"
                  >
                    <legend className="sr-only">Paquetería {index + 1}</legend>
                    <CarrierField meta={row.name} label="Nombre" type="text" maxLength={60} />
                    <CarrierField meta={row.trackingUrl} label="Dirección de seguimiento" type="url" />
                    <button
                      {...form.remove.getButtonProps({ name: fields.carriers.name, index })}
                      className="mt-6 min-h-11 rounded border border-ink/30 px-3 text-sm"
                      aria-label={`Quitar paquetería ${index + 1}`}
                    >
                      Quitar
                    </button>
                  </fieldset>
                </li>
              );
            })}
          </ul>
          <FieldError id={fields.carriers.errorId} errors={fields.carriers.errors} />
          <div className="mt-4 flex flex-wrap items-center gap-4">
            {carriers.length < MAX_CARRIERS && (
              <button
                {...form.insert.getButtonProps({
                  name: fields.carriers.name,
                  defaultValue: { name: "", trackingUrl: "" },
                })}
                className="min-h-11 rounded border border-ink/30 px-4 text-sm"
              >
                Agregar paquetería
              </button>
            )}
            {changed.has("carriers") && (
              <ResetButton target="carriers" label="la lista de paqueterías" text="Restablecer la lista" />
            )}
          </div>
        </fieldset>

        <fieldset className={sectionClass}>
          <legend className="px-1 font-serif text-xl">Textos legales</legend>
          <p className="mt-1 text-sm text-ink/75">
            «## » al inicio de una línea empieza una sección; «- » un elemento de lista; una línea en blanco
            separa párrafos. Restablecer vuelve al texto modelo.
          </p>
          <div className="mt-4 space-y-6">
            {(Object.keys(LEGAL_FIELDS) as LegalField[]).map((name) => {
              const meta = fields[name];
              return (
                <div key={name}>
                  <SettingLabel meta={meta} label={LEGAL_LABELS[name]} changed={changed} />
                  <textarea
                    {...getTextareaProps(meta)}
                    key={meta.key}
                    rows={10}
                    className={`${inputClass} py-2 font-mono text-sm`}
                  />
                  <FieldError id={meta.errorId} errors={meta.errors} />
                </div>
              );
            })}
          </div>
        </fieldset>

        <button
          type="submit"
          disabled={busy}
          className="min-h-11 rounded-full bg-ink px-6 text-sm font-medium text-cream disabled:opacity-60"
        >
          {busy ? "Guardando..." : "Guardar configuración"}
        </button>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError notFoundTitle="Configuración" home={{ to: "/admin/orders", label: "Volver a pedidos" }} />
  );
}
