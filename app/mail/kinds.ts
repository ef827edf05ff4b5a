/*
 * Every kind of e-mail the shop queues (the `emails.kind` column) and the one Spanish name the
 * shop's pages give it: the order's timeline, 'Reenviar', and the mail log in Campañas.
 */

/** The order confirmation, queued when the payment is confirmed. */
export const CONFIRMATION_EMAIL = "confirmacion";
/** An order cancelled over a drop's per-person limit, sent once its refund was made (decision 29). */
export const CANCELLATION_EMAIL = "cancelacion";
/** The shipment notice with its tracking number. */
export const SHIPMENT_EMAIL = "envio";
/** A shipment notice's payload flag: it follows one sent with the wrong tracking, and says so. */
export const TRACKING_CORRECTED = "guiaCorregida";
/** The OXXO voucher or SPEI transfer details the buyer pays with (decision 42). */
export const VOUCHER_EMAIL = "ficha_de_pago";
/** A voucher that expired or failed unpaid: the pieces went back to the shop. */
export const VOUCHER_ENDED_EMAIL = "ficha_vencida";
/** A voucher over a drop's per-person limit, cancelled before it was paid (nothing charged). */
export const VOUCHER_CANCELLED_EMAIL = "ficha_cancelada";
/** Returns (decision 48): the buyer's request arrived. */
export const RETURN_REQUESTED_EMAIL = "devolucion_solicitada";
/** Returns: the owner accepted it (where to send the pieces). */
export const RETURN_ACCEPTED_EMAIL = "devolucion_aceptada";
/** Returns: the owner declined it, with her reason. */
export const RETURN_DECLINED_EMAIL = "devolucion_rechazada";
/** Returns: the pieces arrived and their price was refunded. */
export const RETURN_REFUNDED_EMAIL = "devolucion_reembolsada";
/** Returns: an accepted one closed without its pieces (no refund), with the owner's words. */
export const RETURN_CLOSED_EMAIL = "devolucion_cerrada";
/** 'Avísame': the link that confirms an address. */
export const WAITLIST_CONFIRM_EMAIL = "avisame_confirmar";
/** 'Avísame': the notice that the drop opened. */
export const WAITLIST_OPENING_EMAIL = "avisame_apertura";
/** 'Requiero factura': the buyer's request (or its correction) was received (decision 45). */
export const INVOICE_REQUEST_EMAIL = "factura_solicitada";
/** 'Avísame si vuelve': the link that confirms an address waiting for a sold-out piece. */
export const RESTOCK_CONFIRM_EMAIL = "vuelve_confirmar";
/** 'Avísame si vuelve': the piece (or size) is back in stock. */
export const RESTOCK_EMAIL = "vuelve_aviso";
/** 'Enviar prueba': the opening e-mail of a drop, sent to the signed-in owner. */
export const CAMPAIGN_TEST_EMAIL = "campana_prueba";

/** How the shop names each kind of message (an unknown kind shows as it is stored). */
export const MAIL_KIND_LABELS: Readonly<Record<string, string>> = {
  [CONFIRMATION_EMAIL]: "Confirmación de pedido",
  [CANCELLATION_EMAIL]: "Cancelación y reembolso",
  [SHIPMENT_EMAIL]: "Aviso de envío",
  [VOUCHER_EMAIL]: "Ficha de pago (OXXO o SPEI)",
  [VOUCHER_ENDED_EMAIL]: "Ficha vencida",
  [VOUCHER_CANCELLED_EMAIL]: "Ficha cancelada (máximo por persona)",
  [RETURN_REQUESTED_EMAIL]: "Devolución: solicitud recibida",
  [RETURN_ACCEPTED_EMAIL]: "Devolución aceptada",
  [RETURN_DECLINED_EMAIL]: "Devolución rechazada",
  [RETURN_REFUNDED_EMAIL]: "Devolución reembolsada",
  [RETURN_CLOSED_EMAIL]: "Devolución cerrada sin reembolso",
  [WAITLIST_CONFIRM_EMAIL]: "Avísame: confirmar correo",
  [WAITLIST_OPENING_EMAIL]: "Avísame: la colección abrió",
  [RESTOCK_CONFIRM_EMAIL]: "Avísame si vuelve: confirmar correo",
  [RESTOCK_EMAIL]: "Avísame si vuelve: la pieza volvió",
  [CAMPAIGN_TEST_EMAIL]: "Prueba del correo de apertura",
  [INVOICE_REQUEST_EMAIL]: "Solicitud de factura recibida",
};

export function mailKindLabel(kind: string): string {
  return MAIL_KIND_LABELS[kind] ?? kind;
}
