import type { OptionName } from "~/db/taxonomy";
/**
 * The cart's rules, as plain functions over an immutable list of lines. The browser keeps the
 * list (localStorage); the server never trusts it and re-reads prices and stock at checkout.
 */

export interface CartProduct {
  id: string;
  name: string;
  priceCents: number;
  stock: number;
  /** URL of a small image for the drawer, or null. */
  image: string | null;
}

/** The value of a product's option the shopper chose (a size, decision 34), with its own stock. */
export interface CartOption {
  id: string;
  name: OptionName;
  value: string;
  stock: number;
}

/** A line is a product, or a product in one value of its option: two sizes are two lines. */
export interface CartLine {
  product: CartProduct;
  dropId: string;
  quantity: number;
  /** The drop's 'Máximo N por persona' (all its pieces in the cart together), when it has one. */
  maxPerPerson?: number;
  /** The size (or length) chosen, for a product that has them. */
  option?: CartOption;
}

export type Cart = readonly CartLine[];

export const EMPTY_CART: Cart = [];

/** The spec's message when the product page asks for more than the stock allows. */
export function stockLimitMessage(stock: number): string {
  return `No puedes agregar más. Stock disponible: ${stock}`;
}

/** What tells two lines apart: the product, and its value when it has one. */
export function lineKey(productId: string, option?: { id: string } | null): string {
  return option ? `${productId}:${option.id}` : productId;
}

/** The key of a line (the drawer's buttons name lines by it). */
export function cartLineKey(line: Pick<CartLine, "product" | "option">): string {
  return lineKey(line.product.id, line.option);
}

/** The stock a line counts against: its value's, for a product with sizes. */
export function lineStock(line: Pick<CartLine, "product" | "option">): number {
  return line.option ? line.option.stock : line.product.stock;
}

/** The piece as the shopper chose it: 'Anillo Marea talla 7' (the server names order lines so). */
export function lineName(line: Pick<CartLine, "product" | "option">): string {
  return line.option
    ? `${line.product.name} ${line.option.name.toLowerCase()} ${line.option.value}`
    : line.product.name;
}

export function quantityInCart(cart: Cart, productId: string, option?: { id: string } | null): number {
  const key = lineKey(productId, option);
  return cart.find((l) => cartLineKey(l) === key)?.quantity ?? 0;
}

/** Pieces of one drop in the cart: its 'Máximo N por persona' counts all of them together. */
export function dropPieces(cart: Cart, dropId: string): number {
  return cart.reduce((sum, l) => (l.dropId === dropId ? sum + l.quantity : sum), 0);
}

/** A drop's 'Máximo N por persona', said when an add would pass it (the same rule as at 'Pagar'). */
export function perPersonAddMessage(max: number, dropName: string, inCart: number): string {
  const held = inCart === 1 ? "1 pieza" : `${inCart} piezas`;
  return inCart === 0
    ? `Máximo ${max} por persona en ${dropName}.`
    : `Máximo ${max} por persona en ${dropName}: ya tienes ${held} de esta colección en tu carrito.`;
}

/** The drop a product is added from, as the add checks it. */
export interface AddingFrom {
  id: string;
  name: string;
  /** 'Máximo N por persona'; null for none. */
  maxPerOrder: number | null;
}

/**
 * The product page's check before adding: what is already in the cart plus the chosen quantity
 * may not exceed the stock, nor the drop's 'Máximo N por persona' (all its pieces in the cart).
 * Returns the message to show, or null when the add may proceed.
 */
export function checkAdd(
  cart: Cart,
  product: CartProduct,
  quantity: number,
  drop?: AddingFrom,
  option?: CartOption,
): string | null {
  // A size counts against its own stock (the spec's rule, per value).
  const stock = lineStock({ product, option });
  if (quantityInCart(cart, product.id, option) + quantity > stock) return stockLimitMessage(stock);
  if (drop && drop.maxPerOrder !== null) {
    const inCart = dropPieces(cart, drop.id);
    if (inCart + quantity > drop.maxPerOrder) return perPersonAddMessage(drop.maxPerOrder, drop.name, inCart);
  }
  return null;
}

/**
 * Adds `quantity` (default 1) of a product, in `option` when it has sizes. An existing line (the
 * same product and value) grows by the amount added, capped at its stock and at the drop's
 * `maxPerPerson` (its pieces in the cart together); otherwise a new line is appended. Nothing is
 * added for an empty stock or a drop at its limit.
 */
