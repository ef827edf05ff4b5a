import { describe, expect, it } from "vitest";
import { formatMXN } from "~/lib/money";
import {
  addToCart,
  type Cart,
  type CartOption,
  type CartProduct,
  canIncrease,
  cartLineKey,
  checkAdd,
  decreaseLine,
  EMPTY_CART,
  increaseLine,
  itemCount,
  lineName,
  lineTotalCents,
  parseStoredCart,
  perPersonAddMessage,
  quantityInCart,
  removeFromCart,
  stockLimitMessage,
  subtotalCents,
} from "./cart";
import { type CartChange, cartChangeMessage, reconcileCartWithChanges } from "./reconcile";

const ring: CartProduct = { id: "r1", name: "Anillo Marea", priceCents: 480_000, stock: 3, image: null };
const chain: CartProduct = {
  id: "c1",
  name: "Collar Caracola",
  priceCents: 1_250_050,
  stock: 1,
  image: "/m.webp",
};

const anklet: CartProduct = { id: "a1", name: "Tobillera Brisa", priceCents: 90_000, stock: 2, image: null };

describe("adding", () => {
  it("appends a new line with the default quantity of 1", () => {
    const cart = addToCart(EMPTY_CART, ring, "d1");
    expect(cart).toEqual([{ product: ring, dropId: "d1", quantity: 1 }]);
  });

  it("grows an existing line by the amount added, capped at stock", () => {
    let cart = addToCart(EMPTY_CART, ring, "d1", 2);
    cart = addToCart(cart, ring, "d1", 1);
    expect(cart[0]?.quantity).toBe(3);
    cart = addToCart(cart, ring, "d1", 5);
    expect(cart).toHaveLength(1);
    expect(cart[0]?.quantity).toBe(3);
  });

  it("caps a new line at stock and adds nothing when sold out", () => {
    expect(addToCart(EMPTY_CART, ring, "d1", 10)[0]?.quantity).toBe(3);
    expect(addToCart(EMPTY_CART, { ...ring, stock: 0 }, "d1")).toEqual([]);
  });

  it("keeps lines from several drops in one cart", () => {
    const cart = addToCart(addToCart(EMPTY_CART, ring, "d1"), chain, "d2");
    expect(cart.map((l) => l.dropId)).toEqual(["d1", "d2"]);
  });
});

describe("the product page's stock check", () => {
  it("refuses when what is in the cart plus the chosen quantity exceeds stock", () => {
    const cart = addToCart(EMPTY_CART, ring, "d1", 2);
    expect(checkAdd(cart, ring, 1)).toBeNull();
    expect(checkAdd(cart, ring, 2)).toBe("No puedes agregar más. Stock disponible: 3");
    expect(checkAdd(EMPTY_CART, ring, 3)).toBeNull();
    expect(checkAdd(EMPTY_CART, ring, 4)).toBe(stockLimitMessage(3));
  });
});

describe("a drop's 'Máximo N por persona' when adding", () => {
  const luna = { id: "d1", name: "Luna Nueva", maxPerOrder: 2 };

  it("counts every piece of the drop in the cart, and says so in Spanish", () => {
    const cart = addToCart(EMPTY_CART, anklet, "d1", 1, 2);
    expect(checkAdd(cart, ring, 1, luna)).toBeNull();
    expect(checkAdd(cart, ring, 2, luna)).toBe(
      "Máximo 2 por persona en Luna Nueva: ya tienes 1 pieza de esta colección en tu carrito.",
    );
    const full = addToCart(cart, ring, "d1", 1, 2);
    expect(checkAdd(full, ring, 1, luna)).toBe(perPersonAddMessage(2, "Luna Nueva", 2));
    // Another drop's pieces do not count, and a drop without a limit has none.
    expect(checkAdd(full, chain, 1, { id: "d2", name: "Otra", maxPerOrder: 1 })).toBeNull();
    expect(checkAdd(full, ring, 1, { ...luna, maxPerOrder: null })).toBeNull();
  });

  it("never adds past the limit, and plus stops at it", () => {
    const cart = addToCart(addToCart(EMPTY_CART, anklet, "d1", 1, 2), ring, "d1", 5, 2);
    expect(cart.map((l) => l.quantity)).toEqual([1, 1]);
    expect(addToCart(cart, ring, "d1", 1, 2)).toBe(cart);
    const line = cart[1];
    if (!line) throw new Error("no line");
    expect(canIncrease(cart, line)).toBe(false);
    expect(increaseLine(cart, ring.id)).toBe(cart);
    const fewer = decreaseLine(cart, anklet.id);
    expect(increaseLine(fewer, ring.id)[0]?.quantity).toBe(2);
  });

  it("is kept in the saved cart", () => {
    const cart = addToCart(EMPTY_CART, ring, "d1", 1, 2);
    expect(cart[0]?.maxPerPerson).toBe(2);
    expect(parseStoredCart(JSON.stringify(cart))).toEqual(cart);
  });
});

