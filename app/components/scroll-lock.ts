import { useEffect } from "react";

/*
 * While a sheet (the cart drawer, a filter sheet…) is open, the page behind it must not scroll:
 * a wheel or a swipe over the dimmed backdrop would otherwise move the page the shopper comes
 * back to. The document stops scrolling (overflow: hidden on <html>, which phones' browsers
 * honour for touch too) and is put back where it was when the last sheet closes. Counted, so two
 * sheets open at once release the page only when both have closed.
 */
let holders = 0;
let saved: { overflow: string; paddingRight: string; x: number; y: number } | null = null;

/** Locks the page's scroll; the function it returns releases this lock (once). */
export function lockScroll(): () => void {
  const root = document.documentElement;
  if (holders === 0) {
    // Where the scrollbar was, the page keeps its width: nothing behind the sheet shifts.
    const scrollbar = window.innerWidth - root.clientWidth;
    saved = {
      overflow: root.style.overflow,
      paddingRight: root.style.paddingRight,
      x: window.scrollX,
      y: window.scrollY,
    };
    root.style.overflow = "hidden";
    if (scrollbar > 0) root.style.paddingRight = `${scrollbar}px`;
  }
  holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
    if (holders > 0 || !saved) return;
    root.style.overflow = saved.overflow;
    root.style.paddingRight = saved.paddingRight;
    window.scrollTo({ left: saved.x, top: saved.y, behavior: "instant" });
    saved = null;
  };
}

/** Keeps the page behind still while `active` (e.g. while a drawer is open). */
export function useScrollLock(active: boolean): void {
  useEffect(() => (active ? lockScroll() : undefined), [active]);
}
