import type { ImageView } from "~/media/media.server";

/** WebP in several widths with width/height set, so nothing shifts while it loads. */
export function ResponsiveImage({
  image,
  alt,
  sizes,
  priority = false,
  className,
}: {
  image: ImageView;
  alt: string;
  sizes: string;
  /** Above the fold: load at once. Everything else loads lazily. */
  priority?: boolean;
  className?: string;
}) {
  return (
    <img
      src={image.src}
      srcSet={image.srcSet}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={priority ? "high" : undefined}
      className={className}
    />
  );
}
