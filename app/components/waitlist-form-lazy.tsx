import { type ComponentProps, lazy, Suspense } from "react";
import type { WaitlistForm as Form } from "./waitlist-form";

/*
 * 'Avísame' only shows on upcoming drops, so its code is fetched only by pages that show it: a
 * running drop's pages (the ones a drop-day crowd loads) stay within the product page's budget of
 * JavaScript (`npm run bench:storefront`).
 */
const LazyForm = lazy(() => import("./waitlist-form").then((m) => ({ default: m.WaitlistForm })));

export function WaitlistForm(props: ComponentProps<typeof Form>) {
  return (
    <Suspense fallback={null}>
      <LazyForm {...props} />
    </Suspense>
  );
}
