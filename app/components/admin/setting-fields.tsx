import { type FieldMetadata, getInputProps } from "@conform-to/react";

/** The look of every input of the settings form. */
export const inputClass = "mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3";
/** The frame of each section of the settings form. */
export const settingsSectionClass = "rounded-2xl border border-sand p-4 sm:p-6";

/**
 * Whether a form's fields differ from the values it was rendered with (typed, ticked or chosen
 * since), apart from those named `except` or within it (what is being reset anyway).
 */
function hasUnsavedChanges(form: HTMLFormElement, except: string): boolean {
  for (const field of form.elements) {
    const name = (field as HTMLInputElement).name ?? "";
    if (name === except || name.startsWith(`${except}[`) || name.startsWith(`${except}.`)) continue;
    if (field instanceof HTMLInputElement) {
      if (field.type === "checkbox" || field.type === "radio") {
        if (field.checked !== field.defaultChecked) return true;
      } else if (field.type !== "hidden" && field.type !== "file" && field.value !== field.defaultValue)
        return true;
    } else if (field instanceof HTMLTextAreaElement) {
      if (field.value !== field.defaultValue) return true;
    } else if (field instanceof HTMLSelectElement) {
      if ([...field.options].some((o) => o.selected !== o.defaultSelected)) return true;
    }
  }
  return false;
}

/**
 * Puts a field, a list or a section back to its original value (submits `restablecer`). It applies
 * that reset alone and shows the stored settings again, so other unsaved changes on the page would
 * be lost: with any, it asks first.
 */
export function ResetButton({
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
      onClick={(event) => {
        const form = event.currentTarget.form;
        if (
          form &&
          hasUnsavedChanges(form, target) &&
          !window.confirm(
            "Tienes cambios sin guardar en esta página: al restablecer se pierden. ¿Restablecer de todos modos?",
          )
        )
          event.preventDefault();
      }}
      className="text-sm text-gold-700 underline"
      aria-label={`Restablecer ${label}`}
    >
      {text}
    </button>
  );
}

/** A field's first error, under it (the paragraph is there, empty, while there is none). */
export function FieldError({ id, errors }: { id: string; errors: string[] | undefined }) {
  return (
    <p id={id} className="mt-1 text-sm text-red-800">
      {errors?.[0]}
    </p>
  );
}

/** A setting's label, with its 'Restablecer' button while the field differs from the original. */
export function SettingLabel({
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

/** A labelled setting input, with its hint and error, and its 'Restablecer' while changed. */
export function TextField({
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
      <HintAndError meta={meta} hint={hint} />
    </div>
  );
}

/** One field of a carrier's row: no 'Restablecer' of its own (the list has one). */
export function CarrierField({
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

/** A setting that is on or off, with its hint and error, and its 'Restablecer' while changed. */
export function CheckboxField({
  meta,
  label,
  hint,
  changed,
}: {
  meta: FieldMetadata<string>;
  label: string;
  hint?: string;
  changed: ReadonlySet<string>;
}) {
  const props = getInputProps(meta, {
    type: "checkbox",
    ariaDescribedBy: hint ? `${meta.id}-hint` : undefined,
  });
  return (
    <div>
      <div className="flex items-start gap-3">
        <input {...props} key={props.key} className="mt-1 size-5 shrink-0 accent-gold-700" />
        <label htmlFor={meta.id} className="text-sm font-medium">
          {label}
        </label>
        {changed.has(meta.name) && <ResetButton target={meta.name} label={label} />}
      </div>
      <HintAndError meta={meta} hint={hint} />
    </div>
  );
}

/** A field's hint (named by its input's aria-describedby) and its first error. */
function HintAndError({ meta, hint }: { meta: FieldMetadata<string>; hint?: string }) {
  return (
    <>
      {hint && (
        <p id={`${meta.id}-hint`} className="mt-1 text-xs text-ink/70">
          {hint}
        </p>
      )}
      <FieldError id={meta.errorId} errors={meta.errors} />
    </>
  );
}
