import type { InvoiceRequestStatus } from "~/db/schema";

/*
 * The port through which the shop's facturas are made (decision 45). The invoices domain owns it;
 * an adapter implements it: today the local one (local-invoicing.server.ts), which records the
 * request for the accountant to stamp from the monthly export; later a stamping provider (e.g.
 * Facturapi) that stamps the CFDI 4.0 itself. No adapter hands the domain an object of its SDK.
 */

/** What a buyer asked for, as recorded: the CFDI 4.0 receptor and the order it is for. */
export interface InvoiceRequest {
  orderId: string;
  rfc: string;
  /** The name or razón social as registered with the SAT (upper case, no type of society). */
  name: string;
  postalCode: string;
  /** c_RegimenFiscal code. */
  regimen: string;
  /** c_UsoCFDI code. */
  uso: string;
  email: string;
  /** What the buyer paid (IVA included), in centavos, and the pieces and shipping it is made of. */
  totalCents: number;
  shippingCents: number;
  lines: { name: string; quantity: number; unitPriceCents: number }[];
  /** How she paid: 'oxxo', 'spei' or null (card): the CFDI's forma de pago. */
  paymentMethod: string | null;
  /**
   * For a card, its kind as the payment provider told it: 'credit' (forma de pago 04), 'debit' or
   * 'prepaid' (28), 'unknown'; null when not a card or not told (`paymentMethodText` in sales.ts
   * is the mapping the exports use).
   */
  cardFunding: string | null;
  paidAt: Date;
}

/** Where a request stands after the provider saw it. */
export interface InvoiceOutcome {
  status: InvoiceRequestStatus;
  /** The provider's invoice, once stamped (Facturapi: the invoice's id). */
  reference: string | null;
  /** What the owner reads on the desk: the provider's refusal, or what happens next. */
  notes: string | null;
}

export interface InvoicingProvider {
  readonly name: "local";
  /**
   * Passes a buyer's request on, once it is stored. Called again for the same order when she
   * corrects her data within the month: an adapter that stamps must then replace (cancel and
   * re-issue) rather than issue a second factura. Throws only when it got no answer it can trust.
   */
  submit(request: InvoiceRequest): Promise<InvoiceOutcome>;
}
