import { lazy, Suspense, useEffect, useState } from "react";
import { useCart } from "./cart-context";

/*
 * The cart drawer's code (the drawer, the cart's re-check, the checkout) is not needed to show a
 * page, only to open the bag: it is fetched once the page is idle, or at the first open, so a
 * phone arriving on drop day loads and runs less before the page answers its taps.
 */
const CartDrawer = lazy(() => import("./cart-drawer").then((m) => ({ default: m.CartDrawer })));

const whenIdle = (run: () => void) =>
  typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(run) : setTimeout(run, 1_500);

export function LazyCartDrawer() {
  const { showCart } = useCart();
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (showCart) setOpened(true);
  }, [showCart]);
  useEffect(() => {
    whenIdle(() => void import("./cart-drawer"));
  }, []);
  if (!opened && !showCart) return null;
  return (
    <Suspense fallback={null}>
      <CartDrawer />
    </Suspense>
  );
}