export function addToCart(
  cart: Cart,
  product: CartProduct,
  dropId: string,
  quantity = 1,
  maxPerPerson: number | null = null,
  option?: CartOption,
): Cart {
  const room = maxPerPerson === null ? Number.POSITIVE_INFINITY : maxPerPerson - dropPieces(cart, dropId);
  const amount = Math.min(Math.max(1, Math.floor(quantity)), room);
  const limit = maxPerPerson === null ? {} : { maxPerPerson };
  const chosen = option ? { option } : {};
  const stock = lineStock({ product, option });
  if (amount <= 0) return cart;
  const key = lineKey(product.id, option);
  const existing = cart.find((l) => cartLineKey(l) === key);
  if (existing) {
    return cart.map((l) =>
      l === existing
        ? { ...l, ...limit, ...chosen, product, quantity: Math.min(l.quantity + amount, stock) }
        : l,
    );
  }
  if (stock <= 0) return cart;
  return [...cart, { product, dropId, quantity: Math.min(amount, stock), ...limit, ...chosen }];
}

/** Takes a line out; `key` is its `lineKey`. */
export function removeFromCart(cart: Cart, key: string): Cart {
  return cart.filter((l) => cartLineKey(l) !== key);
}

/** Whether the drop of `line` has reached its 'Máximo N por persona' in this cart. */
export function atDropLimit(cart: Cart, line: CartLine): boolean {
  return line.maxPerPerson !== undefined && dropPieces(cart, line.dropId) >= line.maxPerPerson;
}

/** Whether plus may add one more of this line: below its stock and its drop's limit. */
export function canIncrease(cart: Cart, line: CartLine): boolean {
  return line.quantity < lineStock(line) && !atDropLimit(cart, line);
}

/** Plus: one more, but never beyond the stock nor the drop's 'Máximo N por persona'. */
export function increaseLine(cart: Cart, key: string): Cart {
  const line = cart.find((l) => cartLineKey(l) === key);
  if (!line || !canIncrease(cart, line)) return cart;
  return cart.map((l) => (l === line ? { ...l, quantity: l.quantity + 1 } : l));
}

/** Minus: one less; at 1 the line is removed. */
export function decreaseLine(cart: Cart, key: string): Cart {
  const line = cart.find((l) => cartLineKey(l) === key);
  if (!line) return cart;
  if (line.quantity <= 1) return removeFromCart(cart, key);
  return cart.map((l) => (l === line ? { ...l, quantity: l.quantity - 1 } : l));
}

export function lineTotalCents(line: CartLine): number {
  return line.product.priceCents * line.quantity;
}

export function subtotalCents(cart: Cart): number {
  return cart.reduce((sum, l) => sum + lineTotalCents(l), 0);
}

/** Pieces in the cart, for the header badge. */
export function itemCount(cart: Cart): number {
  return cart.reduce((sum, l) => sum + l.quantity, 0);
}

/**
 * Reads a cart saved in the browser. Anything malformed (an old format, a hand-edited value)
 * is dropped line by line instead of breaking the page.
 */
export function parseStoredCart(raw: string | null): Cart {
  if (!raw) return EMPTY_CART;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return EMPTY_CART;
  }
  if (!Array.isArray(data)) return EMPTY_CART;
  const lines: CartLine[] = [];
  for (const item of data) {
    const p = item?.product;
    const valid =
      p &&
      typeof p.id === "string" &&
      typeof p.name === "string" &&
      Number.isInteger(p.priceCents) &&
      p.priceCents >= 0 &&
      Number.isInteger(p.stock) &&
      (typeof p.image === "string" || p.image === null) &&
      typeof item.dropId === "string" &&
      Number.isInteger(item.quantity) &&
      item.quantity >= 1;
    if (!valid) continue;
    const option = parseOption(item.option);
    // A line whose size cannot be read is dropped, not sold without one.
    if (option === null || lines.some((l) => cartLineKey(l) === lineKey(p.id, option))) continue;
    const max = item.maxPerPerson;
    lines.push({
      product: { id: p.id, name: p.name, priceCents: p.priceCents, stock: p.stock, image: p.image },
      dropId: item.dropId,
      quantity: item.quantity,
      ...(Number.isInteger(max) && max >= 1 ? { maxPerPerson: max } : {}),
      ...(option ? { option } : {}),
    });
  }
  return lines;
}

/** A stored line's option: undefined when it has none, null when it is there but malformed. */
function parseOption(o: unknown): CartOption | undefined | null {
  if (o === undefined) return undefined;
  if (typeof o !== "object" || o === null) return null;
  const { id, name, value, stock } = o as Record<string, unknown>;
  const valid =
    typeof id === "string" &&
    (name === "Talla" || name === "Largo") &&
    typeof value === "string" &&
    Number.isInteger(stock);
  return valid ? { id, name, value, stock: stock as number } : null;
}
