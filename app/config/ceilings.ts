import { MAX_CHARGE_CENTS } from "~/lib/money";

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
