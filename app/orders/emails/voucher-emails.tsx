import type { PublicShopSettings } from "~/config/env.server";
import {
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
  StepList,
  TextLink,
} from "~/mail/components";
import type { Order } from "../order";
import { voucherDeadlineText } from "../vouchers";
import { firstNameOf, type LinePhotos, orderSummaryOf } from "./order-parts";
import { PER_PERSON_ASK, PER_PERSON_FAIR } from "./per-person-words";
import { howToPay } from "./voucher";

/** The provider's page for the voucher: a slip to print or show for OXXO, the transfer's details for SPEI. */
function voucherPage(method: "oxxo" | "spei"): string {
  return method === "oxxo"
    ? "tu ficha para imprimir o mostrar en el celular"
    : "tu CLABE y los datos de la transferencia";
}

/** The voucher the buyer pays with: the reference, how, until when, and that the pieces are held until then. */
export async function voucherEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
  photos: LinePhotos = [],
): Promise<RenderedEmail | null | false> {
  const voucher = order.voucher;
  if (!voucher) return null;
  // Paid (or cancelled) before it went: nothing to pay any more, so nothing to send (not a failure).
  if (order.status !== "esperando_pago") return false;
  const firstName = firstNameOf(order);
  const until = voucherDeadlineText(voucher.expiresAt);
  const how = voucher.method === "oxxo" ? "en efectivo en OXXO" : "por transferencia SPEI";
  const held = `Apartamos tus piezas hasta el ${until}. Si el pago no llega para entonces, vuelven a la tienda.`;
  const steps = howToPay(order);
  const summary = orderSummaryOf(order, photos);
  const after =
    "Cuando se acredite tu pago (normalmente al día hábil siguiente) te llegará la confirmación de tu pedido.";
  const text = [
    `${firstName}, tu pedido ${order.id} en ${shop.name} espera tu pago ${how}.`,
    "",
    held,
    "",
    "Cómo pagar:",
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    ...(voucher.url ? ["", `Ver ${voucherPage(voucher.method)}: ${voucher.url}`] : []),
    "",
    ...orderSummaryText(summary),
    "",
    after,
    "",
    ...orderPageLinkText(pageUrl),
    contactLine(shop),
  ].join("\n");
  const subject =
    voucher.method === "oxxo"
      ? `Tu ficha para pagar el pedido ${order.id} en OXXO`
      : `Los datos para pagar tu pedido ${order.id} por transferencia`;
  return renderEmail({
    subject,
    text,
    html: (
      <ShopEmail shop={shop} title={`${firstName}, tu pedido espera tu pago ${how}`}>
        <Paragraph>Pedido {order.id}</Paragraph>
        <Paragraph tone="strong">{held}</Paragraph>
        <SectionHeading>Cómo pagar</SectionHeading>
        <StepList steps={steps} />
        <Paragraph style={{ fontSize: "22px", lineHeight: "30px", letterSpacing: "1px" }}>
          <strong>{voucher.reference}</strong>
        </Paragraph>
        {voucher.url && (
          <Paragraph>
            <TextLink href={voucher.url}>{`Ver ${voucherPage(voucher.method)}`}</TextLink>
          </Paragraph>
        )}
        <OrderSummary summary={summary} />
        <Paragraph>{after}</Paragraph>
        <OrderPageLink url={pageUrl} />
      </ShopEmail>
    ),
  });
}

/** A voucher that expired or failed unpaid: the pieces went back; how to ask for them again. */
export async function voucherEndedEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
  photos: LinePhotos = [],
): Promise<RenderedEmail | null | false> {
  if (!order.voucher) return null;
  // Paid late meanwhile: the voucher did not lapse after all.
  if (order.status !== "expirado") return false;
  const firstName = firstNameOf(order);
  const what = `No recibimos el pago de tu pedido ${order.id} antes de que venciera tu ficha, el ${voucherDeadlineText(order.voucher.expiresAt)}, así que las piezas volvieron a la tienda.`;
  const again =
    "Si todavía las quieres y siguen disponibles, puedes pedirlas de nuevo. Si ya pagaste, respóndenos con tu comprobante y lo revisamos de inmediato.";
  const summary = orderSummaryOf(order, photos);
  const text = [
    `${firstName}, tu ficha del pedido ${order.id} en ${shop.name} venció.`,
    "",
    what,
    "",
    ...orderSummaryText(summary),
    "",
    again,
    "",
    ...orderPageLinkText(pageUrl),
    contactLine(shop),
  ].join("\n");
  return renderEmail({
    subject: `Tu ficha del pedido ${order.id} venció`,
    text,
    html: (
      <ShopEmail shop={shop} title={`${firstName}, tu ficha de pago venció`}>
        <Paragraph>{what}</Paragraph>
        <OrderSummary summary={summary} />
        <Paragraph>{again}</Paragraph>
        <OrderPageLink url={pageUrl} />
      </ShopEmail>
    ),
  });
}

/**
 * A voucher over a drop's per-person limit, cancelled at the provider before it was paid (decisions
 * 29, 42): why, that it can no longer be paid, and that nothing was charged (so nothing comes back).
 */
export async function voucherCancelledEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
  photos: LinePhotos = [],
): Promise<RenderedEmail | null | false> {
  const cancelled = order.voucherCancelled;
  if (!cancelled || !order.voucher) return null;
  if (order.status !== "cancelado") return false;
  const firstName = firstNameOf(order);
  const why = `Cancelamos tu ficha de pago del pedido ${order.id} porque pasa del máximo de piezas por persona de la colección: ${cancelled.reason}`;
  // A transfer to the CLABE made after the cancellation still reaches the provider (it is not
  // refused at the bank): said plainly, with what happens then.
  const unpaid =
    order.voucher.method === "spei"
      ? "No hagas la transferencia: ya no se aplicará a tu pedido. No se te cobró nada. Si ya la hiciste, respóndenos con tu comprobante y te devolvemos el dinero."
      : "Esa ficha ya no se puede pagar: no la pagues. No se te cobró nada. Si ya la habías pagado, respóndenos con tu comprobante y lo revisamos de inmediato.";
  const summary = orderSummaryOf(order, photos);
  const text = [
    `${firstName}, cancelamos tu ficha de pago del pedido ${order.id} en ${shop.name}.`,
    "",
    why,
    "",
    unpaid,
    "",
    "Lo que tenía el pedido:",
    ...orderSummaryText(summary),
    "",
    PER_PERSON_FAIR,
    "",
    PER_PERSON_ASK,
    "",
    ...orderPageLinkText(pageUrl),
    contactLine(shop),
  ].join("\n");
  return renderEmail({
    subject: `Cancelamos tu ficha del pedido ${order.id}`,
    text,
    html: (
      <ShopEmail shop={shop} title={`${firstName}, cancelamos tu ficha de pago`}>
        <Paragraph>{why}</Paragraph>
        <Paragraph tone="strong">{unpaid}</Paragraph>
        <SectionHeading>Lo que tenía el pedido</SectionHeading>
        <OrderSummary summary={summary} />
        <Paragraph>{PER_PERSON_FAIR}</Paragraph>
        <Paragraph>{PER_PERSON_ASK}</Paragraph>
        <OrderPageLink url={pageUrl} />
      </ShopEmail>
    ),
  });
}
