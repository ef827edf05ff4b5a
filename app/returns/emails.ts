import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";
import { contactLine, emailHtml } from "~/mail/layout";
import type { MailMessage } from "~/mail/mailer.server";
import type { ReturnView } from "./queries.server";

/*
 * The buyer's e-mails about a return (decision 48): her request arrived, the owner accepted it
 * (where to send the pieces) or declined it (why), and its refund was made. Each links 'Mi pedido'.
 */

type ReturnEmail = (
  view: ReturnView,
  shop: PublicShopSettings,
  pageUrl: string | null,
) => Omit<MailMessage, "to">;

function piecesText(view: ReturnView): string[] {
  return view.lines.map((l) => `- ${l.name} × ${l.quantity}: ${l.amount}`);
}

function piecesHtml(view: ReturnView): string {
  return `<ul>${view.lines
    .map((l) => `<li>${escapeMarkup(l.name)} × ${l.quantity}: ${l.amount}</li>`)
    .join("")}</ul>`;
}

function build(
  view: ReturnView,
  shop: PublicShopSettings,
  pageUrl: string | null,
  parts: { subject: string; title: string; lines: string[]; message?: string },
): Omit<MailMessage, "to"> {
  const firstName = view.customerName.split(" ")[0] || "Hola";
  const message = parts.message?.trim() ?? "";
  const text = [
    `${firstName}:`,
    "",
    ...parts.lines,
    "",
    ...(message ? [`Mensaje de ${shop.name}:`, message, ""] : []),
    `Devolución ${view.id} del pedido ${view.orderId}:`,
    ...piecesText(view),
    // A declined return refunds nothing: no amount that would read as money coming.
    ...(view.status === "rechazada" ? [] : [`Reembolso: ${view.refund} MXN`]),
    "",
    ...(pageUrl ? [`Ve tu pedido y tu devolución (Mi pedido): ${pageUrl}`, ""] : []),
    contactLine(shop),
  ].join("\n");
  const html = emailHtml(
    shop,
    escapeMarkup(parts.title),
    `${parts.lines
      .filter(Boolean)
      .map((l) => `<p>${escapeMarkup(l)}</p>`)
      .join("")}${
      message
        ? `<blockquote style="margin:16px 0;padding:8px 16px;border-left:3px solid #b08d57">${escapeMarkup(message).replace(/\n/g, "<br>")}</blockquote>`
        : ""
    }<h2 style="font-size:16px;margin-top:24px">Devolución ${escapeMarkup(view.id)} del pedido ${escapeMarkup(view.orderId)}</h2>${piecesHtml(view)}${view.status === "rechazada" ? "" : `<p>Reembolso: <strong>${view.refund} MXN</strong></p>`}${
      pageUrl
        ? `<p style="margin-top:24px"><a href="${escapeMarkup(pageUrl)}" style="display:inline-block;border:1px solid #2b2520;color:#2b2520;padding:10px 18px;border-radius:999px;text-decoration:none">Ver mi pedido</a></p>`
        : ""
    }`,
  );
  return { subject: parts.subject, text, html };
}

export const returnRequestedEmail: ReturnEmail = (view, shop, pageUrl) =>
  build(view, shop, pageUrl, {
    subject: `Recibimos tu solicitud de devolución (${view.orderId})`,
    title: "Recibimos tu solicitud de devolución",
    lines: [
      `Recibimos tu solicitud para devolver piezas de tu pedido ${view.orderId}. La revisamos y te escribimos en cuanto la respondamos, normalmente en uno o dos días hábiles.`,
      "No envíes las piezas todavía: cuando la aceptemos te decimos a dónde mandarlas.",
    ],
  });

export const returnAcceptedEmail: ReturnEmail = (view, shop, pageUrl) =>
  build(view, shop, pageUrl, {
    subject: `Aceptamos tu devolución (${view.orderId})`,
    title: "Aceptamos tu devolución",
    lines: [
      "Aceptamos tu devolución. Envíanos las piezas como te indicamos abajo, en su empaque y con tu número de pedido; el envío de regreso corre por tu cuenta.",
      `En cuanto lleguen al taller te reembolsamos ${view.refund} MXN al mismo medio con que pagaste.`,
    ],
    message: view.ownerMessage,
  });

export const returnDeclinedEmail: ReturnEmail = (view, shop, pageUrl) =>
  build(view, shop, pageUrl, {
    subject: `Sobre tu solicitud de devolución (${view.orderId})`,
    title: "No pudimos aceptar tu devolución",
    lines: ["Revisamos tu solicitud de devolución y no pudimos aceptarla. Te explicamos por qué:"],
    message: view.ownerMessage,
  });

export const returnRefundedEmail: ReturnEmail = (view, shop, pageUrl) =>
  build(view, shop, pageUrl, {
    subject: `Te reembolsamos ${view.refund} MXN (${view.orderId})`,
    title: "Tu reembolso está hecho",
    lines: [
      `Recibimos las piezas de tu devolución y te reembolsamos ${view.refund} MXN al mismo medio con que pagaste. Según tu banco, puede tardar unos días en verse en tu estado de cuenta.`,
    ],
  });
