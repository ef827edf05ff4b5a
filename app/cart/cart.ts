/**
 * The cart's rules, as plain functions over an immutable list of lines. The browser keeps the
 * list (localStorage); the server never trusts it and re-reads prices and stock at checkout.
 */

import { formatMXN } from "~/lib/money";

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
  /** Pieces held by other shoppers' unpaid checkouts (only counted when stock is 0). */
  held?: number;
}

/** Why the drawer changed a line, for the notice the shopper reads. */
export type CartChange =
  | { kind: "agotado"; name: string }
  | { kind: "apartado"; name: string }
  | { kind: "cerrado"; name: string }
  | { kind: "reducido"; name: string; from: number; to: number }
  | { kind: "precio"; name: string; fromCents: number; toCents: number };

/**
 * Brings lines up to date with the shop: current name, price, image and stock; quantities cut to
 * what is left; lines whose product vanished, sold out or whose drop no longer sells are dropped.
 * `changes` says what happened to each line the shopper would not expect.
 */
export function reconcileCartWithChanges(
  cart: Cart,
  current: ReadonlyMap<string, CurrentProduct>,
): { cart: Cart; changes: CartChange[] } {
  const next: CartLine[] = [];
  const changes: CartChange[] = [];
  for (const line of cart) {
    const now = current.get(line.product.id);
    const name = now?.name ?? line.product.name;
    if (!now?.purchasable) {
      changes.push({ kind: now ? "cerrado" : "agotado", name });
      continue;
    }
    if (now.stock <= 0) {
      changes.push({ kind: (now.held ?? 0) > 0 ? "apartado" : "agotado", name });
      continue;
    }
    const { purchasable: _, held: __, ...product } = now;
    const quantity = Math.min(line.quantity, now.stock);
    if (quantity < line.quantity) changes.push({ kind: "reducido", name, from: line.quantity, to: quantity });
    if (now.priceCents !== line.product.priceCents) {
      changes.push({ kind: "precio", name, fromCents: line.product.priceCents, toCents: now.priceCents });
    }
    next.push({ ...line, product, quantity });
  }
  return { cart: next, changes };
}

/** The drawer's sentence for one change. */
export function cartChangeMessage(change: CartChange): string {
  const name = `«${change.name}»`;
  switch (change.kind) {
    case "agotado":
      return `${name} se agotó y lo quitamos de tu carrito.`;
    case "apartado":
      return `${name} está apartado en otra compra en curso y lo quitamos de tu carrito; puede volver a estar disponible en unos minutos.`;
    case "cerrado":
      return `${name} ya no está a la venta (su colección cerró) y lo quitamos de tu carrito.`;
    case "reducido":
      return `${name}: ${change.to === 1 ? "solo queda 1" : `solo quedan ${change.to}`}, así que cambiamos la cantidad de ${change.from} a ${change.to}.`;
    case "precio":
      return `${name} cambió de precio: antes ${formatMXN(change.fromCents)}, ahora ${formatMXN(change.toCents)}.`;
  }
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
