import { lazy, Suspense, useEffect, useState } from "react";
import type { InstallmentsOffer } from "~/settings/installments";
import type { ShippingOffer } from "~/settings/shipping-rates";
import { useCart } from "./cart-context";

/*
 * The cart drawer's code (the drawer, the cart's re-check, the checkout) is not needed to show a
 * page, only to open the bag: it is fetched at the first sign the shopper may open it (a finger
 * or pointer on the cart button, focus on it), once the page is idle when the cart already holds
 * something or the page offers 'Agregar al carrito', or at the first open. A visit that never fills the cart, home's above all, never
 * loads it (home's JavaScript budget, `npm run bench:storefront`).
 */
const load = () => import("./cart-drawer");
const CartDrawer = lazy(() => load().then((m) => ({ default: m.CartDrawer })));

/** Starts fetching the drawer's code; the cart button calls it when a tap or a click is coming. */
export function prefetchCartDrawer(): void {
  void load();
}

const whenIdle = (run: () => void) =>
  typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(run) : setTimeout(run, 1_500);

/** Fetches the drawer's code once the page is idle: a page whose button opens the drawer. */
export function usePrefetchCartDrawer(wanted: boolean): void {
  useEffect(() => {
    if (wanted) whenIdle(prefetchCartDrawer);
  }, [wanted]);
}

/**
 * `shipping`: the shop's shipping policy in a sentence, said under the subtotal; `installments`:
 * 'meses sin intereses'; `rates`: the standard shipping and the free-shipping total (decision 43).
 */
export function LazyCartDrawer({
  shipping,
  installments,
  rates,
}: {
  shipping: string | null;
  installments: InstallmentsOffer | null;
  rates: ShippingOffer | null;
}) {
  const { showCart, count } = useCart();
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (showCart) setOpened(true);
  }, [showCart]);
  usePrefetchCartDrawer(count > 0);
  if (!opened && !showCart) return null;
  return (
    <Suspense fallback={null}>
      <CartDrawer shipping={shipping} installments={installments} rates={rates} />
    </Suspense>
  );
}
