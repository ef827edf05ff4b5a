import type { Illustration } from "~/content/brand";

/**
 * One of the brand's illustrations at full width, with its own size (no layout shift) and a sand
 * placeholder while it loads. Lazy unless `eager` (for one near the top of the page).
 */
export function Picture({
  image,
  eager = false,
  className = "",
}: {
  image: Illustration;
  eager?: boolean;
  className?: string;
}) {
  return (
    <img
      src={image.src}
      alt={image.alt}
      width={image.width}
      height={image.height}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className={`h-auto w-full bg-sand ${className}`}
    />
  );
}
