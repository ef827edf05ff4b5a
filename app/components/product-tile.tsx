import { useState } from "react";
import { Link } from "react-router";
import type { DropTimeState } from "~/catalogue/drop-time";
import { pieceLabel } from "~/catalogue/storefront";
import type { ProductTileView } from "~/catalogue/views.server";
import { useHydrated } from "./hydration";
import { ResponsiveImage } from "./responsive-image";

/** Where the piece's drop stands now (on the server's clock), which decides the tile's label. */
export interface TileMoment {
  state: DropTimeState;
  archived: boolean;
}

/** A product in a grid or carousel. The like toggle lives on the page only and is not stored. */
export function ProductTile({
  product,
  sizes,
  moment,
}: {
  product: ProductTileView;
  sizes: string;
  moment: TileMoment;
}) {
  const [liked, setLiked] = useState(false);
  const hydrated = useHydrated();
  const label = pieceLabel(moment.state, moment.archived, product.stock, product.held);
  return (
    <article className="group relative" aria-label={product.name}>
      <Link to={product.href} className="block" prefetch="intent">
        <div className="relative overflow-hidden rounded-md bg-sand">
          {product.image && (
            <ResponsiveImage
              image={product.image}
              alt={product.image.alt || product.name}
              sizes={sizes}
              className="aspect-square h-auto w-full object-cover transition-transform duration-500 group-hover:scale-105"
            />
          )}
          {label && (
            <span className="absolute bottom-2 left-2 rounded-full bg-cream/90 px-2.5 py-1 text-xs font-medium">
              {label}
            </span>
          )}
        </div>
        <h3 className="mt-2 text-sm font-medium">{product.name}</h3>
        <p className="text-sm text-ink/70">{product.price}</p>
      </Link>
      <button
        type="button"
        disabled={!hydrated}
        onClick={() => setLiked((v) => !v)}
        aria-pressed={liked}
        aria-label={`Me gusta ${product.name}`}
        className="absolute right-2 top-2 grid size-11 place-items-center rounded-full bg-cream/90 text-gold-700"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5"
          fill={liked ? "currentColor" : "none"}
          stroke="currentColor"
          strokeWidth="1.8"
        >
          <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z" />
        </svg>
      </button>
    </article>
  );
}
