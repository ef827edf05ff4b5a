import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";
import { formatMXN } from "~/lib/money";
import type { Order } from "../order";

/** The frame every order e-mail shares: the shop's colours, the body, the shop's contact. */
export function emailHtml(shop: PublicShopSettings, title: string, body: string): string {
  return `<!doctype html><html lang="es-MX"><body style="font-family:Georgia,serif;color:#2b2520;background:#faf6ef;padding:24px">
<div style="max-width:520px;margin:auto;background:#fff;padding:24px;border-radius:8px">
<h1 style="font-size:22px;color:#7d5a1e">${title}</h1>
${body}
<p style="font-size:14px;color:#6b625a">¿Dudas? Escríbenos a <a href="mailto:${escapeMarkup(shop.email)}">${escapeMarkup(shop.email)}</a> o por <a href="https://wa.me/${escapeMarkup(shop.whatsapp)}">WhatsApp</a>.</p>
<p style="font-size:12px;color:#6b625a">${escapeMarkup(shop.name)}</p>
</div></body></html>`;
}

/** The plain-text closing line with the shop's contact. */
export function contactLine(shop: PublicShopSettings): string {
  return `¿Dudas? Escríbenos a ${shop.email} o por WhatsApp: https://wa.me/${shop.whatsapp}`;
}

/** The order's pieces with their totals: text lines and an HTML table. */
export function piecesOf(order: Order): { text: string[]; html: string } {
  const lines = order.lines.map((l) => ({ ...l, total: formatMXN(l.unitPriceCents * l.quantity) }));
  const rows = lines
    .map(
      (l) =>
        `<tr><td style="padding:6px 0">${escapeMarkup(l.name)} × ${l.quantity}</td><td style="padding:6px 0;text-align:right">${l.total}</td></tr>`,
    )
    .join("");
  return {
    text: [...lines.map((l) => `- ${l.name} × ${l.quantity}: ${l.total}`), `Total: ${order.total} MXN`],
    html: `<table style="width:100%;border-collapse:collapse">${rows}
<tr><td style="padding:8px 0;border-top:1px solid #ddd"><strong>Total</strong></td><td style="padding:8px 0;border-top:1px solid #ddd;text-align:right"><strong>${order.total} MXN</strong></td></tr></table>`,
  };
}

/** "Ana" from "Ana Pérez". */
export function firstNameOf(order: Order): string {
  return order.customerName.split(" ")[0] || "Hola";
}
