import type { PublicShopSettings } from "~/config/env.server";
import {
  contactLine,
  type EmailOrderSummary,
  type EmailPhoto,
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
import type { ReturnView } from "./queries.server";
import { piecesNotArrived } from "./return-status";

/*
 * The buyer's e-mails about a return (decision 48): her request arrived, the owner accepted it
 * (where to send the pieces) or declined it (why), and its refund was made. Built from the shared
 * components (decision 47): the pieces with their photos, the owner's words, 'Ver mi pedido'.
 */

/** The order's line photos by position (an order's lines are numbered from 0 in its order). */
export type ReturnPhotos = readonly (EmailPhoto | null)[];

type ReturnEmail = (
  view: ReturnView,
  shop: PublicShopSettings,
  pageUrl?: string | null,
  photos?: ReturnPhotos,
) => Promise<RenderedEmail>;

function summaryOf(view: ReturnView, photos: ReturnPhotos): EmailOrderSummary {
  return {
    // A line none of whose pieces arrived gave nothing back: named in the words, not as a line.
    lines: view.lines
      .filter((l) => l.quantity > 0)
      .map((l) => ({
        name: l.name,
        quantity: l.quantity,
        amount: l.amount,
        edition: null,
        photo: photos[l.position] ?? null,
      })),
    shipping: null,
    total: view.refund,
    plan: null,
    // A declined return gives nothing back, and one still asked for is not yet accepted: its
    // pieces' price is named, not promised as a refund.
    totalLabel:
      view.status === "rechazada" || view.status === "cerrada" || view.status === "solicitada"
        ? "Precio de las piezas"
        : "Reembolso",
  };
}

function build(
  view: ReturnView,
  shop: PublicShopSettings,
  pageUrl: string | null,
  photos: ReturnPhotos,
  /** `after`: a line after the owner's message. */
  parts: { subject: string; title: string; lines: string[]; message?: string; after?: string },
): Promise<RenderedEmail> {
  const firstName = view.customerName.split(" ")[0] || "Hola";
  const message = parts.message?.trim() ?? "";
  const summary = summaryOf(view, photos);
  const heading = `Devolución ${view.id} del pedido ${view.orderId}`;
  const text = [
    `${firstName}:`,
    "",
    ...parts.lines,
    "",
    ...(message ? [`Mensaje de ${shop.name}:`, message, ""] : []),
    ...(parts.after ? [parts.after, ""] : []),
    `${heading}:`,
    ...orderSummaryText(summary),
    "",
    ...orderPageLinkText(pageUrl),
    contactLine(shop),
  ].join("\n");
  return renderEmail({
    subject: parts.subject,
    text,
    html: (
      <ShopEmail shop={shop} title={parts.title}>
        {parts.lines.map((line) => (
          <Paragraph key={line}>{line}</Paragraph>
        ))}
        {message && (
          <>
            <SectionHeading>{`Mensaje de ${shop.name}`}</SectionHeading>
            <Paragraph style={{ whiteSpace: "pre-line" }}>{message}</Paragraph>
          </>
        )}
        {parts.after && <Paragraph>{parts.after}</Paragraph>}
        <SectionHeading>{heading}</SectionHeading>
        <OrderSummary summary={summary} />
        <OrderPageLink url={pageUrl} />
      </ShopEmail>
    ),
  });
}

export const returnRequestedEmail: ReturnEmail = (view, shop, pageUrl = null, photos = []) =>
  build(view, shop, pageUrl, photos, {
    subject: `Recibimos tu solicitud de devolución (${view.orderId})`,
    title: "Recibimos tu solicitud de devolución",
    lines: [
      `Recibimos tu solicitud para devolver piezas de tu pedido ${view.orderId}. La revisamos y te escribimos en cuanto la respondamos, normalmente en uno o dos días hábiles.`,
      "No envíes las piezas todavía: cuando la aceptemos te decimos a dónde mandarlas.",
    ],
  });

/** Whether a return is of one piece (the e-mails speak of it as one). */
const onePiece = (view: { lines: readonly { quantity: number }[] }) =>
  view.lines.reduce((sum, l) => sum + l.quantity, 0) === 1;

/** Where to send what comes back, and who pays its way: said of one piece or of several. */
function acceptedLine(view: { lines: readonly { quantity: number }[]; shopPaysReturn: boolean }): string {
  const one = onePiece(view);
  const send = `Aceptamos tu devolución. Envíanos ${one ? "la pieza" : "las piezas"} como te indicamos abajo, en su empaque y con tu número de pedido;`;
  return view.shopPaysReturn
    ? `${send} como ${one ? "llegó dañada o no es la que pediste" : "llegaron dañadas o no son las que pediste"}, el envío de regreso corre por nuestra cuenta.`
    : `${send} el envío de regreso corre por tu cuenta.`;
}

export const returnAcceptedEmail: ReturnEmail = (view, shop, pageUrl = null, photos = []) =>
  build(view, shop, pageUrl, photos, {
    subject: `Aceptamos tu devolución (${view.orderId})`,
    title: "Aceptamos tu devolución",
    lines: [
      acceptedLine(view),
      view.refundWay
        ? `En cuanto ${onePiece(view) ? "llegue" : "lleguen"} al taller te reembolsamos ${view.refund} MXN${view.refundWay}.`
        : `En cuanto ${onePiece(view) ? "llegue" : "lleguen"} al taller te reembolsamos ${view.refund} MXN: como pagaste en efectivo en OXXO, te escribiremos para pedirte la cuenta a la que te lo enviaremos.`,
    ],
    message: view.ownerMessage,
  });

export const returnClosedEmail: ReturnEmail = (view, shop, pageUrl = null, photos = []) =>
  build(view, shop, pageUrl, photos, {
    subject: `Cerramos tu devolución (${view.orderId})`,
    title: "Cerramos tu devolución",
    lines: ["Cerramos tu devolución sin reembolso. Te explicamos por qué:"],
    message: view.ownerMessage,
    after:
      "Si aún quieres devolver las piezas y tu plazo no ha terminado, puedes pedirlo de nuevo desde Mi pedido.",
  });

export const returnDeclinedEmail: ReturnEmail = (view, shop, pageUrl = null, photos = []) =>
  build(view, shop, pageUrl, photos, {
    subject: `Sobre tu solicitud de devolución (${view.orderId})`,
    title: "No pudimos aceptar tu devolución",
    lines: ["Revisamos tu solicitud de devolución y no pudimos aceptarla. Te explicamos por qué:"],
    message: view.ownerMessage,
  });

export const returnRefundedEmail: ReturnEmail = (view, shop, pageUrl = null, photos = []) =>
  build(view, shop, pageUrl, photos, {
    subject: `Te reembolsamos ${view.refund} MXN (${view.orderId})`,
    title: "Tu reembolso está hecho",
    lines: [
      view.refundWay
        ? `Recibimos ${onePiece(view) ? "la pieza" : "las piezas"} de tu devolución y te reembolsamos ${view.refund} MXN${view.refundWay}. Según tu banco, puede tardar unos días en verse en tu estado de cuenta.`
        : `Recibimos ${onePiece(view) ? "la pieza" : "las piezas"} de tu devolución y te devolvimos ${view.refund} MXN. Si no lo ves en tu cuenta, respóndenos y lo revisamos.`,
      piecesNotArrived(view.lines, "correo"),
    ].filter((line) => line !== null),
  });
