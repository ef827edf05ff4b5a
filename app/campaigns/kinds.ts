import { CONFIRMATION_EMAIL, SHIPMENT_EMAIL } from "~/orders/emails/kinds";
import { WAITLIST_CONFIRM_EMAIL, WAITLIST_OPENING_EMAIL } from "~/waitlist/kinds";

/** 'Enviar prueba': the opening e-mail of a drop, sent to the signed-in owner. */
export const CAMPAIGN_TEST_EMAIL = "campana_prueba";

/** How the mail log names each kind of message (an unknown kind shows as it is stored). */
export const MAIL_KIND_LABELS: Readonly<Record<string, string>> = {
  [CONFIRMATION_EMAIL]: "Confirmación de pedido",
  [SHIPMENT_EMAIL]: "Aviso de envío",
  [WAITLIST_CONFIRM_EMAIL]: "Avísame: confirmar correo",
  [WAITLIST_OPENING_EMAIL]: "Avísame: la colección abrió",
  [CAMPAIGN_TEST_EMAIL]: "Prueba del correo de apertura",
};

export function mailKindLabel(kind: string): string {
  return MAIL_KIND_LABELS[kind] ?? kind;
}