describe("plus, minus and remove", () => {
  const start: Cart = addToCart(addToCart(EMPTY_CART, ring, "d1", 2), chain, "d2");

  it("plus adds one, never beyond stock", () => {
    const once = increaseLine(start, "r1");
    expect(once[0]?.quantity).toBe(3);
    expect(increaseLine(once, "r1")[0]?.quantity).toBe(3);
    expect(increaseLine(start, "c1")[1]?.quantity).toBe(1);
  });

  it("minus removes one, and removes the line at 1", () => {
    const once = decreaseLine(start, "r1");
    expect(once[0]?.quantity).toBe(1);
    expect(decreaseLine(once, "r1").map((l) => l.product.id)).toEqual(["c1"]);
    expect(decreaseLine(start, "nope")).toBe(start);
  });

  it("remove drops the whole line", () => {
    expect(removeFromCart(start, "c1").map((l) => l.product.id)).toEqual(["r1"]);
  });
});

describe("totals", () => {
  it("line total, subtotal and item count in centavos", () => {
    const cart = addToCart(addToCart(EMPTY_CART, ring, "d1", 2), chain, "d2");
    expect(cart[0] && lineTotalCents(cart[0])).toBe(960_000);
    expect(subtotalCents(cart)).toBe(2_210_050);
    expect(itemCount(cart)).toBe(3);
    expect(subtotalCents(EMPTY_CART)).toBe(0);
  });
});

describe("reconciling with the shop", () => {
  it("updates price and stock, trims quantities, drops gone or unsellable pieces", () => {
    const cart = addToCart(addToCart(EMPTY_CART, ring, "d1", 3), chain, "d2");
    const current = new Map([
      ["r1", { ...ring, priceCents: 500_000, stock: 2, purchasable: true }],
      ["c1", { ...chain, purchasable: false }],
    ]);
    expect(reconcileCartWithChanges(cart, current).cart).toEqual([
      { product: { ...ring, priceCents: 500_000, stock: 2 }, dropId: "d1", quantity: 2 },
    ]);
    expect(reconcileCartWithChanges(cart, new Map()).cart).toEqual([]);
  });

  it("follows the drop's 'Máximo N por persona' as the shop says it now", () => {
    const cart = addToCart(EMPTY_CART, ring, "d1", 1, 2);
    const now = (maxPerPerson?: number | null) =>
      reconcileCartWithChanges(cart, new Map([["r1", { ...ring, purchasable: true, maxPerPerson }]])).cart[0]
        ?.maxPerPerson;
    expect(now(1)).toBe(1);
    expect(now(null)).toBeUndefined();
    expect(now(undefined)).toBe(2);
  });
});

