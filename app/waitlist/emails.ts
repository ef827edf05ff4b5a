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

/** The drop opened: the one e-mail a confirmed address gets. */
export function openingNotice(data: WaitlistEmailData, shop: PublicShopSettings): Rendered {
  const ends = `el ${formatShopDateTime(data.endAt)} (hora de la Ciudad de México)`;
  const text = [
    `¡«${data.dropName}» ya está abierta en ${shop.name}!`,
    "",
    `Las piezas son pocas y hechas a mano; la colección cierra ${ends}.`,
    `Velas aquí: ${data.dropUrl}`,
    "",
    contactLine(shop),
    unsubscribeText(data.unsubscribeUrl),
  ].join("\n");
  const html = emailHtml(
    shop,
    `¡${escapeMarkup(data.dropName)} ya está abierta!`,
    `<p>Las piezas son pocas y hechas a mano; la colección cierra ${escapeMarkup(ends)}.</p>
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
