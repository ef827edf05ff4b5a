import { type FieldMetadata, type FormMetadata, getFieldsetProps, getTextareaProps } from "@conform-to/react";
import type { z } from "zod";
import { MAX_ORDER_PIECES } from "~/config/ceilings";
import { formatMXN } from "~/lib/money";
import { GUIA, OTHER_CARRIER } from "~/settings/carriers";
import { DETAILS_ANCHOR, legalAnchor } from "~/settings/checklist";
import { INSTALLMENT_MONTHS } from "~/settings/installments";
import {
  DETAIL_FIELDS,
  LEGAL_FIELDS,
  LEGAL_LABELS,
  type LegalField,
  MAX_CARRIERS,
  type settingsSchema,
} from "~/settings/settings";
import { OXXO_MAX_CENTS } from "~/settings/vouchers";
import {
  CarrierField,
  CheckboxField,
  FieldError,
  inputClass,
  ResetButton,
  SettingLabel,
  settingsSectionClass,
  TextField,
} from "./setting-fields";

/** The settings form as Conform sees it, and its fields. */
export type SettingsForm = FormMetadata<z.input<typeof settingsSchema>, string[]>;
export type SettingsFields = ReturnType<SettingsForm["getFieldset"]>;

/** Each section gets the form's fields and the names of those that differ from the original. */
interface SectionProps {
  fields: SettingsFields;
  changed: ReadonlySet<string>;
}

/** The shop's name, contact, links and process video, with one 'Restablecer' for them all. */
export function ShopDetailsSection({ fields, changed }: SectionProps) {
  return (
    <fieldset id={DETAILS_ANCHOR} className={settingsSectionClass}>
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
            hint="Se ve en Nosotros: el enlace del video en YouTube o Vimeo (el de la página o el de insertar), o un archivo MP4/WebM. Vacío: sin video."
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
  );
}

/** What applies to buying: the default most pieces per person of a new drop, 'meses sin intereses'. */
export function PurchasesSection({ fields, changed }: SectionProps) {
  // Conform types these by the schema's input (a number or a string); the form sends strings.
  const asText = (meta: unknown) => meta as FieldMetadata<string>;
  return (
    <fieldset className={settingsSectionClass}>
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
      <div className="mt-6 space-y-4 border-t border-sand pt-4">
        <div className="max-w-xs">
          <TextField
            meta={asText(fields.deliveryDays)}
            label="Días hábiles para dar un envío por entregado"
            inputMode="numeric"
            hint="Si no lo marcas «Entregado» antes: desde entonces corren los 5 días hábiles para pedir una devolución. Cambiarlo vale para los envíos que atiendas desde ahora: los ya enviados conservan sus días."
            changed={changed}
          />
        </div>
        <CheckboxField
          meta={asText(fields.oxxoEnabled)}
          label="Aceptar pago en efectivo en OXXO"
          hint={`Hasta ${formatMXN(OXXO_MAX_CENTS)} por pedido. Las piezas quedan apartadas hasta que vence la ficha.`}
          changed={changed}
        />
        <CheckboxField
          meta={asText(fields.speiEnabled)}
          label="Aceptar transferencia bancaria (SPEI)"
          hint="Actívalos también en tu cuenta de Stripe. Ninguna colección los ofrece en sus primeras horas de «solo tarjeta»."
          changed={changed}
        />
        <div className="max-w-xs">
          <TextField
            meta={asText(fields.voucherDays)}
            label="Días para pagar la ficha"
            inputMode="numeric"
            hint="1, 2 o 3: la ficha vence a las 23:59 (hora del centro) del último día."
            changed={changed}
          />
        </div>
      </div>
      <div className="mt-6 space-y-4 border-t border-sand pt-4">
        <CheckboxField
          meta={asText(fields.installmentsEnabled)}
          label="Ofrecer meses sin intereses con tarjeta de crédito"
          hint="Actívalos también en tu cuenta de Stripe: ahí se eligen los plazos, y las comisiones son de la tienda."
          changed={changed}
        />
        <div className="grid max-w-xl gap-4 sm:grid-cols-2">
          <TextField
            meta={asText(fields.installmentsMonths)}
            label="Hasta cuántos meses"
            inputMode="numeric"
            hint={`${INSTALLMENT_MONTHS.slice(0, -1).join(", ")} o ${INSTALLMENT_MONTHS.at(-1)}: el plazo más largo de tu cuenta.`}
            changed={changed}
          />
          <TextField
            meta={asText(fields.installmentsMinimum)}
            label="Desde un total de (pesos)"
            inputMode="numeric"
            hint="Se anuncian y se ofrecen solo a partir de este total."
            changed={changed}
          />
        </div>
      </div>
      <ShippingRatesFields fields={fields} changed={changed} />
    </fieldset>
  );
}

