import type { OptionName } from "~/db/taxonomy";
import { formatMXN } from "~/lib/money";
import { type Cart, type CartLine, type CartProduct, lineName } from "./cart";

/*
 * The drawer's re-check of the cart against the shop (prices, stock, whether a drop still sells)
 * and its sentences: only the drawer needs them, so they load with its code, not with every page.
 */

/** What the server says about a product now, when the drawer revalidates the cart. */
export interface CurrentProduct extends CartProduct {
  purchasable: boolean;
  /** Pieces held by other shoppers' unpaid checkouts (only counted when stock is 0). */
  held?: number;
  /** The drop's 'Máximo N por persona' now (null for none), kept on the line for the drawer's plus. */
  maxPerPerson?: number | null;
  /** Its sizes now, each with its stock (and pieces held by others, counted when at 0); null: none. */
  option?: {
    name: OptionName;
    values: { id: string; value: string; stock: number; held?: number }[];
  } | null;
}

/** Why the drawer changed a line, for the notice the shopper reads. */
export type CartChange =
  | { kind: "agotado"; name: string }
  | { kind: "apartado"; name: string }
  | { kind: "cerrado"; name: string }
  /** The owner took the piece off the shop. */
  | { kind: "retirado"; name: string }
  | { kind: "talla"; name: string; option: OptionName }
  /** The line's size (or length) is no longer offered: removed by the owner, or the piece no longer sold by size. */
  | { kind: "talla_retirada"; name: string; option: OptionName }
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
    const name = lineName({
      product: { ...line.product, name: now?.name ?? line.product.name },
      option: line.option,
    });
    if (!now?.purchasable) {
      changes.push({ kind: now ? "cerrado" : "retirado", name });
      continue;
    }
    // A size is its own piece: its stock and its holds decide (a size the owner removed is gone).
    const value = line.option ? now.option?.values.find((v) => v.id === line.option?.id) : undefined;
    if (now.option && !line.option) {
      changes.push({ kind: "talla", name, option: now.option.name });
      continue;
    }
    if (line.option && !value) {
      changes.push({ kind: "talla_retirada", name, option: line.option.name });
      continue;
    }
    const stock = line.option ? (value?.stock ?? 0) : now.stock;
    const held = line.option ? (value?.held ?? 0) : (now.held ?? 0);
    if (stock <= 0) {
      changes.push({ kind: held > 0 ? "apartado" : "agotado", name });
      continue;
    }
    const { purchasable: _, held: __, maxPerPerson, option: ____, ...product } = now;
    const quantity = Math.min(line.quantity, stock);
    if (quantity < line.quantity) changes.push({ kind: "reducido", name, from: line.quantity, to: quantity });
    if (now.priceCents !== line.product.priceCents) {
      changes.push({ kind: "precio", name, fromCents: line.product.priceCents, toCents: now.priceCents });
    }
    const { maxPerPerson: ___, ...rest } = line;
    // The drop's limit as the shop says it now (an answer without it keeps the line's).
    const max = maxPerPerson === undefined ? line.maxPerPerson : (maxPerPerson ?? undefined);
    const option = line.option && value ? { option: { ...line.option, value: value.value, stock } } : {};
    next.push({ ...rest, product, quantity, ...(max === undefined ? {} : { maxPerPerson: max }), ...option });
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
      return `${name}: Apartado — puede volver a estar disponible. Otra persona lo tiene en un pago que aún no termina, así que lo quitamos de tu carrito.`;
    case "cerrado":
      return `${name} ya no está a la venta (su colección cerró) y lo quitamos de tu carrito.`;
    case "retirado":
      return `${name} ya no está a la venta y lo quitamos de tu carrito.`;
    case "talla_retirada":
      return `${name}: ${change.option === "Talla" ? "esa talla" : "ese largo"} ya no está a la venta, así que lo quitamos de tu carrito.`;
    case "talla":
      return `${name} ahora se vende por ${change.option === "Talla" ? "talla" : "largo"}: lo quitamos de tu carrito; elige ${change.option === "Talla" ? "la tuya" : "el tuyo"} en su página.`;
    case "reducido":
      return `${name}: ${change.to === 1 ? "solo queda 1" : `solo quedan ${change.to}`}, así que cambiamos la cantidad de ${change.from} a ${change.to}.`;
    case "precio":
      return `${name} cambió de precio: antes ${formatMXN(change.fromCents)}, ahora ${formatMXN(change.toCents)}.`;
  }
}
