import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";
import { contactLine, emailHtml } from "~/mail/layout";
import type { MailMessage } from "~/mail/mailer.server";

/*
 * The e-mails of 'Avísame si vuelve' (decision 46): the double opt-in's link, and the one notice
 * that the piece (or its size) is back, linking its page. Plain text and HTML alike.
 */

/** What both e-mails need: the piece, and where their links go (absolute). */
export interface RestockEmailData {
  productName: string;
  /** "talla 7"; null for a piece without sizes. */
  size: string | null;
  /** "$1,200.00 MXN". */
  price: string;
  /** The piece's page. */
  productUrl: string;
  /** Its photo, absolute; null: text only. */
  image: { url: string; alt: string } | null;
  confirmUrl: string;
  /** How many days the confirmation link confirms. */
  confirmWithinDays: number;
  unsubscribeUrl: string;
}

type Rendered = Omit<MailMessage, "to">;

const pieceText = (d: RestockEmailData) => (d.size ? `${d.productName} en ${d.size}` : d.productName);

/** The list headers mail clients turn into their own 'Cancelar suscripción' button (RFC 2369, RFC 8058). */
function listHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

function linkButton(url: string, label: string): string {
  return `<p><a href="${escapeMarkup(url)}" style="display:inline-block;background:#2b2520;color:#faf6ef;padding:10px 18px;border-radius:999px;text-decoration:none">${label}</a></p>`;
}

function leaveText(url: string): string {
  return `¿Ya no quieres estos avisos? Date de baja aquí: ${url}`;
}

function leaveHtml(url: string): string {
  return `<p style="font-size:12px;color:#6b625a">¿Ya no quieres estos avisos? <a href="${escapeMarkup(url)}">Date de baja</a>.</p>`;
}

/** Double opt-in: the link that puts the address in the piece's line. */
export function restockConfirmation(data: RestockEmailData, shop: PublicShopSettings): Rendered {
  const piece = pieceText(data);
  const text = [
    `Pediste que te avisemos si «${piece}» vuelve a estar disponible en ${shop.name}.`,
    "",
    `Confirma tu correo con este enlace para recibir el aviso (vale ${data.confirmWithinDays} días):`,
    data.confirmUrl,
    "",
    "Si no fuiste tú, ignora este correo: sin confirmar no te escribiremos.",
    "",
    contactLine(shop),
    leaveText(data.unsubscribeUrl),
  ].join("\n");
  const html = emailHtml(
    shop,
    "Confirma tu correo",
    `<p>Pediste que te avisemos si <strong>${escapeMarkup(piece)}</strong> vuelve a estar disponible.</p>
${linkButton(data.confirmUrl, "Confirmar mi correo")}
<p style="font-size:12px;color:#6b625a">El enlace vale ${data.confirmWithinDays} días.</p>
<p>Si no fuiste tú, ignora este correo: sin confirmar no te escribiremos.</p>
${leaveHtml(data.unsubscribeUrl)}`,
  );
  return {
    subject: `Confirma tu aviso para ${piece}`,
    text,
    html,
    headers: listHeaders(data.unsubscribeUrl),
  };
}

/** The piece is back: the one notice a confirmed request gets, with its photo, price and page. */
export function restockNotice(data: RestockEmailData, shop: PublicShopSettings): Rendered {
  const piece = pieceText(data);
  const text = [
    `¡«${piece}» volvió a estar disponible en ${shop.name}!`,
    "",
    `Precio: ${data.price}. Son piezas contadas: te avisamos a ti primero, pero no podemos apartarla; quien pague primero se la lleva.`,
    "",
    `Mírala aquí: ${data.productUrl}`,
    "",
    contactLine(shop),
    leaveText(data.unsubscribeUrl),
  ].join("\n");
  const image = data.image
    ? `<p><a href="${escapeMarkup(data.productUrl)}"><img src="${escapeMarkup(data.image.url)}" alt="${escapeMarkup(data.image.alt || data.productName)}" width="472" style="width:100%;max-width:472px;height:auto;border-radius:6px"></a></p>`
    : "";
  const html = emailHtml(
    shop,
    `¡${escapeMarkup(piece)} volvió!`,
    `${image}
<p><strong>${escapeMarkup(data.productName)}</strong>${data.size ? ` · ${escapeMarkup(data.size)}` : ""}<br>${escapeMarkup(data.price)}</p>
<p>Son piezas contadas: te avisamos a ti primero, pero no podemos apartarla; quien pague primero se la lleva.</p>
${linkButton(data.productUrl, "Ver la pieza")}
${leaveHtml(data.unsubscribeUrl)}`,
  );
  return {
    subject: `¡${piece} volvió a estar disponible!`,
    text,
    html,
    headers: listHeaders(data.unsubscribeUrl),
  };
}
