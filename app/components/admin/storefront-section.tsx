import { getFieldsetProps, getTextareaProps } from "@conform-to/react";
import { useState } from "react";
import type { MediaValue } from "~/drops-desk/form-values";
import {
  MAX_BRAND_STORY_CHARS,
  MAX_HERO_TEXT_CHARS,
  STOREFRONT_MEDIA_FOLDER,
  STORY_FIELDS,
} from "~/settings/settings";
import { MediaSlot } from "./media-picker";
import {
  CarrierField,
  FieldError,
  inputClass,
  ResetButton,
  SettingLabel,
  settingsSectionClass,
  TextField,
} from "./setting-fields";
import type { SettingsFields } from "./settings-sections";

/**
 * 'Tienda en línea': the home hero (title, text, photo), the brand's story and the four steps of
 * the process, as the home page and /nosotros tell them. The photo uploads at once through the
 * drops' pipeline (POST /admin/media) and travels as its media id.
 */
export function StorefrontSection({
  fields,
  changed,
  heroPreview,
}: {
  fields: SettingsFields;
  changed: ReadonlySet<string>;
  /** The stored hero photo's address, for its preview; null while the illustration is used. */
  heroPreview: string | null;
}) {
  const initialId = fields.heroImage.initialValue;
  const [hero, setHero] = useState<MediaValue | null>(
    initialId && heroPreview ? { id: initialId, url: heroPreview, alt: "" } : null,
  );
  const steps = fields.processSteps.getFieldList();
  return (
    <fieldset id="tienda-en-linea" className={`${settingsSectionClass} scroll-mt-4`}>
      <legend className="px-1 font-serif text-xl">Tienda en línea</legend>
      <p className="mt-1 text-sm text-ink/75">
        Lo que cuentan la portada de la tienda y Nosotros. Sin foto propia, la portada muestra la ilustración
        de la marca.
      </p>
      <div className="mt-4 space-y-4">
        <TextField
          meta={fields.heroTitle}
          label="Título de la portada"
          hint="Si es el nombre de la tienda, cambia cuando cambie el nombre."
          changed={changed}
        />
        <div>
          <SettingLabel meta={fields.heroText} label="Texto de la portada" changed={changed} />
          <textarea
            {...getTextareaProps(fields.heroText)}
            key={fields.heroText.key}
            rows={2}
            maxLength={MAX_HERO_TEXT_CHARS}
            className={`${inputClass} py-2`}
          />
          <FieldError id={fields.heroText.errorId} errors={fields.heroText.errors} />
        </div>
        <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start">
          <MediaSlot
            dropId={STOREFRONT_MEDIA_FOLDER}
            kind="image"
            name={fields.heroImage.name}
            label="Imagen de la portada"
            value={hero}
            onChange={setHero}
            error={fields.heroImage.errors?.[0]}
          />
          {hero ? (
            <TextField
              meta={fields.heroImageAlt}
              label="Qué muestra la imagen de la portada"
              hint="Para quien no puede verla (lectores de pantalla)."
              changed={changed}
            />
          ) : (
            <input type="hidden" name={fields.heroImageAlt.name} value="" />
          )}
        </div>
        {(changed.has("heroImage") || changed.has("heroImageAlt")) && (
          <p>
            <ResetButton
              target="portada"
              label="la imagen de la portada"
              text="Volver a la ilustración de la marca"
            />
          </p>
        )}
        <div>
          <SettingLabel meta={fields.brandStory} label="Historia de la marca" changed={changed} />
          <textarea
            {...getTextareaProps(fields.brandStory)}
            key={fields.brandStory.key}
            rows={5}
            maxLength={MAX_BRAND_STORY_CHARS}
            className={`${inputClass} py-2`}
          />
          <FieldError id={fields.brandStory.errorId} errors={fields.brandStory.errors} />
        </div>
        <fieldset>
          <legend className="text-sm font-medium">Hecho a mano, paso a paso</legend>
          <ol className="mt-2 space-y-3">
            {steps.map((step, index) => {
              const row = step.getFieldset();
              return (
                <li key={step.key}>
                  <fieldset {...getFieldsetProps(step)} className="grid gap-3 sm:grid-cols-[14rem_1fr]">
                    <legend className="sr-only">Paso {index + 1}</legend>
                    <CarrierField
                      meta={row.title}
                      label={`Paso ${index + 1}: título`}
                      type="text"
                      maxLength={60}
                    />
                    <CarrierField
                      meta={row.description}
                      label={`Paso ${index + 1}: una frase`}
                      type="text"
                      maxLength={200}
                    />
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <FieldError id={fields.processSteps.errorId} errors={fields.processSteps.errors} />
          {changed.has("processSteps") && (
            <ResetButton target="processSteps" label="los pasos del proceso" text="Restablecer los pasos" />
          )}
        </fieldset>
        {STORY_FIELDS.some((f) => changed.has(f)) && (
          <p>
            <ResetButton
              target="tienda"
              label="todo lo de la tienda en línea"
              text="Restablecer todo lo de la tienda en línea"
            />
          </p>
        )}
      </div>
    </fieldset>
  );
}
