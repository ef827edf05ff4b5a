import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";
import { contactLine, emailHtml } from "~/mail/layout";
import type { MailMessage } from "~/mail/mailer.server";
import type { Order } from "../order";
import { PAYMENT_METHOD_LABELS, voucherDeadlineText } from "../vouchers";
import { firstNameOf, orderPageHtml, orderPageText, piecesOf } from "./order-parts";

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

/** The voucher the buyer pays with: the reference, how, until when, and that the pieces are held until then. */
export function voucherEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
): Omit<MailMessage, "to"> | null {
  const voucher = order.voucher;
  if (!voucher || order.status !== "esperando_pago") return null;
  const firstName = firstNameOf(order);
  const until = voucherDeadlineText(voucher.expiresAt);
  const how = voucher.method === "oxxo" ? "en efectivo en OXXO" : "por transferencia SPEI";
  const held = `Apartamos tus piezas hasta el ${until}. Si el pago no llega para entonces, vuelven a la tienda.`;
  const steps = howToPay(order);
  const pieces = piecesOf(order);
  const after =
    "Cuando se acredite tu pago (normalmente al día hábil siguiente) te llegará la confirmación de tu pedido.";
  const text = [
    `${firstName}, tu pedido ${order.id} en ${shop.name} espera tu pago ${how}.`,
    "",
    held,
    "",
    "Cómo pagar:",
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    ...(voucher.url ? ["", `Tu ficha para imprimir o mostrar en el celular: ${voucher.url}`] : []),
    "",
    ...pieces.text,
    "",
    after,
    "",
    ...orderPageText(pageUrl),
    contactLine(shop),
  ].join("\n");
  const html = emailHtml(
    shop,
    `${escapeMarkup(firstName)}, tu pedido espera tu pago ${how}`,
    `<p><strong>${escapeMarkup(held)}</strong></p>
<h2 style="font-size:16px;margin-top:24px">Cómo pagar</h2>
<ol>${steps.map((s) => `<li>${escapeMarkup(s)}</li>`).join("")}</ol>
<p style="font-size:20px;letter-spacing:1px"><strong>${escapeMarkup(voucher.reference)}</strong></p>
${voucher.url ? `<p><a href="${escapeMarkup(voucher.url)}">Ver tu ficha para imprimir o mostrar en el celular</a></p>` : ""}
${pieces.html}
<p style="margin-top:24px">${escapeMarkup(after)}</p>${orderPageHtml(pageUrl)}`,
  );
  const subject =
    voucher.method === "oxxo"
      ? `Tu ficha para pagar el pedido ${order.id} en OXXO`
      : `Los datos para pagar tu pedido ${order.id} por transferencia`;
  return { subject, text, html };
}

/** A voucher that expired or failed unpaid: the pieces went back; how to ask for them again. */
export function voucherEndedEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
): Omit<MailMessage, "to"> | null {
  if (!order.voucher || order.status !== "expirado") return null;
  const firstName = firstNameOf(order);
  const what = `No recibimos el pago de tu pedido ${order.id} antes de que venciera tu ficha (${voucherDeadlineText(order.voucher.expiresAt)}), así que las piezas volvieron a la tienda.`;
  const again =
    "Si todavía las quieres y siguen disponibles, puedes pedirlas de nuevo. Si ya pagaste, respóndenos con tu comprobante y lo revisamos de inmediato.";
  const pieces = piecesOf(order);
  const text = [
    `${firstName}, tu ficha del pedido ${order.id} en ${shop.name} venció.`,
    "",
    what,
    "",
    ...pieces.text,
    "",
    again,
    "",
    ...orderPageText(pageUrl),
    contactLine(shop),
  ].join("\n");
  const html = emailHtml(
    shop,
    `${escapeMarkup(firstName)}, tu ficha de pago venció`,
    `<p>${escapeMarkup(what)}</p>
${pieces.html}
<p style="margin-top:24px">${escapeMarkup(again)}</p>${orderPageHtml(pageUrl)}`,
  );
  return { subject: `Tu ficha del pedido ${order.id} venció`, text, html };
}
