import { type Cart, EMPTY_CART, parseStoredCart } from "./cart";

const STORAGE_KEY = "oro-de-luna:cart:v1";

/**
 * The cart lives in the browser (localStorage) and survives a reload; other tabs follow along
 * through the storage event. On the server the cart is always empty.
 */
let cart: Cart = EMPTY_CART;
let loaded = false;
const listeners = new Set<() => void>();

function load() {
  if (loaded || typeof window === "undefined") return;
  loaded = true;
  try {
    cart = parseStoredCart(window.localStorage.getItem(STORAGE_KEY));
  } catch {
    cart = EMPTY_CART; // storage disabled (private mode): the cart still works for this visit
  }
}

function emit() {
  for (const listener of listeners) listener();
}

function onStorage(event: StorageEvent) {
  if (event.key !== STORAGE_KEY) return;
  cart = parseStoredCart(event.newValue);
  emit();
}

export const cartStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    if (listeners.size === 1) window.addEventListener("storage", onStorage);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) window.removeEventListener("storage", onStorage);
    };
  },
  getSnapshot(): Cart {
    load();
    return cart;
  },
  getServerSnapshot(): Cart {
    return EMPTY_CART;
  },
  update(change: (current: Cart) => Cart): void {
    load();
    const next = change(cart);
    if (next === cart) return;
    cart = next;
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(cart));
    } catch {
      // Quota or privacy mode: keep the in-memory cart.
    }
    emit();
  },
};
