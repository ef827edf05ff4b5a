import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";
import { contactLine, emailHtml } from "~/mail/layout";
import type { MailMessage } from "~/mail/mailer.server";
import type { Order } from "../order";
import { addressLines } from "../shipping";
import { firstNameOf, orderPageHtml, orderPageText, piecesOf } from "./order-parts";

/** The order confirmation, in Spanish, as plain text and HTML. */
export function confirmationEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
): Omit<MailMessage, "to"> {
  const firstName = firstNameOf(order);
  const pieces = piecesOf(order);
  const next =
    "Preparamos tus piezas a mano en el taller. Cuando salgan, te escribiremos con la paquetería y el número de guía para que sigas tu envío.";
  const text = [
    `${firstName}, gracias por tu compra en ${shop.name}.`,
    "",
    `Pedido: ${order.id}`,
    ...pieces.text,
    "",
    ...(order.shipping ? ["Lo enviaremos a:", ...addressLines(order.shipping), ""] : []),
    `¿Qué sigue? ${next}`,
    "",
    ...orderPageText(pageUrl),
    contactLine(shop),
  ].join("\n");
  const html = emailHtml(
    shop,
    `¡Gracias por tu compra, ${escapeMarkup(firstName)}!`,
    `<p>Tu pedido <strong>${escapeMarkup(order.id)}</strong> está confirmado.</p>
${pieces.html}
${
  order.shipping
    ? `<h2 style="font-size:16px;margin-top:24px">Lo enviaremos a</h2><p>${addressLines(order.shipping).map(escapeMarkup).join("<br>")}</p>`
    : ""
}
<h2 style="font-size:16px;margin-top:24px">¿Qué sigue?</h2>
<p>${next}</p>${orderPageHtml(pageUrl)}`,
  );
  return { subject: `Tu pedido ${order.id} está confirmado`, text, html };
}
