import { type ComponentProps, lazy, Suspense } from "react";
import type { RouteError as Body } from "./route-error-body";

/*
 * A route's error boundary (./route-error-body). Its code is fetched only when a page shows an
 * error: every storefront page's JavaScript (`npm run bench:storefront`) leaves it out.
 */
const LazyBody = lazy(() => import("./route-error-body").then((m) => ({ default: m.RouteError })));

export function RouteError(props: ComponentProps<typeof Body>) {
  return (
    <Suspense fallback={null}>
      <LazyBody {...props} />
    </Suspense>
  );
}
