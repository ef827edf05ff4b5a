/** The e-mails about orders: their kinds in the mail queue and how the desk names them. */
export const CONFIRMATION_EMAIL = "confirmacion";
export const SHIPMENT_EMAIL = "envio";

export const EMAIL_LABELS: Record<string, string> = {
  [CONFIRMATION_EMAIL]: "Correo de confirmación",
  [SHIPMENT_EMAIL]: "Aviso de envío",
};
