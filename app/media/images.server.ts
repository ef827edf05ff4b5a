import sharp from "sharp";

/** Widths each image is stored in; the browser picks one through srcset. */
export const IMAGE_WIDTHS = [480, 960, 1600] as const;

export interface ProcessedImage {
  width: number;
  height: number;
  variants: { width: number; body: Buffer }[];
}

export class ImageRejected extends Error {}

/** What the owner reads about an iPhone HEIC photo (the pipeline and the upload route say it alike). */
export const HEIC_REFUSED = "Las fotos HEIC no se pueden usar: guárdala como JPG o PNG.";

const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "avif", "gif", "heif", "tiff", "svg"]);

/**
 * Checks an image by its content (not its name) and re-encodes it to WebP in the widths that fit
 * within the original. Metadata (EXIF, GPS) is dropped by re-encoding.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(input).metadata();
  } catch {
    throw new ImageRejected("El archivo no es una imagen válida.");
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format) || !meta.width || !meta.height) {
    throw new ImageRejected("El archivo no es una imagen válida.");
  }
  // HEIF holds AVIF (AV1, decoded) and iPhone HEIC photos (HEVC, which sharp cannot decode here).
  if (meta.format === "heif" && meta.compression === "hevc") {
    throw new ImageRejected(HEIC_REFUSED);
  }
  const rotated = meta.orientation && meta.orientation >= 5; // EXIF 5-8 swap width and height
  const width = rotated ? meta.height : meta.width;
  const height = rotated ? meta.width : meta.height;
  // A small image is kept at its own width rather than enlarged.
  const fitting: number[] = IMAGE_WIDTHS.filter((w) => w <= width);
  const widths = fitting.length > 0 ? fitting : [width];

  // Decoded, turned upright and scaled to the largest width once; every width is encoded from
  // those pixels (an SVG or a 12-megapixel photo is not decoded again for each). Raw pixels carry
  // no metadata, so EXIF and GPS are gone.
  const largest = widths[widths.length - 1] ?? width;
  const base = await sharp(input)
    .rotate()
    .resize({ width: largest, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const variants = await Promise.all(
    widths.map(async (w) => ({
      width: w,
      body: await sharp(base.data, { raw: base.info })
        .resize({ width: w, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer(),
    })),
  );
  return { width, height, variants };
}

export function variantKey(baseKey: string, width: number): string {
  return `${baseKey}-${width}.webp`;
}
