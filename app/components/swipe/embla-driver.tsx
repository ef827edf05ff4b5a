import useEmblaCarousel from "embla-carousel-react";
import { type RefObject, useEffect, useState } from "react";
import type { SwipeApi, SwipeOptions } from "./swipe-types";

/**
 * Hands a server-rendered, natively scrolling list to Embla (loaded on its own, after the page is
 * shown). It renders nothing: the list's markup stays the one the server sent.
 */
export default function EmblaDriver({
  viewport,
  options,
  onApi,
}: {
  viewport: RefObject<HTMLDivElement | null>;
  options: SwipeOptions;
  onApi: (api: SwipeApi) => void;
}) {
  // Where the shopper had scrolled to before Embla took over is where Embla starts.
  const [startIndex] = useState(() => nearestSlide(viewport.current));
  // With reduced motion a released swipe settles at once instead of gliding.
  const [quick] = useState(() => window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  const [attach, api] = useEmblaCarousel({ ...options, startIndex, ...(quick ? { duration: 1 } : {}) });
  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    // Embla moves the list with a transform: the native scroll is reset and switched off first.
    element.scrollLeft = 0;
    element.setAttribute("data-swipe", "");
    attach(element);
    return () => element.removeAttribute("data-swipe");
  }, [viewport, attach]);
  useEffect(() => {
    if (api) onApi(api);
  }, [api, onApi]);
  return null;
}

function nearestSlide(element: HTMLDivElement | null): number {
  const slides = element?.firstElementChild?.children;
  if (!element || !slides?.length) return 0;
  const step = (slides[0] as HTMLElement).offsetWidth || 1;
  return Math.min(slides.length - 1, Math.round(element.scrollLeft / step));
}
