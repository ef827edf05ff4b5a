import type { PublicShopSettings } from "~/config/env.server";
import {
  ButtonLink,
  contactLine,
  Paragraph,
  ProductGrid,
  type RenderedEmail,
  renderEmail,
  ShopEmail,
} from "~/mail/components";
import { listHeaders, Unsubscribe, unsubscribeText } from "./emails";

/*
 * The e-mails of 'Avísame si vuelve' (decision 46): the double opt-in's link, and the one notice
 * that the piece (or its size) is back, with its photo, price and page. Built from the shared
 * components (decision 47); the way off the list and its headers are the drop's 'Avísame' ones.
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

const pieceText = (d: RestockEmailData) => (d.size ? `${d.productName} en ${d.size}` : d.productName);

/** Double opt-in: the link that puts the address in the piece's line. */
export async function restockConfirmation(
  data: RestockEmailData,
  shop: PublicShopSettings,
): Promise<RenderedEmail> {
  const piece = pieceText(data);
  const asked = `Pediste que te avisemos si «${piece}» vuelve a estar disponible en ${shop.name}.`;
  const ignore = "Si no fuiste tú, ignora este correo: sin confirmar no te escribiremos.";
  const text = [
    asked,
    "",
    `Confirma tu correo con este enlace para recibir el aviso (vale ${data.confirmWithinDays} días):`,
    data.confirmUrl,
    "",
    ignore,
    "",
    contactLine(shop),
    unsubscribeText(data.unsubscribeUrl),
  ].join("\n");
  return renderEmail({
    subject: `Confirma tu aviso para ${piece}`,
    text,
    headers: listHeaders(data.unsubscribeUrl),
    html: (
      <ShopEmail
        shop={shop}
        title="Confirma tu correo"
        preview={`Confirma tu correo para saber si ${piece} vuelve.`}
        footer={<Unsubscribe url={data.unsubscribeUrl} />}
      >
        <Paragraph>{asked}</Paragraph>
        <ButtonLink href={data.confirmUrl}>Confirmar mi correo</ButtonLink>
        <Paragraph tone="muted">{`El enlace vale ${data.confirmWithinDays} días.`}</Paragraph>
        <Paragraph>{ignore}</Paragraph>
      </ShopEmail>
    ),
  });
}

/** The piece is back: the one notice a confirmed request gets, with its photo, price and page. */
export async function restockNotice(
  data: RestockEmailData,
  shop: PublicShopSettings,
): Promise<RenderedEmail> {
  const piece = pieceText(data);
  const counted =
    "Son piezas contadas: te avisamos a ti primero, pero no podemos apartarla; quien pague primero se la lleva.";
  const text = [
    `¡«${piece}» volvió a estar disponible en ${shop.name}!`,
    "",
    `Precio: ${data.price}. ${counted}`,
    "",
    `Mírala aquí: ${data.productUrl}`,
    "",
    contactLine(shop),
    unsubscribeText(data.unsubscribeUrl),
  ].join("\n");
  return renderEmail({
    subject: `¡${piece} volvió a estar disponible!`,
    text,
    headers: listHeaders(data.unsubscribeUrl),
    html: (
      <ShopEmail
        shop={shop}
        title={`¡${piece} volvió!`}
        preview={`${piece} volvió a estar disponible.`}
        footer={<Unsubscribe url={data.unsubscribeUrl} />}
      >
        <ProductGrid
          products={[
            {
              name: piece,
              price: data.price,
              url: data.productUrl,
              image: data.image ? { url: data.image.url, alt: data.image.alt || data.productName } : null,
            },
          ]}
        />
        <Paragraph>{counted}</Paragraph>
        <ButtonLink href={data.productUrl}>Ver la pieza</ButtonLink>
      </ShopEmail>
    ),
  });
}
