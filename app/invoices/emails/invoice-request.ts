import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";
import { contactLine, emailHtml } from "~/mail/layout";
import type { MailMessage } from "~/mail/mailer.server";
import { catalogueLabel, regimenOf, usoOf } from "../sat-catalogues";

/** What the acknowledgement says of the request and its order. */
export interface InvoiceRequestMail {
  orderId: string;
  /** The order's total as the buyer saw it ("$2,320.00"). */
  total: string;
  rfc: string;
  name: string;
  postalCode: string;
  regimen: string;
  uso: string;
  /** Whether this is a correction of a request made before. */
  corrected: boolean;
  /** The last minute the data may still be corrected ("30 nov 2026, 23:59"), or null once closed. */
  until: string | null;
  /** The signed 'Requiero factura' page, when the shop knows its own address. */
  pageUrl: string | null;
}

const named = (entry: { code: string; description: string } | null, code: string) =>
  entry ? catalogueLabel(entry) : code;

/**
 * 'Requiero factura': the buyer's acknowledgement, with the data the factura will carry, what happens
 * next, and until when she may correct it.
 */
export function invoiceRequestEmail(
  mail: InvoiceRequestMail,
  shop: PublicShopSettings,
): Omit<MailMessage, "to"> {
  const facts: [string, string][] = [
    ["RFC", mail.rfc],
    ["Nombre o razón social", mail.name],
    ["Código postal fiscal", mail.postalCode],
    ["Régimen fiscal", named(regimenOf(mail.regimen), mail.regimen)],
    ["Uso del CFDI", named(usoOf(mail.uso), mail.uso)],
  ];
  const lead = mail.corrected
    ? `Actualizamos los datos de la factura de tu pedido ${mail.orderId} (${mail.total} MXN, IVA incluido).`
    : `Recibimos tu solicitud de factura del pedido ${mail.orderId} (${mail.total} MXN, IVA incluido).`;
  const next =
    "Timbramos tu CFDI 4.0 con estos datos y te lo enviamos en PDF y XML a este correo en los próximos días hábiles.";
  const fix = mail.until
    ? `Si algo no coincide con tu Constancia de Situación Fiscal, corrígelo hasta el ${mail.until}${mail.pageUrl ? `: ${mail.pageUrl}` : " desde Mi pedido."}`
    : null;
  const text = [
    lead,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    next,
    ...(fix ? ["", fix] : []),
    "",
    contactLine(shop),
  ].join("\n");
  const rows = facts
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#6b625a">${escapeMarkup(label)}</td><td style="padding:4px 0"><strong>${escapeMarkup(value)}</strong></td></tr>`,
    )
    .join("");
  const fixHtml = mail.until
    ? `<p>Si algo no coincide con tu Constancia de Situación Fiscal, corrígelo hasta el ${escapeMarkup(mail.until)}.</p>${
        mail.pageUrl
          ? `<p><a href="${escapeMarkup(mail.pageUrl)}" style="display:inline-block;border:1px solid #2b2520;color:#2b2520;padding:10px 18px;border-radius:999px;text-decoration:none">Ver o corregir mis datos</a></p>`
          : ""
      }`
    : "";
  const html = emailHtml(
    shop,
    mail.corrected ? "Actualizamos los datos de tu factura" : "Recibimos tu solicitud de factura",
    `<p>${escapeMarkup(lead)}</p>
<table style="border-collapse:collapse;font-size:15px">${rows}</table>
<p>${escapeMarkup(next)}</p>
${fixHtml}`,
  );
  return {
    subject: mail.corrected
      ? `Actualizamos los datos de tu factura del pedido ${mail.orderId}`
      : `Recibimos tu solicitud de factura del pedido ${mail.orderId}`,
    text,
    html,
  };
}