describe("what the drawer tells the shopper", () => {
  it("names each removed, reduced or repriced line, and a held piece apart from a sold one", () => {
    const cart = addToCart(addToCart(addToCart(EMPTY_CART, ring, "d1", 3), chain, "d2"), anklet, "d3");
    const current = new Map([
      ["r1", { ...ring, priceCents: 500_000, stock: 2, purchasable: true }],
      ["c1", { ...chain, stock: 0, held: 1, purchasable: true }],
      ["a1", { ...anklet, stock: 0, held: 0, purchasable: true }],
    ]);
    const { cart: next, changes } = reconcileCartWithChanges(cart, current);
    expect(next).toHaveLength(1);
    expect(changes).toEqual([
      { kind: "reducido", name: ring.name, from: 3, to: 2 },
      { kind: "precio", name: ring.name, fromCents: ring.priceCents, toCents: 500_000 },
      { kind: "apartado", name: chain.name },
      { kind: "agotado", name: anklet.name },
    ]);
    expect(changes.map(cartChangeMessage)).toEqual([
      `«${ring.name}»: solo quedan 2, así que cambiamos la cantidad de 3 a 2.`,
      `«${ring.name}» cambió de precio: antes ${formatMXN(ring.priceCents)}, ahora $5,000.00.`,
      `«${chain.name}»: Apartado — puede volver a estar disponible. Otra persona lo tiene en un pago que aún no termina, así que lo quitamos de tu carrito.`,
      `«${anklet.name}» se agotó y lo quitamos de tu carrito.`,
    ]);
  });

  it("says a closed collection, a piece taken off the shop, and nothing when the shop agrees with the cart", () => {
    const cart = addToCart(EMPTY_CART, ring, "d1", 1);
    expect(
      reconcileCartWithChanges(cart, new Map([["r1", { ...ring, purchasable: false }]])).changes,
    ).toEqual([{ kind: "cerrado", name: ring.name }]);
    const removed = reconcileCartWithChanges(cart, new Map()).changes;
    expect(removed.map(cartChangeMessage)).toEqual([
      `«${ring.name}» ya no está a la venta y lo quitamos de tu carrito.`,
    ]);
    expect(reconcileCartWithChanges(cart, new Map([["r1", { ...ring, purchasable: true }]])).changes).toEqual(
      [],
    );
  });
});

describe("the saved cart", () => {
  it("round-trips through JSON", () => {
    const cart = addToCart(addToCart(EMPTY_CART, ring, "d1", 2), chain, "d2");
    expect(parseStoredCart(JSON.stringify(cart))).toEqual(cart);
  });

  it("survives garbage, dropping only the bad lines", () => {
    expect(parseStoredCart(null)).toEqual([]);
    expect(parseStoredCart("{no es json")).toEqual([]);
    expect(parseStoredCart('{"a":1}')).toEqual([]);
    const mixed = JSON.stringify([
      { product: ring, dropId: "d1", quantity: 1 },
      { product: { ...chain, priceCents: 1.5 }, dropId: "d2", quantity: 1 },
      { product: chain, dropId: "d2", quantity: 0 },
      { product: ring, dropId: "d1", quantity: 2 },
    ]);
    expect(parseStoredCart(mixed)).toEqual([{ product: ring, dropId: "d1", quantity: 1 }]);
  });
});

