import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { OrderLinkError } from "~/components/order-link-error";
import { invoiceRequestSchema } from "~/invoices/invoice-form";
import { invoicePagePath } from "~/invoices/invoice-page-link";
import { invoiceStandingOf, requestInvoice } from "~/invoices/requests.server";
import { catalogueLabel, REGIMENES, USOS } from "~/invoices/sat-catalogues";
import { formatShopDateTime } from "~/lib/dates";
import { orderPagePath } from "~/orders/order-page-link.server";
import { servicesContext } from "~/web/services";
import { orderNotFound, requireCurrentLink, signedOrder, signedOrderRef } from "~/web/signed-order.server";
import type { Route } from "./+types/invoice-request";

/*
 * 'Requiero factura' (issue 27, decision 45): the buyer's CFDI 4.0 data for one order, opened from
 * 'Mi pedido' with the same signature; taken until the end of the month she paid in.
 */

export const meta = () => [{ title: "Requiero factura · Mi pedido" }, { name: "robots", content: "noindex" }];

// One buyer's fiscal data: never kept by a shared cache, nor by the browser's history cache.
export const headers = () => ({ "Cache-Control": "private, no-store" });

const NOT_FOUND = orderNotFound;

export async function loader(args: Route.LoaderArgs) {
  const services = args.context.get(servicesContext);
  // Only from its signed link, read once for its link's generation and its standing alike: a
  // changed number or signature is a 404, a link renewed since a 410, neither showing the order.
  const ref = signedOrderRef(args.request, args.params);
  const found = await invoiceStandingOf(services.database.db, ref.orderId);
  const order = requireCurrentLink(services.orderPageLinks, ref, found?.order ?? null);
  if (!found) throw NOT_FOUND();
  const { standing } = found;
  const request = standing.request;
  return {
    orderId: order.id,
    total: order.total,
    orderPage: orderPagePath(services.orderPageLinks, order),
    standing:
      standing.kind === "abierta"
        ? { kind: standing.kind, until: standing.until, message: null }
        : { kind: standing.kind, until: null, message: standing.message },
    received: request
      ? { rfc: request.rfc, name: request.name, email: request.email, at: request.requestedAt.toISOString() }
      : null,
    defaults: {
      rfc: request?.rfc ?? "",
      nombre: request?.name ?? "",
      codigoPostal: request?.postalCode ?? "",
      regimen: request?.regimen ?? "",
      uso: request?.uso ?? "G03",
      correo: request?.email ?? order.customerEmail,
    },
    notice: new URL(args.request.url).searchParams.get("aviso") === "recibida",
  };
}

type ActionData = { result: SubmissionResult<string[]> | null; message?: string };

function answer(status: number, body: ActionData) {
  return data(body, { status, headers: { "Cache-Control": "private, no-store" } });
}

export async function action(args: Route.ActionArgs) {
  const services = args.context.get(servicesContext);
  const signed = await signedOrder(services.database.db, services.orderPageLinks, args.request, args.params);
  const orderId = signed.id;
  const form = await args.request.formData().catch(() => null);
  if (!form) return answer(400, { result: null, message: "Envía el formulario con tus datos fiscales." });
  const submission = parseWithZod(form, { schema: invoiceRequestSchema });
  if (submission.status !== "success") return answer(400, { result: submission.reply() });
  const saved = await requestInvoice(services.database.db, services.invoicing, orderId, submission.value);
  if (!saved.ok) {
    if (saved.reason === "no_encontrado") throw NOT_FOUND();
    if (saved.reason === "muy_pronto")
      return answer(429, { result: submission.reply({ resetForm: false }), message: saved.message });
    // The month is over, or the order is not (or no longer) a sale: nothing was recorded.
    return answer(409, { result: submission.reply({ resetForm: false }), message: saved.message });
  }
  services.mail.sendSoon();
  throw redirect(`${invoicePagePath(services.orderPageLinks, signed)}&aviso=recibida`, 303);
}

const inputClass = "mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3";

function Field({
  meta,
  label,
  hint,
  children,
}: {
  meta: FieldMetadata<string>;
  label: string;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={meta.id} className="block text-sm font-medium">
        {label}
      </label>
      {hint && (
        <p id={`${meta.id}-hint`} className="text-sm text-ink/75">
          {hint}
        </p>
      )}
      {children}
      {meta.errors?.[0] && (
        <p id={meta.errorId} className="mt-1 text-sm text-red-800">
          {meta.errors[0]}
        </p>
      )}
    </div>
  );
}

