import { type RefObject, useEffect, useRef, useSyncExternalStore } from "react";

/**
 * False in the server's HTML and until hydration, then true (at once on a page reached by a client
 * navigation): no-script fallbacks go away, and controls that only the page's code can work (a
 * button that opens the cart, one that adds to it) are disabled until then, so a tap on a slow
 * phone is not lost or taken by the browser as a plain form's.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
}

/**
 * Marks the page `<html data-hydrated>` once its code runs and the controls waiting for it are
 * enabled: what the browser tests wait for before they check a page's accessibility.
 */
export function useMarkHydrated(): void {
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated) document.documentElement.dataset.hydrated = "";
  }, [hydrated]);
}

/**
 * What a shopper chose before the page's code ran (a slow phone, a page opened from WhatsApp):
 * React keeps what the inputs show when it takes over the page but never sees those changes, so
 * the page's state would disagree with what is on screen (a shipping picked, a summary still
 * showing another). Returns a ref for the form; `read` gets it once, when the code takes over the
 * server's page (not on a page reached by a client navigation, which shows only what the state says).
 */
export function useChoicesBeforeHydration<T extends HTMLElement>(
  read: (form: T) => void,
): RefObject<T | null> {
  const ref = useRef<T>(null);
  // True at the first render only when it is the server's HTML being taken over; false once read,
  // so development's second run of the effect does not read the form the first already changed.
  const toRead = useRef(!useHydrated());
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the first render's `read`
  useEffect(() => {
    if (!toRead.current || !ref.current) return;
    toRead.current = false;
    read(ref.current);
  }, []);
  return ref;
}

/** The value of the radio button named `name` that is checked in `form`, if one is. */
export function checkedValue(form: HTMLElement, name: string): string | null {
  const field = form.querySelector<HTMLInputElement>(`input[type="radio"][name="${name}"]:checked`);
  return field?.value ?? null;
}
