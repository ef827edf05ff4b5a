import type { ProductTileView } from "~/catalogue/views.server";
import { useHydrated } from "./hydration";
import { ProductTile, type TileMoment } from "./product-tile";
import type { SwipeOptions } from "./swipe/swipe-types";
import { SWIPE_VIEWPORT, useSwipe } from "./swipe/use-swipe";

const OPTIONS: SwipeOptions = { loop: true, align: "start" };

/**
 * Four products at a time on wide screens (two on phones); previous and next move one piece and
 * wrap around, a swipe moves it too. The server sends every piece in a scroll-snap list, so the
 * list scrolls without JavaScript; Embla takes it over once loaded (decision 21).
 */
export function ProductCarousel({
  products,
  label,
  moment,
}: {
  products: ProductTileView[];
  label: string;
  moment: TileMoment;
}) {
  const n = products.length;
  const swipe = useSwipe(n, OPTIONS);
  const hydrated = useHydrated();
  if (n === 0) return null;
  const canMove = n > 2;
  return (
    <section aria-roledescription="carrusel" aria-label={label} className="relative" {...swipe.region}>
      {canMove && (
        // Four pieces fit a wide screen: with four or fewer there is nothing to move there.
        <div className={`mb-4 flex justify-end gap-2 ${n <= 4 ? "md:hidden" : ""}`}>
          <button
            type="button"
            disabled={!hydrated}
            onClick={swipe.prev}
            className="grid size-11 place-items-center rounded-full border border-ink/20 hover:bg-sand"
            aria-label={`Anterior en ${label}`}
          >
            <span aria-hidden="true">←</span>
          </button>
          <button
            type="button"
            disabled={!hydrated}
            onClick={swipe.next}
            className="grid size-11 place-items-center rounded-full border border-ink/20 hover:bg-sand"
            aria-label={`Siguiente en ${label}`}
          >
            <span aria-hidden="true">→</span>
          </button>
        </div>
      )}
      <div ref={swipe.viewport} className={SWIPE_VIEWPORT}>
        <ul className="-mr-4 flex">
          {products.map((product) => (
            <li key={product.id} className="min-w-0 shrink-0 basis-1/2 snap-start pr-4 md:basis-1/4">
              <ProductTile product={product} sizes="(min-width: 768px) 25vw, 50vw" moment={moment} />
            </li>
          ))}
        </ul>
      </div>
      {swipe.driver}
    </section>
  );
}
