import { escapeMarkup } from "~/lib/escape";
import { formatMXN } from "~/lib/money";
import { type Order, shippingLineOf } from "../order";

/** "Pagado a 6 meses sin intereses" when the buyer chose a plan ('meses sin intereses'); else null. */
export function planLine(order: Pick<Order, "installmentMonths">): string | null {
  return order.installmentMonths ? `Pagado a ${order.installmentMonths} meses sin intereses` : null;
}

/** The order's pieces with their totals (prices include IVA), its shipping apart, and its plan: text lines and an HTML table. */
export function piecesOf(order: Order): { text: string[]; html: string } {
  const lines = order.lines.map((l) => ({ ...l, total: formatMXN(l.unitPriceCents * l.quantity) }));
  const plan = planLine(order);
  const shipping = shippingLineOf(order);
  const rows = lines
    .map(
      (l) =>
        `<tr><td style="padding:6px 0">${escapeMarkup(l.name)} × ${l.quantity}${l.edition ? `<br><span style="color:#6b5e4b">${escapeMarkup(l.edition)}</span>` : ""}</td><td style="padding:6px 0;text-align:right">${l.total}</td></tr>`,
    )
    .join("");
  const shippingRow = shipping
    ? `<tr><td style="padding:6px 0">${escapeMarkup(shipping.label)}</td><td style="padding:6px 0;text-align:right">${shipping.amount}</td></tr>`
    : "";
  return {
    text: [
      ...lines.map((l) => `- ${l.name} × ${l.quantity}: ${l.total}${l.edition ? ` (${l.edition})` : ""}`),
      ...(shipping ? [`- ${shipping.label}: ${shipping.amount}`] : []),
      `Total: ${order.total} MXN, IVA incluido`,
      ...(plan ? [plan] : []),
    ],
    html: `<table style="width:100%;border-collapse:collapse">${rows}${shippingRow}
<tr><td style="padding:8px 0;border-top:1px solid #ddd"><strong>Total</strong> (IVA incluido)</td><td style="padding:8px 0;border-top:1px solid #ddd;text-align:right"><strong>${order.total} MXN</strong></td></tr>${plan ? `<tr><td colspan="2" style="padding:0 0 6px;color:#6b5e4b">${plan}</td></tr>` : ""}</table>`,
  };
}

/** "Ana" from "Ana Pérez". */
export function firstNameOf(order: Order): string {
  return order.customerName.split(" ")[0] || "Hola";
}

/** The link to the buyer's order page ('Mi pedido'), as text lines (none without an address). */
export function orderPageText(pageUrl: string | null): string[] {
  return pageUrl ? [`Ve tu pedido en cualquier momento (Mi pedido): ${pageUrl}`, ""] : [];
}

/** The link to the buyer's order page ('Mi pedido'), as a button. */
export function orderPageHtml(pageUrl: string | null): string {
  return pageUrl
    ? `<p style="margin-top:24px"><a href="${escapeMarkup(pageUrl)}" style="display:inline-block;border:1px solid #2b2520;color:#2b2520;padding:10px 18px;border-radius:999px;text-decoration:none">Ver mi pedido</a></p>`
    : "";
}
