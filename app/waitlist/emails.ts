import type { PublicShopSettings } from "~/config/env.server";
import { formatShopDateTime } from "~/lib/dates";
import { escapeMarkup } from "~/lib/escape";
import { contactLine, emailHtml } from "~/mail/layout";
import type { MailMessage } from "~/mail/mailer.server";

/** What every 'Avísame' e-mail needs: the drop, and where its links go. */
export interface WaitlistEmailData {
  dropName: string;
  startAt: Date;
  endAt: Date;
  /** The drop's page, absolute. */
  dropUrl: string;
  confirmUrl: string;
  /** How many days the confirmation link confirms. */
  confirmWithinDays: number;
  unsubscribeUrl: string;
  /** The drop's cover and first pieces, for the opening notice (absent: text only). */
  showcase?: DropShowcase;
}

/** What the opening notice shows of a drop: its cover and its first pieces (absolute addresses). */
export interface DropShowcase {
  cover: { url: string; alt: string } | null;
  pieces: { name: string; price: string; url: string; image: { url: string; alt: string } | null }[];
}

type Rendered = Omit<MailMessage, "to">;

/** The list headers mail clients turn into their own 'Cancelar suscripción' button (RFC 2369, RFC 8058). */
function listHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

function unsubscribeText(url: string): string {
  return `¿Ya no quieres estos avisos? Date de baja aquí: ${url}`;
}

function unsubscribeHtml(url: string): string {
  return `<p style="font-size:12px;color:#6b625a">¿Ya no quieres estos avisos? <a href="${escapeMarkup(url)}">Date de baja</a>.</p>`;
}

function button(url: string, label: string): string {
  return `<p><a href="${escapeMarkup(url)}" style="display:inline-block;background:#2b2520;color:#faf6ef;padding:10px 18px;border-radius:999px;text-decoration:none">${label}</a></p>`;
}

/** Double opt-in: the link that puts the address on the list. */
export function confirmationNotice(data: WaitlistEmailData, shop: PublicShopSettings): Rendered {
  const opens = `${formatShopDateTime(data.startAt)}, hora de la Ciudad de México`;
  const text = [
    `Pediste que te avisemos cuando abra «${data.dropName}» en ${shop.name} (abre el ${opens}).`,
    "",
    `Confirma tu correo con este enlace para recibir el aviso (vale ${data.confirmWithinDays} días):`,
    data.confirmUrl,
    "",
    "Si no fuiste tú, ignora este correo: sin confirmar no te escribiremos.",
    "",
    contactLine(shop),
    unsubscribeText(data.unsubscribeUrl),
  ].join("\n");
  const html = emailHtml(
    shop,
    "Confirma tu correo",
    `<p>Pediste que te avisemos cuando abra <strong>${escapeMarkup(data.dropName)}</strong> (abre el ${escapeMarkup(opens)}).</p>
${button(data.confirmUrl, "Confirmar mi correo")}
<p style="font-size:12px;color:#6b625a">El enlace vale ${data.confirmWithinDays} días.</p>
<p>Si no fuiste tú, ignora este correo: sin confirmar no te escribiremos.</p>
${unsubscribeHtml(data.unsubscribeUrl)}`,
  );
  return {
    subject: `Confirma tu aviso para ${data.dropName}`,
    text,
    html,
    headers: listHeaders(data.unsubscribeUrl),
  };
}

/** The drop's cover and pieces in the opening notice: two pieces a row, each linked to its page. */
function showcaseHtml(showcase: DropShowcase | undefined, dropName: string): string {
  if (!showcase) return "";
  const cover = showcase.cover
    ? `<p><img src="${escapeMarkup(showcase.cover.url)}" alt="${escapeMarkup(showcase.cover.alt || dropName)}" width="472" style="width:100%;max-width:472px;height:auto;border-radius:6px"></p>`
    : "";
  const cells = showcase.pieces.map((p) => {
    const img = p.image
      ? `<img src="${escapeMarkup(p.image.url)}" alt="${escapeMarkup(p.image.alt || p.name)}" width="224" style="width:100%;max-width:224px;height:auto;border-radius:6px">`
      : "";
    return `<td style="width:50%;padding:6px;vertical-align:top"><a href="${escapeMarkup(p.url)}" style="color:#2b2520;text-decoration:none">${img}<br>${escapeMarkup(p.name)}<br><strong>${escapeMarkup(p.price)}</strong></a></td>`;
  });
  const rows: string[] = [];
  for (let i = 0; i < cells.length; i += 2) rows.push(`<tr>${cells[i]}${cells[i + 1] ?? "<td></td>"}</tr>`);
  const table = rows.length
    ? `<table role="presentation" style="width:100%;border-collapse:collapse;font-size:14px">${rows.join("")}</table>`
    : "";
  return cover + table;
}

/** The drop opened: the one e-mail a confirmed address gets, with its cover and first pieces. */
export function openingNotice(data: WaitlistEmailData, shop: PublicShopSettings): Rendered {
  const ends = `el ${formatShopDateTime(data.endAt)} (hora de la Ciudad de México)`;
  const pieces = data.showcase?.pieces ?? [];
  const text = [
    `¡«${data.dropName}» ya está abierta en ${shop.name}!`,
    "",
    `Las piezas son pocas y hechas a mano; la colección cierra ${ends}.`,
    ...(pieces.length ? ["", ...pieces.map((p) => `- ${p.name}: ${p.price} ${p.url}`)] : []),
    "",
    `Velas aquí: ${data.dropUrl}`,
    "",
    contactLine(shop),
    unsubscribeText(data.unsubscribeUrl),
  ].join("\n");
  const html = emailHtml(
    shop,
    `¡${escapeMarkup(data.dropName)} ya está abierta!`,
    `${showcaseHtml(data.showcase, data.dropName)}
<p>Las piezas son pocas y hechas a mano; la colección cierra ${escapeMarkup(ends)}.</p>
${button(data.dropUrl, "Ver la colección")}
${unsubscribeHtml(data.unsubscribeUrl)}`,
  );
  return {
    subject: `¡${data.dropName} ya está abierta!`,
    text,
    html,
    headers: listHeaders(data.unsubscribeUrl),
  };
}
