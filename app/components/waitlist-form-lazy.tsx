import { type ComponentProps, lazy, Suspense } from "react";
import type { WaitlistForm as Form, RestockForm as Restock } from "./waitlist-form";

/*
 * 'Avísame' only shows on upcoming drops, and 'Avísame si vuelve' only on sold-out pieces, so
 * their code is fetched only by pages that show them: a running drop's pages (the ones a drop-day
 * crowd loads) stay within the product page's budget of JavaScript (`npm run bench:storefront`).
 */
const load = () => import("./waitlist-form");
const LazyForm = lazy(() => load().then((m) => ({ default: m.WaitlistForm })));
const LazyRestock = lazy(() => load().then((m) => ({ default: m.RestockForm })));

export function WaitlistForm(props: ComponentProps<typeof Form>) {
  return (
    <Suspense fallback={null}>
      <LazyForm {...props} />
    </Suspense>
  );
}

export function RestockForm(props: ComponentProps<typeof Restock>) {
  return (
    <Suspense fallback={null}>
      <LazyRestock {...props} />
    </Suspense>
  );
}
