import type { InvoiceOutcome, InvoicingProvider } from "./invoicing-port";

/**
 * The embedded default (decision 45): nothing leaves the shop. The request stays recorded as
 * 'recibida'; the owner exports the month's requests for her accountant, who stamps each factura
 * with the SAT's or her own provider's tools and sends it to the buyer's e-mail.
 */
export function createLocalInvoicing(): InvoicingProvider {
  const outcome: InvoiceOutcome = {
    status: "recibida",
    reference: null,
    notes: "Por timbrar: va en la exportación de solicitudes para la contadora.",
  };
  return {
    name: "local",
    submit: async () => outcome,
  };
}
