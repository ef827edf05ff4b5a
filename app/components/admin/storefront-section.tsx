import { type FieldMetadata, getFieldsetProps, getTextareaProps } from "@conform-to/react";
import { createContext, useContext, useState } from "react";
import type { MediaValue } from "~/drops-desk/form-values";
import {
  MAX_BRAND_STORY_CHARS,
  MAX_HERO_TEXT_CHARS,
  MAX_STORY_CARDS,
  MAX_TIMELINE_ENTRIES,
  MAX_WORKSHOP_PAIRS,
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
import type { SettingsFields, SettingsForm } from "./settings-sections";

/** A picture's id or illustration path → the address of its preview. */
type Previews = Readonly<Record<string, string>>;

/**
 * One picture of the story: its preview, an upload through the drops' pipeline (POST /admin/media,
 * into the storefront's folder), 'Quitar', and what it shows. The id (or the illustration's path)
 * travels in the field `meta`, the description in `altMeta`.
 */
function StoryPhoto({
  meta,
  altMeta,
  label,
  previews,
}: {
  meta: FieldMetadata<string | null | undefined>;
  altMeta: FieldMetadata<string | undefined>;
  label: string;
  previews: Previews;
}) {
  const ref = typeof meta.initialValue === "string" ? meta.initialValue : "";
  const alt = typeof altMeta.initialValue === "string" ? altMeta.initialValue : "";
  const stored = (): MediaValue | null => {
    const url = previews[ref];
    return ref && url ? { id: ref, url, alt } : null;
  };
  const [value, setValue] = useState(stored);
  // A new stored value (a save here or on another server) replaces what was shown: Conform hands
  // the new form's initial values over after its first render.
  const [shown, setShown] = useState(ref);
  if (shown !== ref) {
    setShown(ref);
    setValue(stored());
  }
  return (
    <MediaSlot
      dropId={STOREFRONT_MEDIA_FOLDER}
      kind="image"
      name={meta.name}
      altName={altMeta.name}
      label={label}
      value={value}
      onChange={setValue}
      onBusy={useContext(StoryUploads)}
      error={meta.errors?.[0] ?? altMeta.errors?.[0]}
    />
  );
}

/** Told of each photo upload starting (+1) and ending (−1): the page holds its save meanwhile. */
export const StoryUploads = createContext<(delta: number) => void>(() => {});

/** A multi-line setting with its label, 'Restablecer' and error. */
function TextArea({
  meta,
  label,
  rows,
  maxLength,
  changed,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  rows: number;
  maxLength: number;
  changed: ReadonlySet<string>;
}) {
  return (
    <div>
      <SettingLabel meta={meta as FieldMetadata<string>} label={label} changed={changed} />
      <textarea
        {...getTextareaProps(meta)}
        key={meta.key}
        rows={rows}
        maxLength={maxLength}
        className={`${inputClass} py-2`}
      />
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A row's own short text (no 'Restablecer': its list has one). */
function RowArea({ meta, label }: { meta: FieldMetadata<string | undefined>; label: string }) {
  return (
    <div>
      <label htmlFor={meta.id} className="block text-sm font-medium">
        {label}
      </label>
      <textarea
        {...getTextareaProps(meta)}
        key={meta.key}
        rows={3}
        maxLength={400}
        className={`${inputClass} py-2`}
      />
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

const rowClass = "rounded-xl border border-sand p-3 sm:p-4";
const smallButton = "min-h-11 rounded border border-ink/30 px-3 text-sm";

/**
 * 'Tienda en línea': the home hero (title, text, photo), the brand's story and the four steps of
 * the process, and /nosotros's story cards, timeline and before/after workshop photos.
 */
export function StorefrontSection({
  form,
  fields,
  changed,
  previews,
}: {
  form: SettingsForm;
  fields: SettingsFields;
  changed: ReadonlySet<string>;
  previews: Previews;
}) {
  const steps = fields.processSteps.getFieldList();
  const cards = fields.storyCards.getFieldList();
  const moments = fields.timeline.getFieldList();
  const pairs = fields.workshopPairs.getFieldList();
  return (
    <fieldset id="tienda-en-linea" className={`${settingsSectionClass} scroll-mt-4`}>
      <legend className="px-1 font-serif text-xl">Tienda en línea</legend>
      <p className="mt-1 text-sm text-ink/75">
        Lo que cuentan la portada de la tienda y Nosotros. Sin foto propia, cada lugar muestra la ilustración
        de la marca.
      </p>
      <div className="mt-4 space-y-6">
        <TextField
          meta={fields.heroTitle}
          label="Título de la portada"
          hint="Si es el nombre de la tienda, cambia cuando cambie el nombre."
          changed={changed}
        />
        <TextArea
          meta={fields.heroText}
          label="Texto de la portada"
          rows={2}
          maxLength={MAX_HERO_TEXT_CHARS}
          changed={changed}
        />
        <div>
          <StoryPhoto
            meta={fields.heroImage}
            altMeta={fields.heroImageAlt}
            label="Imagen de la portada"
            previews={previews}
          />
          {(changed.has("heroImage") || changed.has("heroImageAlt")) && (
            <p className="mt-2">
              <ResetButton
                target="portada"
                label="la imagen de la portada"
                text="Volver a la ilustración de la marca"
              />
            </p>
          )}
        </div>
        <TextArea
          meta={fields.brandStory}
          label="Historia de la marca (portada y Nosotros)"
          rows={5}
          maxLength={MAX_BRAND_STORY_CHARS}
          changed={changed}
        />

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

        <fieldset>
          <legend className="text-sm font-medium">Nosotros: tarjetas de la historia</legend>
          <ol className="mt-2 space-y-3">
            {cards.map((card, index) => {
              const row = card.getFieldset();
              return (
                <li key={card.key} className={rowClass}>
                  <fieldset {...getFieldsetProps(card)} className="grid gap-3 sm:grid-cols-[8rem_1fr]">
                    <legend className="sr-only">Tarjeta {index + 1}</legend>
                    <CarrierField meta={row.year} label="Año" type="text" maxLength={20} />
                    <CarrierField meta={row.title} label="Título" type="text" maxLength={80} />
                    <div className="sm:col-span-2">
                      <RowArea meta={row.text} label="Texto" />
                    </div>
                    <div className="sm:col-span-2">
                      <StoryPhoto
                        meta={row.image}
                        altMeta={row.imageAlt}
                        label={`Foto de la tarjeta ${index + 1}`}
                        previews={previews}
                      />
                    </div>
                  </fieldset>
                  <button
                    {...form.remove.getButtonProps({ name: fields.storyCards.name, index })}
                    className={`mt-3 ${smallButton}`}
                    aria-label={`Quitar la tarjeta ${index + 1}`}
                  >
                    Quitar tarjeta
                  </button>
                </li>
              );
            })}
          </ol>
          <FieldError id={fields.storyCards.errorId} errors={fields.storyCards.errors} />
          <div className="mt-3 flex flex-wrap items-center gap-4">
            {cards.length < MAX_STORY_CARDS && (
              <button
                {...form.insert.getButtonProps({
                  name: fields.storyCards.name,
                  defaultValue: { year: "", title: "", text: "", image: "", imageAlt: "" },
                })}
                className={smallButton}
              >
                Agregar tarjeta
              </button>
            )}
            {changed.has("storyCards") && (
              <ResetButton
                target="storyCards"
                label="las tarjetas de la historia"
                text="Restablecer las tarjetas"
              />
            )}
          </div>
        </fieldset>

        <fieldset>
          <legend className="text-sm font-medium">Nosotros: línea del tiempo</legend>
          <ol className="mt-2 space-y-3">
            {moments.map((moment, index) => {
              const row = moment.getFieldset();
              return (
                <li key={moment.key} className={rowClass}>
                  <fieldset {...getFieldsetProps(moment)} className="grid gap-3 sm:grid-cols-[8rem_1fr]">
                    <legend className="sr-only">Momento {index + 1}</legend>
                    <CarrierField meta={row.year} label="Año" type="text" maxLength={20} />
                    <CarrierField meta={row.title} label="Título" type="text" maxLength={80} />
                    <div className="sm:col-span-2">
                      <RowArea meta={row.text} label="Texto" />
                    </div>
                  </fieldset>
                  <button
                    {...form.remove.getButtonProps({ name: fields.timeline.name, index })}
                    className={`mt-3 ${smallButton}`}
                    aria-label={`Quitar el momento ${index + 1}`}
                  >
                    Quitar momento
                  </button>
                </li>
              );
            })}
          </ol>
          <FieldError id={fields.timeline.errorId} errors={fields.timeline.errors} />
          <div className="mt-3 flex flex-wrap items-center gap-4">
            {moments.length < MAX_TIMELINE_ENTRIES && (
              <button
                {...form.insert.getButtonProps({
                  name: fields.timeline.name,
                  defaultValue: { year: "", title: "", text: "" },
                })}
                className={smallButton}
              >
                Agregar momento
              </button>
            )}
            {changed.has("timeline") && (
              <ResetButton
                target="timeline"
                label="la línea del tiempo"
                text="Restablecer la línea del tiempo"
              />
            )}
          </div>
        </fieldset>

        <fieldset>
          <legend className="text-sm font-medium">Nosotros: antes y después en el taller</legend>
          <ol className="mt-2 space-y-3">
            {pairs.map((pair, index) => {
              const row = pair.getFieldset();
              return (
                <li key={pair.key} className={rowClass}>
                  <fieldset {...getFieldsetProps(pair)} className="grid gap-3 sm:grid-cols-2">
                    <legend className="sr-only">Par de fotos {index + 1}</legend>
                    <div className="sm:col-span-2">
                      <CarrierField meta={row.title} label="Título" type="text" maxLength={80} />
                    </div>
                    <div className="sm:col-span-2">
                      <RowArea meta={row.caption} label="Qué cambió" />
                    </div>
                    <StoryPhoto
                      meta={row.before}
                      altMeta={row.beforeAlt}
                      label={`Antes (par ${index + 1})`}
                      previews={previews}
                    />
                    <StoryPhoto
                      meta={row.after}
                      altMeta={row.afterAlt}
                      label={`Después (par ${index + 1})`}
                      previews={previews}
                    />
                  </fieldset>
                  <button
                    {...form.remove.getButtonProps({ name: fields.workshopPairs.name, index })}
                    className={`mt-3 ${smallButton}`}
                    aria-label={`Quitar el par de fotos ${index + 1}`}
                  >
                    Quitar par
                  </button>
                </li>
              );
            })}
          </ol>
          <FieldError id={fields.workshopPairs.errorId} errors={fields.workshopPairs.errors} />
          <div className="mt-3 flex flex-wrap items-center gap-4">
            {pairs.length < MAX_WORKSHOP_PAIRS && (
              <button
                {...form.insert.getButtonProps({
                  name: fields.workshopPairs.name,
                  defaultValue: {
                    title: "",
                    caption: "",
                    before: "",
                    beforeAlt: "",
                    after: "",
                    afterAlt: "",
                  },
                })}
                className={smallButton}
              >
                Agregar par de fotos
              </button>
            )}
            {changed.has("workshopPairs") && (
              <ResetButton
                target="workshopPairs"
                label="las fotos de antes y después"
                text="Restablecer las fotos"
              />
            )}
          </div>
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
