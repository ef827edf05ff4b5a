import { type KeyboardEvent, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import type { SwipeApi, SwipeOptions } from "./swipe-types";

// Embla is not needed to show a page, only to swipe it: fetched once the page is idle or at the
// first touch, so it never weighs on the page's first load (the product page's JavaScript budget).
const EmblaDriver = lazy(() => import("./embla-driver"));

const whenIdle = (run: () => void) =>
  typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(run) : setTimeout(run, 1_500);

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Classes of the list's viewport: as the server sends it, a CSS scroll-snap list that swipes
 * natively (without JavaScript too); once Embla has it (`data-swipe`), Embla moves it.
 */
export const SWIPE_VIEWPORT =
  "snap-x snap-mandatory overflow-x-auto overscroll-x-contain [scrollbar-width:none] data-swipe:snap-none data-swipe:overflow-hidden data-swipe:touch-pan-y data-swipe:touch-pinch-zoom";

/**
 * A sideways list of `count` slides (the viewport's first child holds them): which slide leads,
 * previous/next that wrap, a slide by number, arrow keys; Embla's swipe once it is loaded.
 */
export function useSwipe(count: number, options: SwipeOptions) {
  const viewport = useRef<HTMLDivElement>(null);
  const [api, setApi] = useState<SwipeApi | null>(null);
  const [wanted, setWanted] = useState(false);
  const [index, setIndex] = useState(0);
  // A tap before Embla has loaded is kept and done as soon as it is there.
  const pending = useRef<((api: SwipeApi) => void) | null>(null);
  const want = () => setWanted(true);

  useEffect(() => {
    whenIdle(() => setWanted(true));
  }, []);
  useEffect(() => {
    if (!api) return;
    const select = () => setIndex(api.selectedScrollSnap());
    select();
    pending.current?.(api);
    pending.current = null;
    api.on("select", select);
    return () => void api.off("select", select);
  }, [api]);

  const run = (move: (api: SwipeApi) => void) => {
    if (api) move(api);
    else {
      pending.current = move;
      want();
    }
  };
  const goTo = (to: number) => run((a) => a.scrollTo(to, reducedMotion()));
  // Wrapping even when there are too few slides for Embla's loop (five pieces four at a time).
  const next = () =>
    run((a) => (a.canScrollNext() ? a.scrollNext(reducedMotion()) : a.scrollTo(0, reducedMotion())));
  const prev = () =>
    run((a) =>
      a.canScrollPrev()
        ? a.scrollPrev(reducedMotion())
        : a.scrollTo(a.scrollSnapList().length - 1, reducedMotion()),
    );

  const driver: ReactNode =
    wanted && count > 1 ? (
      <Suspense fallback={null}>
        <EmblaDriver viewport={viewport} options={options} onApi={setApi} />
      </Suspense>
    ) : null;

  return {
    viewport,
    index,
    /** Embla has the list: `index` follows what is shown. */
    ready: api !== null,
    goTo,
    next,
    prev,
    driver,
    /** For the carousel's region: arrow keys, and Embla at the first touch or focus. */
    region: {
      onPointerDown: want,
      onFocus: want,
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
        event.preventDefault();
        if (event.key === "ArrowRight") next();
        else prev();
      },
    },
  };
}
