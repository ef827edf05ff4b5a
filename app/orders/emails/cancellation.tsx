import type { PublicShopSettings } from "~/config/env.server";
import { formatMXN } from "~/lib/money";
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
} from "~/mail/components";
import { type Order, REFUNDED_BY_HAND, refundWayOf } from "../order";
import { firstNameOf, type LinePhotos, orderSummaryOf } from "./order-parts";
import { PER_PERSON_ASK, PER_PERSON_FAIR } from "./per-person-words";

/**
 * A cancelled order, sent once the refund was made: over a drop's per-person limit (decision 29),
 * saying why and that the pieces went to the next person waiting; paid after its hold expired with
 * every piece sold meanwhile, with an apology; charged another amount than its total, with an
 * apology and what was given back; or by the shop ('Eliminar pedido' on a paid order, decision 37),
 * with an apology and a way to ask.
 */
export async function cancellationEmail(
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null = null,
  photos: LinePhotos = [],
): Promise<RenderedEmail | null> {
  const cancellation = order.cancellation;
  if (!cancellation) return null;
  const firstName = firstNameOf(order);
  const summary = orderSummaryOf(order, photos);
  const amount = `${formatMXN(cancellation.amountCents)} MXN`;
  const why = cancellation.byShop
    ? `Cancelamos tu pedido ${order.id}: no podremos enviártelo. Lamentamos mucho las molestias.`
    : cancellation.soldOut
      ? `Tu pago del pedido ${order.id} llegó después de que venció tu apartado, y para entonces sus piezas ya se habían vendido: no hay nada que podamos enviarte. Lamentamos mucho las molestias.`
      : cancellation.mismatch
        ? `El cobro de tu pedido ${order.id} no coincidió con su total, así que no pudimos darlo por pagado: lo cancelamos y te devolvimos exactamente lo que se te cobró. Lamentamos mucho las molestias.`
        : `Cancelamos tu pedido ${order.id} porque pasa del máximo de piezas por persona de la colección: ${cancellation.reason}`;
  // Made by the owner herself (a cash voucher cannot go back to its ficha): its way is hers to tell.
  const refund =
    cancellation.refundId === REFUNDED_BY_HAND
      ? `Ya te devolvimos ${amount}. Si no lo ves en tu cuenta, respóndenos y lo revisamos.`
      : order.voucher?.method === "spei"
        ? `Ya hicimos el reembolso de ${amount}${refundWayOf("spei")}. Según tu banco, puede tardar unos días hábiles en llegar.`
        : `Ya hicimos el reembolso de ${amount}${refundWayOf(null)}. Según tu banco, puede tardar de 5 a 10 días hábiles en verse en tu estado de cuenta.`;
  const fair = cancellation.byShop
    ? "Tus otros pedidos siguen en pie."
    : cancellation.soldOut
      ? "Tu apartado había vencido cuando llegó el pago, y las piezas pasaron a quien seguía. Si vuelven a estar disponibles, te esperan en la tienda."
      : cancellation.mismatch
        ? "Si todavía quieres estas piezas y siguen disponibles, puedes comprarlas de nuevo en la tienda."
        : PER_PERSON_FAIR;
  const ask =
    cancellation.byShop || cancellation.soldOut || cancellation.mismatch
      ? "Si tienes cualquier duda sobre la cancelación, respóndenos y te explicamos."
      : PER_PERSON_ASK;
  const text = [
    `${firstName}, cancelamos tu pedido ${order.id} en ${shop.name} y te devolvimos tu dinero.`,
    "",
    why,
    "",
    refund,
    "",
    "Lo que tenía el pedido:",
    ...orderSummaryText(summary),
    "",
    fair,
    "",
    ask,
    "",
    ...orderPageLinkText(pageUrl),
    contactLine(shop),
  ].join("\n");
  return renderEmail({
    subject: `Cancelamos tu pedido ${order.id} y te devolvimos tu dinero`,
    text,
    html: (
      <ShopEmail shop={shop} title={`${firstName}, cancelamos tu pedido y te devolvimos tu dinero`}>
        <Paragraph>{why}</Paragraph>
        <Paragraph tone="strong">{refund}</Paragraph>
        <SectionHeading>Lo que tenía el pedido</SectionHeading>
        <OrderSummary summary={summary} />
        <Paragraph>{fair}</Paragraph>
        <Paragraph>{ask}</Paragraph>
        <OrderPageLink url={pageUrl} />
      </ShopEmail>
    ),
  });
}
