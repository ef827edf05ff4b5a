import { type RefObject, useEffect, useRef } from "react";

/**
 * What a shopper chose before the page's code ran (a slow phone, a page opened from WhatsApp):
 * React keeps what the inputs show when it takes over the page but never sees those changes, so
 * the page's state would disagree with what is on screen (a shipping picked, a summary still
 * showing another). Returns a ref for the form; once, on taking over, `read` gets it to catch up.
 */
export function useChoicesBeforeHydration<T extends HTMLElement>(
  read: (form: T) => void,
): RefObject<T | null> {
  const ref = useRef<T>(null);
  const reader = useRef(read);
  reader.current = read;
  useEffect(() => {
    if (ref.current) reader.current(ref.current);
  }, []);
  return ref;
}

/** The value of the radio button named `name` that is checked in `form`, if one is. */
export function checkedValue(form: HTMLElement, name: string): string | null {
  const field = form.querySelector<HTMLInputElement>(`input[type="radio"][name="${name}"]:checked`);
  return field?.value ?? null;
}
