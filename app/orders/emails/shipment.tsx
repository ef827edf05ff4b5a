import type { PublicShopSettings } from "~/config/env.server";
import {
  AddressBlock,
  addressText,
  ButtonLink,
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
import { missingPiecesNotice, type Order } from "../order";
import { addressLines } from "../shipping";
import { asPacked, firstNameOf, type LinePhotos, nameAtEnd, orderSummaryOf } from "./order-parts";

/**
 * The shipment notice: pieces, carrier, tracking number and, for known carriers, where to follow it.
 * `corrected`: it follows a notice sent with the wrong tracking (the owner corrected it and asked
 * for the notice again), so it says so first, or she would read the same notice twice.
 */
export async function shipmentEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
  photos: LinePhotos = [],
  { corrected = false }: { corrected?: boolean } = {},
): Promise<RenderedEmail> {
  const firstName = firstNameOf(order);
  // What goes in the box: not a late payment's pieces that were gone (refunded apart).
  const packed = asPacked(order, photos);
  // The total is what she paid, the missing pieces' price included: said so, and why, beside it.
  const missing = missingPiecesNotice(order);
  const summary = {
    ...orderSummaryOf(packed.order, packed.photos),
    ...(missing ? { totalLabel: "Pagado" } : {}),
  };
  const address = order.shipping ? addressLines(order.shipping) : [];
  const carrier = order.carrier ?? "";
  const tracking = order.trackingNumber ?? "";
  // The carrier, the number or both: 'la guía' is the two together.
  const fix = "La guía que te enviamos antes tenía un error: esta es la correcta.";
  const text = [
    corrected
      ? `${firstName}, corregimos la guía de envío de tu pedido ${order.id} de ${shop.name}.`
      : `${firstName}, tu pedido ${order.id} de ${shop.name} va en camino.`,
    "",
    ...(corrected ? [fix, ""] : []),
    `Paquetería: ${carrier}`,
    `Número de guía: ${tracking}`,
    ...(order.trackingUrl ? [`Sigue tu envío: ${order.trackingUrl}`] : []),
    "",
    "Lo que va en tu paquete:",
    ...orderSummaryText(summary),
    "",
    ...(missing ? [missing, ""] : []),
    ...addressText("Dirección de entrega", address),
    ...orderPageLinkText(pageUrl),
    contactLine(shop),
  ].join("\n");
  return renderEmail({
    subject: corrected
      ? `Corregimos la guía de envío de tu pedido ${order.id}`
      : `Tu pedido ${order.id} va en camino`,
    text,
    html: (
      <ShopEmail
        shop={shop}
        title={corrected ? "Corregimos tu guía de envío" : `¡Tu pedido va en camino${nameAtEnd(order)}!`}
      >
        {corrected ? (
          <Paragraph>
            Tu pedido <strong>{order.id}</strong> ya va en camino. {fix}
          </Paragraph>
        ) : (
          <Paragraph>
            Tu pedido <strong>{order.id}</strong> salió del taller.
          </Paragraph>
        )}
        <Paragraph>
          Paquetería: <strong>{carrier}</strong>
          <br />
          Número de guía: <strong>{tracking}</strong>
        </Paragraph>
        {order.trackingUrl && <ButtonLink href={order.trackingUrl}>Sigue tu envío</ButtonLink>}
        <SectionHeading>Lo que va en tu paquete</SectionHeading>
        <OrderSummary summary={summary} />
        {missing && <Paragraph>{missing}</Paragraph>}
        <AddressBlock heading="Dirección de entrega" lines={address} />
        <OrderPageLink url={pageUrl} />
      </ShopEmail>
    ),
  });
}
