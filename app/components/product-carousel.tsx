import { useState } from "react";
import type { ProductTileView } from "~/catalogue/views.server";
import { ProductTile, type TileMoment } from "./product-tile";

/**
 * Four products at a time on wide screens (two on phones); previous and next wrap around. The
 * list is rotated rather than scrolled, so wrapping works whatever the number of products.
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
  const [start, setStart] = useState(0);
  if (products.length === 0) return null;
  const n = products.length;
  // Only the pieces on screen are rendered: four on wide screens, the first two of them on phones.
  const visible = Array.from(
    { length: Math.min(4, n) },
    (_, i) => products[(start + i) % n] as ProductTileView,
  );
  const canMove = n > 2;
  return (
    <section aria-roledescription="carrusel" aria-label={label} className="relative">
      {canMove && (
        <div className="mb-4 flex justify-end gap-2">
          <button
            type="button"
            onClick={() => setStart((s) => (s - 1 + n) % n)}
            className="grid size-11 place-items-center rounded-full border border-ink/20 hover:bg-sand"
            aria-label={`Anterior en ${label}`}
          >
            <span aria-hidden="true">←</span>
          </button>
          <button
            type="button"
            onClick={() => setStart((s) => (s + 1) % n)}
            className="grid size-11 place-items-center rounded-full border border-ink/20 hover:bg-sand"
            aria-label={`Siguiente en ${label}`}
          >
            <span aria-hidden="true">→</span>
          </button>
        </div>
      )}
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-live="polite">
        {visible.map((product, i) => (
          <li key={product.id} className={i >= 2 ? "hidden md:block" : undefined}>
            <ProductTile product={product} sizes="(min-width: 768px) 25vw, 50vw" moment={moment} />
          </li>
        ))}
      </ul>
    </section>
  );
}
