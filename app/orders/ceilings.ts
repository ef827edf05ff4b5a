import {
  DEFAULT_CEILINGS,
  MAX_ORDER_LINES,
  MAX_ORDER_TOTAL_CENTS,
  type OrderCeilings,
} from "~/config/ceilings";
import { formatMXN } from "~/lib/money";

// An order's ceilings, said in the shopper's words. The numbers live in config/ceilings.ts.

export const lineQuantityMessage = (most: number) =>
  `Puedes comprar hasta ${most} piezas de un mismo producto por pedido.`;
export const orderPiecesMessage = (most: number) =>
  `Un pedido puede tener hasta ${most} piezas: quita algunas del carrito.`;
export const ORDER_TOTAL_MESSAGE = `El total de un pedido puede ser de hasta ${formatMXN(MAX_ORDER_TOTAL_CENTS)}: quita algunas piezas del carrito.`;

export type CeilingRefusal = {
  reason: "limite_piezas" | "limite_total" | "limite_coleccion";
  message: string;
};

/**
 * Checks the pieces of a cart whose lines are already merged by product and size, before anything
 * is read or held. A product's sizes count together toward its ceiling. Null when the order may go on.
 */
export function piecesRefusal(
  lines: readonly { productId: string; quantity: number }[],
  ceilings: OrderCeilings = DEFAULT_CEILINGS,
): CeilingRefusal | null {
  if (lines.length > MAX_ORDER_LINES) {
    return {
      reason: "limite_piezas",
      message: `Un pedido puede tener hasta ${MAX_ORDER_LINES} productos distintos.`,
    };
  }
  const perProduct = new Map<string, number>();
  for (const l of lines) perProduct.set(l.productId, (perProduct.get(l.productId) ?? 0) + l.quantity);
  if ([...perProduct.values()].some((quantity) => quantity > ceilings.perProduct)) {
    return { reason: "limite_piezas", message: lineQuantityMessage(ceilings.perProduct) };
  }
  if (lines.reduce((sum, l) => sum + l.quantity, 0) > ceilings.pieces) {
    return { reason: "limite_piezas", message: orderPiecesMessage(ceilings.pieces) };
  }
  return null;
}

/** Checks an order's total from the prices read now. Null when one payment can take it. */
export function totalRefusal(
  lines: readonly { unitPriceCents: number; quantity: number }[],
): CeilingRefusal | null {
  // At most 100 pieces of at most $999,999.99: the sum is exact in a double, then checked.
  const total = lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
  return total > MAX_ORDER_TOTAL_CENTS ? { reason: "limite_total", message: ORDER_TOTAL_MESSAGE } : null;
}

/** 'Máximo N por persona': the owner's limit of one drop's pieces in one order, said in the drawer. */
export function perPersonMessage(max: number, dropName: string): string {
  return `Máximo ${max} por persona en ${dropName}: deja hasta ${max} ${max === 1 ? "pieza" : "piezas"} de esta colección en tu carrito.`;
}

/**
 * Checks each drop's own limit ('Máximo N por persona') against the cart's pieces of that drop,
 * all its products together. Null when every drop's limit is kept (or it has none).
 */
export function perDropRefusal(
  lines: readonly { dropId: string; quantity: number }[],
  drops: ReadonlyMap<string, { name: string; maxPerOrder: number | null }>,
): CeilingRefusal | null {
  const pieces = new Map<string, number>();
  for (const line of lines) pieces.set(line.dropId, (pieces.get(line.dropId) ?? 0) + line.quantity);
  for (const [dropId, count] of pieces) {
    const drop = drops.get(dropId);
    if (drop?.maxPerOrder != null && count > drop.maxPerOrder) {
      return { reason: "limite_coleccion", message: perPersonMessage(drop.maxPerOrder, drop.name) };
    }
  }
  return null;
}
