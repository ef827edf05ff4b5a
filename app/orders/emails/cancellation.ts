import type { PublicShopSettings } from "~/config/env.server";
import { escapeMarkup } from "~/lib/escape";
import { formatMXN } from "~/lib/money";
import { contactLine, emailHtml } from "~/mail/layout";
import type { MailMessage } from "~/mail/mailer.server";
import type { Order } from "../order";
import { firstNameOf, piecesOf } from "./order-parts";

/**
 * An order cancelled over a drop's per-person limit, sent once the refund was made (decision 29):
 * why, what was refunded, and that the pieces went to the next person waiting.
 */
export function cancellationEmail(order: Order, shop: PublicShopSettings): Omit<MailMessage, "to"> | null {
  const cancellation = order.cancellation;
  if (!cancellation) return null;
  const firstName = firstNameOf(order);
  const pieces = piecesOf(order);
  const amount = `${formatMXN(cancellation.amountCents)} MXN`;
  const why = `Cancelamos tu pedido ${order.id} porque pasa del máximo de piezas por persona de la colección: ${cancellation.reason}`;
  const refund = `Ya hicimos el reembolso de ${amount} al mismo medio con que pagaste. Según tu banco, puede tardar de 5 a 10 días hábiles en verse en tu estado de cuenta.`;
  const fair =
    "Lo hacemos para que las pocas piezas de cada colección lleguen a más personas: las piezas de este pedido pasaron a quien seguía en la fila. Tus otros pedidos siguen en pie.";
  const text = [
    `${firstName}, cancelamos tu pedido ${order.id} en ${shop.name} y te devolvimos tu dinero.`,
    "",
    why,
    "",
    refund,
    "",
    "Lo que tenía el pedido:",
    ...pieces.text,
    "",
    fair,
    "",
    "Si crees que es un error (por ejemplo, dos personas distintas que comparten una dirección), respóndenos y lo revisamos.",
    "",
    contactLine(shop),
  ].join("\n");
  const html = emailHtml(
    shop,
    `${escapeMarkup(firstName)}, cancelamos tu pedido y te devolvimos tu dinero`,
    `<p>${escapeMarkup(why)}</p>
<p><strong>${escapeMarkup(refund)}</strong></p>
${pieces.html}
<p style="margin-top:24px">${escapeMarkup(fair)}</p>
<p>Si crees que es un error (por ejemplo, dos personas distintas que comparten una dirección), respóndenos y lo revisamos.</p>`,
  );
  return { subject: `Cancelamos tu pedido ${order.id} y te devolvimos tu dinero`, text, html };
}