/** Shipping rates (decision 43): standard and express, each named with its days and cost; free from a total. */
function ShippingRatesFields({ fields, changed }: SectionProps) {
  const asText = (meta: unknown) => meta as FieldMetadata<string>;
  const rates = [
    {
      name: "Envío estándar",
      label: fields.shippingStandardLabel,
      days: fields.shippingStandardDays,
      cost: fields.shippingStandardCost,
    },
    {
      name: "Envío express",
      label: fields.shippingExpressLabel,
      days: fields.shippingExpressDays,
      cost: fields.shippingExpressCost,
    },
  ];
  return (
    <div className="mt-6 space-y-4 border-t border-sand pt-4" data-testid="shipping-rates">
      <h3 className="font-medium">Envíos</h3>
      {rates.map((rate) => (
        <div key={rate.name} className="grid gap-4 sm:grid-cols-3">
          <TextField meta={asText(rate.label)} label={`${rate.name}: nombre`} changed={changed} />
          <TextField
            meta={asText(rate.days)}
            label={`${rate.name}: días hábiles`}
            hint="P. ej. «3 a 7»."
            changed={changed}
          />
          <TextField
            meta={asText(rate.cost)}
            label={`${rate.name}: costo (pesos)`}
            inputMode="numeric"
            hint="IVA incluido; 0 es gratis."
            changed={changed}
          />
        </div>
      ))}
      <div className="max-w-xs">
        <TextField
          meta={asText(fields.shippingFreeFrom)}
          label="Envío estándar gratis desde (pesos)"
          inputMode="numeric"
          hint="Cuando las piezas suman este total. Vacío o 0: nunca gratis."
          changed={changed}
        />
      </div>
    </div>
  );
}

/** The carriers, a row each, that can be added and removed (Conform's intents, with or without JavaScript). */
export function CarriersSection({ form, fields, changed }: SectionProps & { form: SettingsForm }) {
  const carriers = fields.carriers.getFieldList();
  return (
    <fieldset className={settingsSectionClass}>
      <legend className="px-1 font-serif text-xl">Paqueterías</legend>
      <p className="mt-1 text-sm text-ink/75">
        La dirección de seguimiento lleva {GUIA} donde va el número de guía; sin dirección, el correo de envío
        no lleva enlace. «{OTHER_CARRIER}» siempre está en la lista.
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
  );
}

/** The legal pages' texts, one textarea each. */
export function LegalTextsSection({ fields, changed }: SectionProps) {
  return (
    <fieldset className={settingsSectionClass}>
      <legend className="px-1 font-serif text-xl">Textos legales</legend>
      <p className="mt-1 text-sm text-ink/75">
        «## » al inicio de una línea empieza una sección; «- » un elemento de lista; una línea en blanco
        separa párrafos. Restablecer vuelve al texto modelo.
      </p>
      <div className="mt-4 space-y-6">
        {(Object.keys(LEGAL_FIELDS) as LegalField[]).map((name) => {
          const meta = fields[name];
          return (
            // The set-up checklist links here (…/admin/settings#aviso-de-privacidad).
            <div key={name} id={legalAnchor(name)} className="scroll-mt-4">
              <SettingLabel meta={meta} label={LEGAL_LABELS[name]} changed={changed} />
              {!changed.has(name) && (
                <p className="mt-1 text-xs text-ink/75">
                  Texto modelo: revísalo y adáptalo a tu negocio antes de vender. Tus clientes lo leen sin las
                  indicaciones entre corchetes.
                </p>
              )}
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
  );
}