export default function InvoiceRequest({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { standing, received } = loaderData;
  const [form, fields] = useForm({
    id: `factura-${loaderData.orderId}`,
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    defaultValue: loaderData.defaults,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData }) {
      return parseWithZod(formData, { schema: invoiceRequestSchema });
    },
  });
  const hinted = (meta: FieldMetadata<string>, type: "text" | "email" = "text") =>
    getInputProps(meta, { type, ariaDescribedBy: `${meta.id}-hint` });
  const failed =
    actionData?.message ?? (actionData?.result?.status === "error" ? "Revisa los campos marcados." : null);
  const receivedAt = received ? formatShopDateTime(new Date(received.at)) : null;

  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <p className="text-sm text-ink/75">
        <Link to={loaderData.orderPage} className="underline">
          Mi pedido {loaderData.orderId}
        </Link>
      </p>
      <h1 className="font-serif text-4xl">Requiero factura</h1>
      <p className="mt-2 text-ink/80">
        Pedido {loaderData.orderId} · Total {loaderData.total} MXN, IVA incluido
      </p>

      {received && (
        <section
          aria-labelledby="recibida"
          className="mt-6 rounded-lg bg-sand/50 p-4"
          role={loaderData.notice ? "status" : undefined}
          data-testid="invoice-received"
        >
          <h2 id="recibida" className="font-serif text-2xl">
            {loaderData.notice ? "Recibimos tu solicitud de factura" : "Ya pediste tu factura"}
          </h2>
          <p className="mt-2 text-sm">
            A nombre de <strong>{received.name}</strong>, RFC <strong>{received.rfc}</strong> (el {receivedAt}
            ).
          </p>
          {standing.kind === "sin_pago" ? (
            // Cancelled (or never paid) since: no sale, so nothing will be stamped; the alert below says why.
            <p className="mt-2 text-sm">Con estos datos no se timbrará ninguna factura.</p>
          ) : (
            <p className="mt-2 text-sm">
              Timbramos tu CFDI 4.0 con estos datos y te lo enviamos en PDF y XML a{" "}
              <strong>{received.email}</strong> en los próximos días hábiles.
              {standing.kind === "abierta" &&
                ` Si algo no coincide con tu Constancia de Situación Fiscal, corrígelo abajo hasta el ${standing.until}.`}
            </p>
          )}
        </section>
      )}

      {standing.kind !== "abierta" ? (
        <p
          role="alert"
          className="mt-6 rounded-lg border border-ink/20 p-4 text-sm"
          data-testid="invoice-closed"
        >
          {standing.message}
        </p>
      ) : (
        <>
          <p className="mt-6 text-sm text-ink/80">
            Escribe tus datos como aparecen en tu Constancia de Situación Fiscal: el SAT rechaza un CFDI 4.0
            cuyo nombre, código postal o régimen no coincidan. Puedes pedirla hasta el {standing.until}; las
            compras sin factura de cada mes van en la factura global.
          </p>
          {failed && (
            <p
              role="alert"
              className="mt-4 rounded-lg border border-red-800/40 bg-red-50 px-4 py-3 text-sm text-red-900"
            >
              {failed}
            </p>
          )}
          <Form method="post" {...getFormProps(form)} className="mt-6 space-y-5">
            <Field
              meta={fields.rfc}
              label="RFC"
              hint="13 caracteres si eres persona física, 12 si es una empresa."
            >
              <input
                {...hinted(fields.rfc)}
                key={fields.rfc.key}
                autoComplete="off"
                autoCapitalize="characters"
                maxLength={30}
                className={`${inputClass} uppercase`}
              />
            </Field>
            <Field
              meta={fields.nombre}
              label="Nombre o razón social"
              hint="Como aparece en tu Constancia, en mayúsculas y sin el régimen societario (sin «S.A. de C.V.»): así lo pide el SAT para el CFDI 4.0."
            >
              <input
                {...hinted(fields.nombre)}
                key={fields.nombre.key}
                autoComplete="name"
                maxLength={254}
                className={inputClass}
              />
            </Field>
            <Field
              meta={fields.codigoPostal}
              label="Código postal fiscal"
              hint="El de tu domicilio fiscal (5 números), no necesariamente el de envío."
            >
              <input
                {...hinted(fields.codigoPostal)}
                key={fields.codigoPostal.key}
                inputMode="numeric"
                autoComplete="off"
                maxLength={5}
                className={inputClass}
              />
            </Field>
            <Field
              meta={fields.regimen}
              label="Régimen fiscal"
              hint="El que dice tu Constancia de Situación Fiscal."
            >
              <select
                {...getSelectProps(fields.regimen, { ariaDescribedBy: `${fields.regimen.id}-hint` })}
                key={fields.regimen.key}
                className={inputClass}
              >
                <option value="">Elige tu régimen</option>
                <optgroup label="Personas físicas">
                  {REGIMENES.filter((r) => r.fisica).map((r) => (
                    <option key={`f${r.code}`} value={r.code}>
                      {catalogueLabel(r)}
                    </option>
                  ))}
                </optgroup>
                <optgroup label="Personas morales (empresas)">
                  {/* Those of both kinds (626 RESICO, 610) in both groups: a company looks in its own. */}
                  {REGIMENES.filter((r) => r.moral).map((r) => (
                    <option key={`m${r.code}`} value={r.code}>
                      {catalogueLabel(r)}
                    </option>
                  ))}
                </optgroup>
              </select>
            </Field>
            <Field
              meta={fields.uso}
              label="Uso del CFDI"
              hint="Para qué usarás la factura; el más común en una compra es G03 · Gastos en general."
            >
              <select
                {...getSelectProps(fields.uso, { ariaDescribedBy: `${fields.uso.id}-hint` })}
                key={fields.uso.key}
                className={inputClass}
              >
                {USOS.filter((u) => u.forSales).map((u) => (
                  <option key={u.code} value={u.code}>
                    {catalogueLabel(u)}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              meta={fields.correo}
              label="Correo para recibir la factura"
              hint="Te enviamos ahí el PDF y el XML."
            >
              <input
                {...hinted(fields.correo, "email")}
                key={fields.correo.key}
                autoComplete="email"
                maxLength={200}
                className={inputClass}
              />
            </Field>
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-full bg-ink py-3 font-medium text-cream disabled:opacity-60"
            >
              {received ? "Guardar mis datos corregidos" : "Pedir mi factura"}
            </button>
          </Form>
        </>
      )}

      <Link to={loaderData.orderPage} className="mt-10 inline-block underline">
        Volver a mi pedido
      </Link>
    </main>
  );
}

export const ErrorBoundary = OrderLinkError;
