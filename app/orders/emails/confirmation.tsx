import type { PublicShopSettings } from "~/config/env.server";
import {
  AddressBlock,
  addressText,
  contactLine,
  OrderPageLink,
  OrderSummary,
  orderPageLinkText,
  orderSummaryText,
  Paragraph,
  type RenderedEmail,
  renderEmail,
  SectionHeading,
  ShopEmail,
} from "~/mail/components";
import { missingPiecesNotice, nothingToSend, type Order, REFUND_FOR_NOTHING_SENT } from "../order";
import { addressLines } from "../shipping";
import { firstNameOf, type LinePhotos, nameAtEnd, orderSummaryOf } from "./order-parts";

/** The order confirmation, in Spanish, as plain text and HTML. */
export async function confirmationEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
  photos: LinePhotos = [],
): Promise<RenderedEmail> {
  const firstName = firstNameOf(order);
  const summary = orderSummaryOf(order, photos);
  // A late voucher may have found some pieces gone (decision 42): said first, with what comes back.
  const missing = missingPiecesNotice(order);
  const nothing = nothingToSend(order);
  // Nothing to send: no address to send it to.
  const address = order.shipping && !nothing ? addressLines(order.shipping) : [];
  const next = nothing
    ? REFUND_FOR_NOTHING_SENT
    : "Preparamos tus piezas a mano en el taller. Cuando salgan, te escribiremos con la paquetería y el número de guía para que sigas tu envío.";
  const text = [
    `${firstName}, gracias por tu compra en ${shop.name}.`,
    ...(missing ? ["", missing] : []),
    "",
    `Pedido: ${order.id}`,
    ...orderSummaryText(summary),
    "",
    ...addressText("Lo enviaremos a", address),
    `¿Qué sigue? ${next}`,
    "",
    ...orderPageLinkText(pageUrl),
    contactLine(shop),
  ].join("\n");
  return renderEmail({
    subject: nothing ? `Recibimos el pago de tu pedido ${order.id}` : `Tu pedido ${order.id} está confirmado`,
    text,
    html: (
      <ShopEmail shop={shop} title={`¡Gracias por tu compra${nameAtEnd(order)}!`}>
        <Paragraph>
          {nothing ? "Recibimos el pago de tu pedido " : "Tu pedido "}
          <strong>{order.id}</strong>
          {nothing ? "." : " está confirmado."}
        </Paragraph>
        {missing && <Paragraph>{missing}</Paragraph>}
        <OrderSummary summary={summary} />
        <AddressBlock heading="Lo enviaremos a" lines={address} />
        <SectionHeading>¿Qué sigue?</SectionHeading>
        <Paragraph>{next}</Paragraph>
        <OrderPageLink url={pageUrl} />
      </ShopEmail>
    ),
  });
}
