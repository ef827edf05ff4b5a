import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import type { OptionName } from "~/db/taxonomy";
import { useHydrated } from "./hydration";

// The tables and steps load when the guide is first opened: most visits never open it, and the
// product page stays within its JavaScript budget (bench:storefront).
const GuideBody = lazy(() => import("./size-guide-body"));

/** 'Guía de tallas' (or 'Guía de largos'): a link-like button that opens the guide in a dialog. */
export function SizeGuide({ option }: { option: OptionName }) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const title = option === "Talla" ? "Guía de tallas" : "Guía de largos";
  useEffect(() => {
    const dialog = ref.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);
  return (
    <>
      <button
        type="button"
        disabled={!hydrated}
        onClick={() => setOpen(true)}
        className="min-h-8 text-sm underline underline-offset-4 sm:min-h-11"
        aria-haspopup="dialog"
      >
        {title}
      </button>
      {open && (
        <dialog
          ref={ref}
          aria-labelledby={titleId}
          onClose={() => setOpen(false)}
          className="m-auto max-h-[90dvh] w-[calc(100%-2rem)] max-w-md overflow-y-auto rounded-xl bg-cream p-5 text-ink shadow-xl backdrop:bg-black/50"
        >
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="font-serif text-2xl">
              {title}
            </h2>
            <button
              type="button"
              onClick={() => ref.current?.close()}
              className="grid size-11 place-items-center rounded-full text-2xl"
              aria-label="Cerrar la guía"
            >
              ×
            </button>
          </div>
          <Suspense fallback={<p className="mt-3 text-sm">Cargando la guía…</p>}>
            <GuideBody option={option} />
          </Suspense>
        </dialog>
      )}
    </>
  );
}
