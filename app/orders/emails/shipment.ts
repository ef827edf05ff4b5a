import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";
import { contactLine, emailHtml } from "~/mail/layout";
import type { MailMessage } from "~/mail/mailer.server";
import type { Order } from "../order";
import { addressLines } from "../shipping";
import { firstNameOf, orderPageHtml, orderPageText, piecesOf } from "./order-parts";

/** The shipment notice: pieces, carrier, tracking number and, for known carriers, where to follow it. */
export function shipmentEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
): Omit<MailMessage, "to"> {
  const firstName = firstNameOf(order);
  const pieces = piecesOf(order);
  const carrier = order.carrier ?? "";
  const tracking = order.trackingNumber ?? "";
  const text = [
    `${firstName}, tu pedido ${order.id} de ${shop.name} va en camino.`,
    "",
    `Paquetería: ${carrier}`,
    `Número de guía: ${tracking}`,
    ...(order.trackingUrl ? [`Sigue tu envío: ${order.trackingUrl}`] : []),
    "",
    "Lo que va en tu paquete:",
    ...pieces.text,
    "",
    ...(order.shipping ? ["Dirección de entrega:", ...addressLines(order.shipping), ""] : []),
    ...orderPageText(pageUrl),
    contactLine(shop),
  ].join("\n");
  const link = order.trackingUrl
    ? `<p><a href="${escapeMarkup(order.trackingUrl)}" style="display:inline-block;background:#2b2520;color:#faf6ef;padding:10px 18px;border-radius:999px;text-decoration:none">Sigue tu envío</a></p>`
    : "";
  const html = emailHtml(
    shop,
    `¡Tu pedido va en camino, ${escapeMarkup(firstName)}!`,
    `<p>Tu pedido <strong>${escapeMarkup(order.id)}</strong> salió del taller.</p>
<p>Paquetería: <strong>${escapeMarkup(carrier)}</strong><br>Número de guía: <strong>${escapeMarkup(tracking)}</strong></p>
${link}
<h2 style="font-size:16px;margin-top:24px">Lo que va en tu paquete</h2>
${pieces.html}
${
  order.shipping
    ? `<h2 style="font-size:16px;margin-top:24px">Dirección de entrega</h2><p>${addressLines(order.shipping).map(escapeMarkup).join("<br>")}</p>`
    : ""
}${orderPageHtml(pageUrl)}`,
  );
  return { subject: `Tu pedido ${order.id} va en camino`, text, html };
}
