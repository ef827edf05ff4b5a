import { formatMXN } from "~/lib/money";
import type { EmailOrderSummary, EmailPhoto } from "~/mail/components";
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

/** "Ana" from "Ana Pérez"; null when the payment gave no name. */
export function buyerFirstName(order: Order): string | null {
  return order.customerName.trim().split(/\s+/)[0] || null;
}

/** What starts a sentence to the buyer: her first name, or "Hola" ("Hola, tu pedido…"). */
export function firstNameOf(order: Order): string {
  return buyerFirstName(order) ?? "Hola";
}

/** ", Ana" to end a title with her name ("¡Gracias por tu compra, Ana!"); nothing without one. */
export function nameAtEnd(order: Order): string {
  const name = buyerFirstName(order);
  return name ? `, ${name}` : "";
}

/** The order as its package holds it: a late payment's pieces that were gone left out, photos in step. */
export function asPacked(order: Order, photos: LinePhotos): { order: Order; photos: LinePhotos } {
  if (!order.lines.some((l) => l.missing > 0)) return { order, photos };
  const kept = order.lines
    .map((l, i) => ({
      line: { ...l, quantity: l.quantity - l.missing, missing: 0 },
      photo: photos[i] ?? null,
    }))
    .filter((k) => k.line.quantity > 0);
  return { order: { ...order, lines: kept.map((k) => k.line) }, photos: kept.map((k) => k.photo) };
}
