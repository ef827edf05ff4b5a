import { escapeMarkup } from "~/lib/escape";
import { formatMXN } from "~/lib/money";
import { type EmailOrderSummary, type EmailPhoto, orderSummaryText } from "~/mail/components";
import { type Order, shippingLineOf } from "../order";

/** "Pagado a 6 meses sin intereses" when the buyer chose a plan ('meses sin intereses'); else null. */
export function planLine(order: Pick<Order, "installmentMonths">): string | null {
  return order.installmentMonths ? `Pagado a ${order.installmentMonths} meses sin intereses` : null;
}

/**
 * Each line's photo, in the order's line order (photos.server.ts reads them); empty, or null for a
 * line, when there is none to show (no public address, no media, a piece without a photo).
 */
export type LinePhotos = readonly (EmailPhoto | null)[];

/** The order's pieces as the e-mails' `OrderSummary` shows them, each with its photo when given. */
export function orderSummaryOf(order: Order, photos: LinePhotos = []): EmailOrderSummary {
  return {
    lines: order.lines.map((l, i) => ({
      name: l.name,
      quantity: l.quantity,
      amount: formatMXN(l.unitPriceCents * l.quantity),
      edition: l.edition,
      photo: photos[i] ?? null,
    })),
    shipping: shippingLineOf(order),
    total: order.total,
    plan: planLine(order),
  };
}

/**
 * The order's pieces with their totals (prices include IVA), its shipping apart, and its plan: text
 * lines and an HTML table.
 * @deprecated for HTML: an e-mail built from the shared components shows `<OrderSummary>` and
 * its text part `orderSummaryText(orderSummaryOf(order))`. The HTML is kept for e-mails still
 * written as strings (decision 47); remove it with the last of them.
 */
export function piecesOf(order: Order): { text: string[]; html: string } {
  const summary = orderSummaryOf(order);
  const rows = summary.lines
    .map(
      (l) =>
        `<tr><td style="padding:6px 0">${escapeMarkup(l.name)} × ${l.quantity}${l.edition ? `<br><span style="color:#6b5e4b">${escapeMarkup(l.edition)}</span>` : ""}</td><td style="padding:6px 0;text-align:right">${l.amount}</td></tr>`,
    )
    .join("");
  const shipping = summary.shipping;
  const shippingRow = shipping
    ? `<tr><td style="padding:6px 0">${escapeMarkup(shipping.label)}</td><td style="padding:6px 0;text-align:right">${shipping.amount}</td></tr>`
    : "";
  const plan = summary.plan;
  return {
    text: orderSummaryText(summary),
    html: `<table style="width:100%;border-collapse:collapse">${rows}${shippingRow}
<tr><td style="padding:8px 0;border-top:1px solid #ddd"><strong>Total</strong> (IVA incluido)</td><td style="padding:8px 0;border-top:1px solid #ddd;text-align:right"><strong>${order.total} MXN</strong></td></tr>${plan ? `<tr><td colspan="2" style="padding:0 0 6px;color:#6b5e4b">${plan}</td></tr>` : ""}</table>`,
  };
}

/** "Ana" from "Ana Pérez". */
export function firstNameOf(order: Order): string {
  return order.customerName.split(" ")[0] || "Hola";
}

/** The link to the buyer's order page ('Mi pedido'), as text lines (none without an address). */
export { orderPageLinkText as orderPageText } from "~/mail/components";

/**
 * The link to the buyer's order page ('Mi pedido'), as a button.
 * @deprecated an e-mail built from the shared components shows `<OrderPageLink url={pageUrl} />`;
 * kept for e-mails still written as strings (decision 47).
 */
export function orderPageHtml(pageUrl: string | null): string {
  return pageUrl
    ? `<p style="margin-top:24px"><a href="${escapeMarkup(pageUrl)}" style="display:inline-block;border:1px solid #2b2520;color:#2b2520;padding:10px 18px;border-radius:999px;text-decoration:none">Ver mi pedido</a></p>`
    : "";
}
