import { escapeMarkup } from "~/lib/escape";
import { formatMXN } from "~/lib/money";
import type { Order } from "../order";

/** The order's pieces with their totals: text lines and an HTML table. */
export function piecesOf(order: Order): { text: string[]; html: string } {
  const lines = order.lines.map((l) => ({ ...l, total: formatMXN(l.unitPriceCents * l.quantity) }));
  const rows = lines
    .map(
      (l) =>
        `<tr><td style="padding:6px 0">${escapeMarkup(l.name)} × ${l.quantity}${l.edition ? `<br><span style="color:#6b5e4b">${escapeMarkup(l.edition)}</span>` : ""}</td><td style="padding:6px 0;text-align:right">${l.total}</td></tr>`,
    )
    .join("");
  return {
    text: [
      ...lines.map((l) => `- ${l.name} × ${l.quantity}: ${l.total}${l.edition ? ` (${l.edition})` : ""}`),
      `Total: ${order.total} MXN`,
    ],
    html: `<table style="width:100%;border-collapse:collapse">${rows}
<tr><td style="padding:8px 0;border-top:1px solid #ddd"><strong>Total</strong></td><td style="padding:8px 0;border-top:1px solid #ddd;text-align:right"><strong>${order.total} MXN</strong></td></tr></table>`,
  };
}

/** "Ana" from "Ana Pérez". */
export function firstNameOf(order: Order): string {
  return order.customerName.split(" ")[0] || "Hola";
}
