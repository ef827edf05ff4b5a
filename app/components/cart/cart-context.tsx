import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";
import {
  addToCart,
  type Cart,
  type CartOption,
  type CartProduct,
  decreaseLine,
  EMPTY_CART,
  increaseLine,
  itemCount,
  removeFromCart,
  subtotalCents,
} from "~/cart/cart";
import { cartStore } from "~/cart/cart-store";

interface CartContextValue {
  cart: Cart;
  count: number;
  subtotalCents: number;
  /**
   * `maxPerPerson`: the drop's 'Máximo N por persona', kept on the line for the drawer's plus;
   * `option`: the size chosen, for a product with sizes.
   */
  add(
    product: CartProduct,
    dropId: string,
    quantity?: number,
    maxPerPerson?: number | null,
    option?: CartOption,
  ): void;
  /** `key`: the line's `cartLineKey` (product, and size when it has one). */
  remove(key: string): void;
  increase(key: string): void;
  decrease(key: string): void;
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
  // The actions keep their identity while the cart changes: an effect that depends on one (the
  // /success page's clear) runs once, not again whenever another tab edits the cart.
  const actions = useMemo(
    () => ({
      add: (
        product: CartProduct,
        dropId: string,
        quantity?: number,
        maxPerPerson?: number | null,
        option?: CartOption,
      ) => replace((c) => addToCart(c, product, dropId, quantity, maxPerPerson, option)),
      remove: (id: string) => replace((c) => removeFromCart(c, id)),
      increase: (id: string) => replace((c) => increaseLine(c, id)),
      decrease: (id: string) => replace((c) => decreaseLine(c, id)),
      clear: () => replace(() => EMPTY_CART),
      replace,
    }),
    [replace],
  );
  const value = useMemo<CartContextValue>(
    () => ({
      cart,
      count: itemCount(cart),
      subtotalCents: subtotalCents(cart),
      ...actions,
      showCart,
      setShowCart,
    }),
    [cart, showCart, actions],
  );
  // A cart with something in it may soon check out: the proof of work starts solving now. Its
  // code is fetched then too, not with every page: most visits never fill a cart.
  const hasItems = cart.length > 0;
  useEffect(() => {
    if (hasItems) void import("~/cart/proof-of-work").then((m) => m.prepareProofOfWork());
  }, [hasItems]);
  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

export function useCart(): CartContextValue {
  const value = useContext(CartContext);
  if (!value) throw new Error("useCart must be used inside <CartProvider>");
  return value;
}
