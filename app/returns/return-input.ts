import { safeText } from "~/lib/text";
import { isReturnReason, type ReturnReason } from "./return-status";

/*
 * The buyer's return form, read from its fields: `pieza-<line>` (how many of that line), `motivo`
 * (one of the shop's reasons) and `comentario` (her own words). Each error is Spanish, by field.
 */

export interface ReturnForm {
  lines: { position: number; quantity: number }[];
  reason: ReturnReason;
  comment: string;
}

const comment = safeText({ multiline: true, label: "Comentario" }).max(
  1000,
  "Escribe máximo 1,000 caracteres.",
);

export function readReturnForm(
  form: FormData | null,
): { ok: true; value: ReturnForm } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const lines: ReturnForm["lines"] = [];
  for (const [name, value] of form?.entries() ?? []) {
    const match = /^pieza-(\d{1,4})$/.exec(name);
    if (!match) continue;
    const quantity = Number(String(value));
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > 999) {
      errors.piezas = "Elige cuántas piezas devuelves de cada una.";
      continue;
    }
    if (quantity > 0) lines.push({ position: Number(match[1]), quantity });
  }
  if (lines.length === 0) errors.piezas ??= "Elige al menos una pieza para devolver.";
  // A reason is welcome, never required (LFPC art. 56): none chosen is 'Prefiero no decirlo'.
  const reason = String(form?.get("motivo") ?? "") || "sin_motivo";
  if (!isReturnReason(reason)) errors.motivo = "Elige uno de los motivos de la lista.";
  const said = comment.safeParse(String(form?.get("comentario") ?? ""));
  if (!said.success) errors.comentario = said.error.issues[0]?.message ?? "Revisa tu comentario.";
  if (Object.keys(errors).length > 0 || !said.success || !isReturnReason(reason))
    return { ok: false, errors };
  return { ok: true, value: { lines, reason, comment: said.data } };
}

/** The owner's answer: a message to the buyer, always required (it is what she reads). */
export function readOwnerMessage(
  form: FormData | null,
  decision: "accept" | "decline" | "close",
): { ok: true; message: string } | { ok: false; error: string } {
  const parsed = safeText({ multiline: true, label: "Mensaje" })
    .max(2000, "Escribe máximo 2,000 caracteres.")
    .safeParse(String(form?.get("mensaje") ?? ""));
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Revisa el mensaje." };
  if (parsed.data === "") {
    return {
      ok: false,
      error:
        decision === "decline"
          ? "Escribe a la clienta por qué no aceptas la devolución."
          : decision === "close"
            ? "Escribe a la clienta por qué cierras la devolución (por ejemplo, que las piezas no llegaron)."
            : "Escribe a dónde debe enviar las piezas (dirección y cómo empacarlas).",
    };
  }
  return { ok: true, message: parsed.data };
}
