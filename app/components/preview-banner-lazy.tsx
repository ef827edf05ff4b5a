import { type ComponentProps, lazy, Suspense } from "react";
import type { PreviewBanner as Banner } from "./preview-banner";

/*
 * The banner shows only to the administrator previewing a drop (decision 38), so its code is
 * fetched only then: a shopper's product and collection pages stay within their budget of
 * JavaScript (`npm run bench:storefront`).
 */
const LazyBanner = lazy(() => import("./preview-banner").then((m) => ({ default: m.PreviewBanner })));

export function PreviewBanner(props: ComponentProps<typeof Banner>) {
  return (
    <Suspense fallback={null}>
      <LazyBanner {...props} />
    </Suspense>
  );
}
