import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";
import {
  addToCart,
  type Cart,
  type CartProduct,
  decreaseLine,
  EMPTY_CART,
  increaseLine,
  itemCount,
  removeFromCart,
  subtotalCents,
} from "./cart";
import { cartStore } from "./cart-store";

interface CartContextValue {
  cart: Cart;
  count: number;
  subtotalCents: number;
  add(product: CartProduct, dropId: string, quantity?: number): void;
  remove(productId: string): void;
  increase(productId: string): void;
  decrease(productId: string): void;
  clear(): void;
  replace(change: (cart: Cart) => Cart): void;
  /** The spec's show-cart flag: whether the drawer is open. */
  showCart: boolean;
  setShowCart(show: boolean): void;
}

const CartContext = createContext<CartContextValue | null>(null);

export function CartProvider({ children }: { children: ReactNode }) {
  const cart = useSyncExternalStore(cartStore.subscribe, cartStore.getSnapshot, cartStore.getServerSnapshot);
  const [showCart, setShowCart] = useState(false);
  const replace = useCallback((change: (c: Cart) => Cart) => cartStore.update(change), []);
  const value = useMemo<CartContextValue>(
    () => ({
      cart,
      count: itemCount(cart),
      subtotalCents: subtotalCents(cart),
      add: (product, dropId, quantity) => replace((c) => addToCart(c, product, dropId, quantity)),
      remove: (id) => replace((c) => removeFromCart(c, id)),
      increase: (id) => replace((c) => increaseLine(c, id)),
      decrease: (id) => replace((c) => decreaseLine(c, id)),
      clear: () => replace(() => EMPTY_CART),
      replace,
      showCart,
      setShowCart,
    }),
    [cart, showCart, replace],
  );
  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart(): CartContextValue {
  const value = useContext(CartContext);
  if (!value) throw new Error("useCart must be used inside <CartProvider>");
  return value;
}
