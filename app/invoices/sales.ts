import { toCsv } from "~/lib/csv";
import { shopDateTimeStamp } from "~/lib/dates";
import { formatMXN } from "~/lib/money";
import { catalogueLabel, regimenOf, usoOf } from "./sat-catalogues";

/*
 * What the owner's desk and her accountant read of facturas: the IVA inside a price, how an order
 * was paid in the SAT's words, and the two monthly exports (requests; sales for the global
 * invoice). Pure: the rows come from requests.server.ts.
 */

/** IVA's rate in Mexico (outside the border region): prices include it (decision 43's "IVA incluido"). */
export const IVA_RATE_PERCENT = 16;

/** A total with IVA included, split into its base and its IVA (centavos; they add up to the total). */
export function splitIva(totalCents: number): { subtotalCents: number; ivaCents: number } {
  const subtotalCents = Math.round((totalCents * 100) / (100 + IVA_RATE_PERCENT));
  return { subtotalCents, ivaCents: totalCents - subtotalCents };
}

/** Centavos as pesos with two decimals, the way spreadsheets read numbers: 123456 -> "1234.56". */
export function pesos(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * How the order was paid, with the SAT's c_FormaPago code: a card is 04 when the provider said it
 * was a credit card and 28 when debit (a prepaid card is a debit card to the SAT); both codes when
 * it did not say (orders paid before it was recorded, the demo's payments).
 */
export function paymentMethodText(method: string | null, cardFunding: string | null = null): string {
  if (method === "oxxo") return "01 · Efectivo (OXXO)";
  if (method === "spei") return "03 · Transferencia electrónica de fondos (SPEI)";
  if (cardFunding === "credit") return "04 · Tarjeta de crédito";
  if (cardFunding === "debit" || cardFunding === "prepaid") return "28 · Tarjeta de débito";
  return "04 · Tarjeta de crédito o 28 · Tarjeta de débito";
}

/** A buyer's request as the desk lists it and the accountant's export has it. */
export interface InvoiceRequestRow {
  orderId: string;
  paidAt: Date;
  requestedAt: Date;
  rfc: string;
  name: string;
  postalCode: string;
  regimen: string;
  uso: string;
  email: string;
  totalCents: number;
  paymentMethod: string | null;
  /** The card's kind when paid by card ('credit', 'debit'…), as the provider told it. */
  cardFunding?: string | null;
  status: string;
  reference: string | null;
  /** What the order gave back after the sale (returns' refunds, missing pieces), in centavos; 0 when none. */
  refundedCents?: number;
}

/** A month's paid sale nobody asked a factura for. */
export interface GlobalSaleRow {
  orderId: string;
  paidAt: Date;
  totalCents: number;
  shippingCents: number;
  paymentMethod: string | null;
  /** The card's kind when paid by card ('credit', 'debit'…), as the provider told it. */
  cardFunding?: string | null;
  /** What the order gave back after the sale (returns' refunds, missing pieces), in centavos; 0 when none. */
  refundedCents?: number;
}

/**
 * What went back after a sale (a return's refund, a late payment's missing pieces) beside it, for
 * the accountant (a credit note, or a smaller global invoice, is her call): pesos, empty when none.
 */
const refundedCell = (cents: number | undefined) => (cents ? pesos(cents) : "");

export const STATUS_TEXT: Record<string, string> = {
  recibida: "Por timbrar",
  timbrada: "Timbrada",
  rechazada: "Rechazada por el proveedor",
  pedido_cancelado: "Pedido cancelado y reembolsado: no facturar",
};

const regimenText = (code: string) => {
  const found = regimenOf(code);
  return found ? catalogueLabel(found) : code;
};
const usoText = (code: string) => {
  const found = usoOf(code);
  return found ? catalogueLabel(found) : code;
};

/** The owner's list: the same facts, as text for the page. */
export function requestView(row: InvoiceRequestRow) {
  return {
    orderId: row.orderId,
    requestedAt: shopDateTimeStamp(row.requestedAt),
    rfc: row.rfc,
    name: row.name,
    postalCode: row.postalCode,
    regimen: regimenText(row.regimen),
    uso: usoText(row.uso),
    email: row.email,
    total: formatMXN(row.totalCents),
    status: STATUS_TEXT[row.status] ?? row.status,
  };
}

/** The month's requests for the accountant: every field a CFDI 4.0's receptor needs, and the amounts. */
export function invoiceRequestsCsv(rows: readonly InvoiceRequestRow[]): string {
  return toCsv([
    [
      "Pedido",
      "Fecha de pago",
      "Fecha de solicitud",
      "RFC",
      "Nombre o razón social",
      "Código postal fiscal",
      "Régimen fiscal",
      "Uso del CFDI",
      "Correo",
      "Forma de pago",
      "Subtotal (MXN)",
      `IVA ${IVA_RATE_PERCENT} % (MXN)`,
      "Total (MXN)",
      "Estado",
      "Referencia del proveedor",
      "Reembolsado después de la venta: devoluciones y piezas faltantes (MXN)",
    ],
    ...rows.map((r) => {
      const { subtotalCents, ivaCents } = splitIva(r.totalCents);
      return [
        r.orderId,
        shopDateTimeStamp(r.paidAt),
        shopDateTimeStamp(r.requestedAt),
        r.rfc,
        r.name,
        r.postalCode,
        regimenText(r.regimen),
        usoText(r.uso),
        r.email,
        paymentMethodText(r.paymentMethod, r.cardFunding ?? null),
        pesos(subtotalCents),
        pesos(ivaCents),
        pesos(r.totalCents),
        STATUS_TEXT[r.status] ?? r.status,
        r.reference ?? "",
        refundedCell(r.refundedCents),
      ];
    }),
  ]);
}

/** The month's sales without a request, for the global invoice (público en general), with its total row. */
export function globalInvoiceCsv(rows: readonly GlobalSaleRow[]): string {
  let subtotal = 0;
  let iva = 0;
  let total = 0;
  let refunded = 0;
  const lines = rows.map((r) => {
    const split = splitIva(r.totalCents);
    subtotal += split.subtotalCents;
    iva += split.ivaCents;
    total += r.totalCents;
    refunded += r.refundedCents ?? 0;
    return [
      r.orderId,
      shopDateTimeStamp(r.paidAt),
      paymentMethodText(r.paymentMethod, r.cardFunding ?? null),
      pesos(r.shippingCents),
      pesos(split.subtotalCents),
      pesos(split.ivaCents),
      pesos(r.totalCents),
      refundedCell(r.refundedCents),
    ];
  });
  return toCsv([
    [
      "Pedido",
      "Fecha de pago",
      "Forma de pago",
      "Envío incluido (MXN)",
      "Subtotal (MXN)",
      `IVA ${IVA_RATE_PERCENT} % (MXN)`,
      "Total (MXN)",
      "Reembolsado después de la venta: devoluciones y piezas faltantes (MXN)",
    ],
    ...lines,
    [
      "Total del mes",
      "",
      `${rows.length} ventas`,
      "",
      pesos(subtotal),
      pesos(iva),
      pesos(total),
      refundedCell(refunded),
    ],
  ]);
}
