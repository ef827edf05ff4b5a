import { lazy, Suspense, useRef, useState } from "react";
import type { ImageView } from "~/media/media.server";
import { useHydrated } from "./hydration";
import { ResponsiveImage } from "./responsive-image";
import type { SwipeOptions } from "./swipe/swipe-types";
import { SWIPE_VIEWPORT, useSwipe } from "./swipe/use-swipe";

// The zoom viewer is fetched only when a photo is tapped (decision 21).
const PhotoLightbox = lazy(() => import("./photo-lightbox"));

const OPTIONS: SwipeOptions = { loop: true };

/** The largest stored copy: what a photo opens to without JavaScript, pinch-zoomable there too. */
const largest = (image: ImageView) => image.srcSet.split(", ").pop()?.split(" ")[0] || image.src;

/**
 * The product's photos: one at a time, swiped (or chosen from the thumbnails); tapping one opens
 * it full size in a viewer with pinch and double-tap zoom.
 */
export function ProductGallery({ images, name }: { images: ImageView[]; name: string }) {
  const n = images.length;
  const swipe = useSwipe(n, OPTIONS);
  const hydrated = useHydrated();
  const [zoomAt, setZoomAt] = useState<number | null>(null);
  const links = useRef<(HTMLAnchorElement | null)[]>([]);
  if (n === 0) return null;
  const alts = images.map((image, i) => image.alt || (i ? `${name}, vista ${i + 1}` : name));
  return (
    // min-w-0: the sideways list must not widen the page's grid column.
    <div className="min-w-0">
      <section
        aria-roledescription="carrusel"
        aria-label={`Fotos de ${name}`}
        className="relative"
        {...swipe.region}
      >
        <div ref={swipe.viewport} className={`rounded-lg ${SWIPE_VIEWPORT}`}>
          <ul className="flex">
            {images.map((image, i) => (
              <li key={image.src} className="min-w-0 shrink-0 basis-full snap-start">
                <a
                  ref={(el) => {
                    links.current[i] = el;
                  }}
                  href={largest(image)}
                  aria-label={`Ampliar foto ${i + 1} de ${n}`}
                  className="block cursor-zoom-in"
                  onClick={(event) => {
                    event.preventDefault();
                    setZoomAt(i);
                  }}
                >
                  <ResponsiveImage
                    image={image}
                    alt={alts[i] ?? name}
                    sizes="(min-width: 768px) 50vw, 100vw"
                    priority={i === 0}
                    // Shorter on phones, so the name, the price and 'Agregar al carrito' fit the
                    // first screen under it.
                    className="aspect-[3/2] h-auto w-full object-cover sm:aspect-[4/3] md:aspect-square"
                  />
                </a>
              </li>
            ))}
          </ul>
        </div>
        {/* Shown once it can follow the swipes (without JavaScript it would stay at 1). */}
        {n > 1 && swipe.ready && (
          <p
            aria-hidden="true"
            className="pointer-events-none absolute right-3 bottom-3 rounded-full bg-cream/90 px-2.5 py-1 text-xs"
          >
            {swipe.index + 1} / {n}
          </p>
        )}
        {swipe.driver}
      </section>
      {n > 1 && (
        <ul className="mt-3 grid grid-cols-5 gap-2" aria-label="Galería">
          {images.map((image, i) => (
            <li key={image.src}>
              <button
                type="button"
                disabled={!hydrated}
                onClick={() => swipe.goTo(i)}
                aria-pressed={i === swipe.index}
                aria-label={`Ver imagen ${i + 1} de ${n}`}
                className={`block overflow-hidden rounded border-2 ${i === swipe.index ? "border-gold-700" : "border-transparent"}`}
              >
                <img
                  src={image.src}
                  srcSet={image.srcSet}
                  sizes="20vw"
                  width={image.width}
                  height={image.height}
                  alt=""
                  loading="lazy"
                  className="aspect-square h-auto w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
      {zoomAt !== null && (
        <Suspense fallback={null}>
          <PhotoLightbox
            images={images}
            alts={alts}
            index={zoomAt}
            title={name}
            onView={swipe.goTo}
            onClose={() => {
              setZoomAt(null);
              // Back to the photo shown now (the viewer may have moved the gallery), without
              // scrolling the carousel's hidden overflow past what it shows.
              links.current[swipe.index]?.focus({ preventScroll: true });
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
