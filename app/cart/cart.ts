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

export interface CartLine {
  product: CartProduct;
  dropId: string;
  quantity: number;
}

export type Cart = readonly CartLine[];

export const EMPTY_CART: Cart = [];

/** The spec's message when the product page asks for more than the stock allows. */
export function stockLimitMessage(stock: number): string {
  return `No puedes agregar más. Stock disponible: ${stock}`;
}

export function quantityInCart(cart: Cart, productId: string): number {
  return cart.find((l) => l.product.id === productId)?.quantity ?? 0;
}

/**
 * The product page's check before adding: what is already in the cart plus the chosen quantity
 * may not exceed the stock. Returns the message to show, or null when the add may proceed.
 */
export function checkAdd(cart: Cart, product: CartProduct, quantity: number): string | null {
  if (quantityInCart(cart, product.id) + quantity > product.stock) return stockLimitMessage(product.stock);
  return null;
}

/**
 * Adds `quantity` (default 1) of a product. An existing line grows by the amount added, capped at
 * the product's stock; otherwise a new line is appended. Nothing is added for an empty stock.
 */
export function addToCart(cart: Cart, product: CartProduct, dropId: string, quantity = 1): Cart {
  const amount = Math.max(1, Math.floor(quantity));
  const existing = cart.find((l) => l.product.id === product.id);
  if (existing) {
    return cart.map((l) =>
      l.product.id === product.id
        ? { ...l, product, quantity: Math.min(l.quantity + amount, product.stock) }
        : l,
    );
  }
  if (product.stock <= 0) return cart;
  return [...cart, { product, dropId, quantity: Math.min(amount, product.stock) }];
}

export function removeFromCart(cart: Cart, productId: string): Cart {
  return cart.filter((l) => l.product.id !== productId);
}

/** Plus: one more, but never beyond the stock. */
export function increaseLine(cart: Cart, productId: string): Cart {
  return cart.map((l) =>
    l.product.id === productId ? { ...l, quantity: Math.min(l.quantity + 1, l.product.stock) } : l,
  );
}

/** Minus: one less; at 1 the line is removed. */
export function decreaseLine(cart: Cart, productId: string): Cart {
  const line = cart.find((l) => l.product.id === productId);
  if (!line) return cart;
  if (line.quantity <= 1) return removeFromCart(cart, productId);
  return cart.map((l) => (l.product.id === productId ? { ...l, quantity: l.quantity - 1 } : l));
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

/** What the server says about a product now, when the drawer revalidates the cart. */
export interface CurrentProduct extends CartProduct {
  purchasable: boolean;
}

/**
 * Brings lines up to date with the shop: current name, price, image and stock; quantities cut to
 * what is left; lines whose product vanished, sold out or whose drop no longer sells are dropped.
 */
export function reconcileCart(cart: Cart, current: ReadonlyMap<string, CurrentProduct>): Cart {
  const next: CartLine[] = [];
  for (const line of cart) {
    const now = current.get(line.product.id);
    if (!now?.purchasable || now.stock <= 0) continue;
    const { purchasable: _, ...product } = now;
    next.push({ ...line, product, quantity: Math.min(line.quantity, now.stock) });
  }
  return next;
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
    if (!valid || lines.some((l) => l.product.id === p.id)) continue;
    lines.push({
      product: { id: p.id, name: p.name, priceCents: p.priceCents, stock: p.stock, image: p.image },
      dropId: item.dropId,
      quantity: item.quantity,
    });
  }
  return lines;
}
