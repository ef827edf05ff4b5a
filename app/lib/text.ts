import { z } from "zod";

/** What a person reads when a field holds a control character. */
export const CONTROL_CHARS_MESSAGE = "El texto contiene caracteres no permitidos.";

// Every control character (C0 with NUL, DEL and C1): PostgreSQL refuses NUL in text, and the rest
// are never typed on purpose. A multi-line field keeps its tabs and line breaks (a textarea sends
// CRLF).
const ANY_CONTROL = /\p{Cc}/u;
const CONTROL_BUT_LAYOUT = /[^\P{Cc}\t\n\r]/u;

export function hasControlChars(value: string, options: { multiline?: boolean } = {}): boolean {
  return (options.multiline ? CONTROL_BUT_LAYOUT : ANY_CONTROL).test(value);
}

/**
 * Text typed by a person, for every form and JSON schema: trimmed, then refused (with `label` in
 * the message when given) if it holds a control character. `error` is said when the value is
 * missing or not text. Chain `.min()`/`.max()` after it.
 */
export function safeText(options: { label?: string; multiline?: boolean; error?: string } = {}): z.ZodString {
  const message = options.label
    ? `${options.label}: contiene caracteres no permitidos.`
    : CONTROL_CHARS_MESSAGE;
  return (
    z
      .string({ error: options.error ?? "Escribe un texto." })
      .trim()
      // abort: the field's other rules (and the form's own checks) would only add noise to this one.
      .refine((value) => !hasControlChars(value, options), { message, abort: true })
  );
}
