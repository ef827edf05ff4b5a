import { formatMXN, MAX_CHARGE_CENTS } from "~/lib/money";

/*
 * The size of one order, the same on SQLite and PostgreSQL. Money and quantities are `integer`
 * columns, 32-bit on PostgreSQL: with a line's pieces, an order's pieces and its total capped here
 * (and a piece's price capped by the drop form), no sum the shop computes can overflow a column.
 */

/** How long a checkout holds its pieces unless its drop says less (the drop form: 10 to 30). */
export const HOLD_MINUTES = 30;
/** The shortest hold a drop may set: time enough to type a card on a phone. */
export const MIN_HOLD_MINUTES = 10;

/** Pieces of one product in one order (two cart lines of the same product count together). */
export const MAX_LINE_QUANTITY = 50;
/** Pieces in one order, all products together. */
export const MAX_ORDER_PIECES = 100;
/** Different products in one order. */
export const MAX_ORDER_LINES = 50;
/** One order is one payment. */
export const MAX_ORDER_TOTAL_CENTS = MAX_CHARGE_CENTS;

/**
 * The ceilings of one order. The shop's defaults are the two above; the owner may raise them
 * (settings ORDER_MAX_PER_PRODUCT and ORDER_MAX_PIECES) up to HIGHEST_CEILING, where every sum
 * stays exact and fits PostgreSQL's 32-bit columns (the total is capped on its own).
 */
export interface OrderCeilings {
  perProduct: number;
  pieces: number;
}
export const DEFAULT_CEILINGS: OrderCeilings = { perProduct: MAX_LINE_QUANTITY, pieces: MAX_ORDER_PIECES };
export const HIGHEST_CEILING = 1000;

export const lineQuantityMessage = (most: number) =>
  `Puedes comprar hasta ${most} piezas de un mismo producto por pedido.`;
export const orderPiecesMessage = (most: number) =>
  `Un pedido puede tener hasta ${most} piezas: quita algunas del carrito.`;
export const LINE_QUANTITY_MESSAGE = lineQuantityMessage(MAX_LINE_QUANTITY);
export const ORDER_PIECES_MESSAGE = orderPiecesMessage(MAX_ORDER_PIECES);
export const ORDER_TOTAL_MESSAGE = `El total de un pedido puede ser de hasta ${formatMXN(MAX_ORDER_TOTAL_CENTS)}: quita algunas piezas del carrito.`;

export type LimitRefusal = {
  reason: "limite_piezas" | "limite_total" | "limite_coleccion";
  message: string;
};

/**
 * Checks the pieces of a cart whose lines are already merged by product, before anything is read
 * or held. Null when the order may go on.
 */
export function piecesRefusal(
  lines: readonly { quantity: number }[],
  ceilings: OrderCeilings = DEFAULT_CEILINGS,
): LimitRefusal | null {
  if (lines.length > MAX_ORDER_LINES) {
    return {
      reason: "limite_piezas",
      message: `Un pedido puede tener hasta ${MAX_ORDER_LINES} productos distintos.`,
    };
  }
  if (lines.some((l) => l.quantity > ceilings.perProduct)) {
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
): LimitRefusal | null {
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
): LimitRefusal | null {
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
