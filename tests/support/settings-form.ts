import type { SettingsValues } from "~/settings/settings";

/**
 * Configuración's whole form as the page sends it (URL-encoded), from `values` and `changes`: a
 * list (carriers, the process steps, the story's cards…) as `list[i].field`, none as "".
 */
export function settingsFormBody(
  values: SettingsValues,
  changes: Record<string, string> = {},
): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (Array.isArray(value)) {
      value.forEach((row: Record<string, unknown>, i) => {
        for (const [field, v] of Object.entries(row))
          form.set(`${key}[${i}].${field}`, v == null ? "" : String(v));
      });
    } else form.set(key, value === null ? "" : String(value));
  }
  for (const [key, value] of Object.entries(changes)) form.set(key, value);
  return form;
}
