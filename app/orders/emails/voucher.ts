import type { Order } from "../order";
import { PAYMENT_METHOD_LABELS, voucherDeadlineText } from "../vouchers";

/** How to pay a voucher, step by step, in the buyer's words. */
export function howToPay(order: Pick<Order, "voucher" | "total">): string[] {
  const voucher = order.voucher;
  if (!voucher) return [];
  if (voucher.method === "oxxo") {
    return [
      `Ve a cualquier tienda OXXO y di en caja que quieres hacer un pago de OXXO Pay.`,
      `Da la referencia ${voucher.reference} (o muestra la ficha) y paga ${order.total} MXN en efectivo.`,
      "Guarda tu ticket: es tu comprobante.",
    ];
  }
  return [
    `Desde la app o el portal de tu banco, haz una transferencia SPEI de ${order.total} MXN exactos.`,
    ...(voucher.clabe ? [`CLABE: ${voucher.clabe}`] : []),
    `Referencia: ${voucher.reference}`,
  ];
}

/** A voucher still to pay, as /success and 'Mi pedido' show it; null when there is none to pay. */
export interface VoucherView {
  method: string;
  reference: string;
  clabe: string | null;
  url: string | null;
  until: string;
  steps: string[];
}

export function voucherView(order: Pick<Order, "voucher" | "total" | "status">): VoucherView | null {
  const voucher = order.voucher;
  if (!voucher || order.status !== "esperando_pago") return null;
  return {
    method: PAYMENT_METHOD_LABELS[voucher.method],
    reference: voucher.reference,
    clabe: voucher.clabe,
    url: voucher.url,
    until: voucherDeadlineText(voucher.expiresAt),
    steps: howToPay(order),
  };
}
