import { z } from "zod";
import { type DropDates, dropTimeState } from "~/catalogue/drop-time";
import type { DropStatus } from "~/db/taxonomy";

/*
 * The 'Avísame' form's input and every sentence it can answer, shared by the form and the
 * server. Plain TypeScript: nothing here touches the database.
 */

/** What the form shows after any accepted sign-up, new or repeated: it tells nobody whether an address was already on the list. */
export const SIGNED_UP_MESSAGE =
  "¡Listo! Revisa tu correo: te enviamos un enlace para confirmar que quieres el aviso. Si ya lo habías confirmado, no tienes que hacer nada más.";

export type SignUpRefusal =
  | "correo_invalido"
  | "sin_consentimiento"
  | "drop_no_encontrado"
  | "drop_no_proximo";

export const SIGN_UP_MESSAGES: Record<SignUpRefusal, string> = {
  correo_invalido: "Escribe un correo electrónico válido, por ejemplo nombre@correo.com.",
  sin_consentimiento:
    "Para avisarte necesitamos tu permiso: marca la casilla de que leíste el aviso de privacidad.",
  drop_no_encontrado: "Drop no encontrado",
  drop_no_proximo: "Esta colección ya no recibe registros para el aviso: ya abrió o terminó.",
};

/** An address as the list keeps it: no spaces around, lower case (one sign-up per person, whatever the capitals). */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

// Zod's own pattern asks for a dot in the domain: "ana@gmail" is a typo, not an address.
const email = z.string().max(254).pipe(z.email());

/** The address, checked and normalised; null when it is not one. */
export function parseEmail(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const normalized = normalizeEmail(raw);
  const parsed = email.safeParse(normalized);
  return parsed.success ? parsed.data : null;
}

/** A checkbox sends its value only when ticked; anything sent counts as ticked. */
export function parseConsent(raw: unknown): boolean {
  return typeof raw === "string" && raw.length > 0;
}

export { FIELDS, PRIVACY_NOTICE_PATH } from "./form-fields";

/** Every upcoming drop ('Próximamente' by its dates, not archived by hand) takes sign-ups. */
export function takesSignUps(drop: DropDates & { status: DropStatus }, now: Date): boolean {
  return drop.status !== "archivada" && dropTimeState(drop, now) === "pending";
}