describe("sizes: a line is a product in one size", () => {
  const sized: CartProduct = { ...ring, id: "s1", name: "Anillo Marea", stock: 3 };
  const size = (id: string, value: string, stock: number): CartOption => ({
    id,
    name: "Talla",
    value,
    stock,
  });
  const seven = size("o7", "7", 1);
  const eight = size("o8", "8", 2);

  it("keeps two sizes of one ring as two lines, each capped at its own stock", () => {
    let cart = addToCart(EMPTY_CART, sized, "d1", 1, null, seven);
    cart = addToCart(cart, sized, "d1", 5, null, eight);
    cart = addToCart(cart, sized, "d1", 1, null, seven);
    expect(cart.map((l) => [lineName(l), l.quantity])).toEqual([
      ["Anillo Marea talla 7", 1],
      ["Anillo Marea talla 8", 2],
    ]);
    const [line7, line8] = cart;
    if (!line7 || !line8) throw new Error("two lines");
    expect(canIncrease(cart, line7)).toBe(false);
    expect(increaseLine(cart, cartLineKey(line8))).toBe(cart);
    expect(removeFromCart(cart, cartLineKey(line7)).map(lineName)).toEqual(["Anillo Marea talla 8"]);
    expect(decreaseLine(cart, cartLineKey(line8)).map((l) => l.quantity)).toEqual([1, 1]);
  });

  it("checks an add against the size's stock, and the drop's limit across sizes", () => {
    const cart = addToCart(EMPTY_CART, sized, "d1", 1, null, seven);
    expect(checkAdd(cart, sized, 1, undefined, seven)).toBe(stockLimitMessage(1));
    expect(checkAdd(cart, sized, 2, undefined, eight)).toBeNull();
    const drop = { id: "d1", name: "Mareas", maxPerOrder: 2 };
    expect(checkAdd(cart, sized, 2, drop, eight)).toBe(perPersonAddMessage(2, "Mareas", 1));
    expect(quantityInCart(cart, sized.id, seven)).toBe(1);
    expect(quantityInCart(cart, sized.id, eight)).toBe(0);
  });

  it("brings a size up to date with the shop: its stock, a size held or gone, sizes added since", () => {
    const cart = addToCart(addToCart(EMPTY_CART, sized, "d1", 1, null, seven), sized, "d1", 2, null, eight);
    const now = (values: { id: string; value: string; stock: number; held?: number }[]) =>
      reconcileCartWithChanges(
        cart,
        new Map([["s1", { ...sized, purchasable: true, option: { name: "Talla" as const, values } }]]),
      );
    const kept = now([
      { id: "o7", value: "7", stock: 4 },
      { id: "o8", value: "8", stock: 1 },
    ]);
    expect(kept.cart.map((l) => [lineName(l), l.quantity, l.option?.stock])).toEqual([
      ["Anillo Marea talla 7", 1, 4],
      ["Anillo Marea talla 8", 1, 1],
    ]);
    expect(kept.changes).toEqual([{ kind: "reducido", name: "Anillo Marea talla 8", from: 2, to: 1 }]);
    const gone = now([
      { id: "o7", value: "7", stock: 0, held: 1 },
      { id: "o9", value: "9", stock: 3 },
    ]);
    expect(gone.cart).toEqual([]);
    expect(gone.changes).toEqual([
      { kind: "apartado", name: "Anillo Marea talla 7" },
      { kind: "talla_retirada", name: "Anillo Marea talla 8", option: "Talla" },
    ]);
    expect(cartChangeMessage(gone.changes[1] as CartChange)).toBe(
      "«Anillo Marea talla 8»: esa talla ya no está a la venta, así que lo quitamos de tu carrito.",
    );
    // The ring no longer sold by size at all: the sized lines go, said the same way.
    const sizesRemoved = reconcileCartWithChanges(cart, new Map([["s1", { ...sized, purchasable: true }]]));
    expect(sizesRemoved.cart).toEqual([]);
    expect(sizesRemoved.changes.map((c) => c.kind)).toEqual(["talla_retirada", "talla_retirada"]);
    // A line saved before the ring had sizes cannot be sold without one.
    const unsized = reconcileCartWithChanges(
      addToCart(EMPTY_CART, sized, "d1"),
      new Map([["s1", { ...sized, purchasable: true, option: { name: "Talla" as const, values: [] } }]]),
    );
    expect(unsized.changes.map(cartChangeMessage)).toEqual([
      "«Anillo Marea» ahora se vende por talla: lo quitamos de tu carrito; elige la tuya en su página.",
    ]);
  });

  it("saves the size with the line, and drops a line whose size cannot be read", () => {
    const cart = addToCart(addToCart(EMPTY_CART, sized, "d1", 1, null, seven), sized, "d1", 1, null, eight);
    expect(parseStoredCart(JSON.stringify(cart))).toEqual(cart);
    const bad = JSON.stringify([
      {
        product: sized,
        dropId: "d1",
        quantity: 1,
        option: { id: "o7", name: "Color", value: "7", stock: 1 },
      },
      { product: sized, dropId: "d1", quantity: 1, option: seven },
      { product: sized, dropId: "d1", quantity: 1, option: seven },
    ]);
    expect(parseStoredCart(bad)).toEqual([{ product: sized, dropId: "d1", quantity: 1, option: seven }]);
  });
});
