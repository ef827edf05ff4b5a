import type { PublicShopSettings } from "~/config/env.server";
import { formatShopDateTime } from "~/lib/dates";
import {
  ButtonLink,
  Cover,
  contactLine,
  type EmailPhoto,
  type EmailProduct,
  Paragraph,
  ProductGrid,
  productListText,
  type RenderedEmail,
  renderEmail,
  ShopEmail,
  TextLink,
} from "~/mail/components";

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
  cover: EmailPhoto | null;
  pieces: EmailProduct[];
}

/** The list headers mail clients turn into their own 'Cancelar suscripción' button (RFC 2369, RFC 8058). */
export function listHeaders(unsubscribeUrl: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

export function unsubscribeText(url: string): string {
  return `¿Ya no quieres estos avisos? Date de baja aquí: ${url}`;
}

/** The frame's foot on every 'Avísame' e-mail: the way off the list. */
export function Unsubscribe({ url }: { url: string }) {
  return (
    <Paragraph tone="muted">
      {"¿Ya no quieres estos avisos? "}
      <TextLink href={url}>Date de baja</TextLink>.
    </Paragraph>
  );
}

/** Double opt-in: the link that puts the address on the list. */
export async function confirmationNotice(
  data: WaitlistEmailData,
  shop: PublicShopSettings,
): Promise<RenderedEmail> {
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
  return renderEmail({
    subject: `Confirma tu aviso para ${data.dropName}`,
    text,
    headers: listHeaders(data.unsubscribeUrl),
    html: (
      <ShopEmail
        shop={shop}
        title="Confirma tu correo"
        preview={`Confirma tu correo para saber cuándo abre ${data.dropName}.`}
        footer={<Unsubscribe url={data.unsubscribeUrl} />}
      >
        <Paragraph>
          {"Pediste que te avisemos cuando abra "}
          <strong>{data.dropName}</strong>
          {` (abre el ${opens}).`}
        </Paragraph>
        <ButtonLink href={data.confirmUrl}>Confirmar mi correo</ButtonLink>
        <Paragraph tone="muted">{`El enlace vale ${data.confirmWithinDays} días.`}</Paragraph>
        <Paragraph>Si no fuiste tú, ignora este correo: sin confirmar no te escribiremos.</Paragraph>
      </ShopEmail>
    ),
  });
}

/** The drop opened: the one e-mail a confirmed address gets, with its cover and first pieces. */
export async function openingNotice(
  data: WaitlistEmailData,
  shop: PublicShopSettings,
): Promise<RenderedEmail> {
  const ends = `el ${formatShopDateTime(data.endAt)} (hora de la Ciudad de México)`;
  const pieces = data.showcase?.pieces ?? [];
  const cover = data.showcase?.cover ?? null;
  const text = [
    `¡Ya abrió «${data.dropName}» en ${shop.name}!`,
    "",
    `Las piezas son pocas y hechas a mano; la colección cierra ${ends}.`,
    ...(pieces.length ? ["", ...productListText(pieces)] : []),
    "",
    `Mira la colección aquí: ${data.dropUrl}`,
    "",
    contactLine(shop),
    unsubscribeText(data.unsubscribeUrl),
  ].join("\n");
  return renderEmail({
    subject: `¡Ya abrió ${data.dropName}!`,
    text,
    headers: listHeaders(data.unsubscribeUrl),
    html: (
      <ShopEmail
        shop={shop}
        title={`¡Ya abrió ${data.dropName}!`}
        footer={<Unsubscribe url={data.unsubscribeUrl} />}
      >
        {cover && <Cover photo={cover} alt={data.dropName} />}
        <ProductGrid products={pieces} />
        <Paragraph>{`Las piezas son pocas y hechas a mano; la colección cierra ${ends}.`}</Paragraph>
        <ButtonLink href={data.dropUrl}>Ver la colección</ButtonLink>
      </ShopEmail>
    ),
  });
}
