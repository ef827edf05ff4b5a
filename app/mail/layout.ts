import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";

/**
 * The frame of an e-mail written as a string of HTML: the shop's colours, the body, the shop's contact.
 * @deprecated e-mails are built from the shared components (`ShopEmail` and the blocks in
 * app/mail/components, decision 47). Kept only for e-mails not converted yet; remove with the last.
 */
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
