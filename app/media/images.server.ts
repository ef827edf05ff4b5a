import type { Metadata, Sharp } from "sharp";
import { loadSharp } from "./sharp.server";

/** Widths each image is stored in; the browser picks one through srcset. */
export const IMAGE_WIDTHS = [480, 960, 1600] as const;

/**
 * Widths also stored as JPEG (`<key>-<width>.jpg`), for what shows no WebP: link previews in
 * WhatsApp, where the shop's links are shared, and e-mails in classic Outlook (decision 4). An
 * e-mail shows a photo at 520 px at most, a link preview at about 600.
 */
export const JPEG_WIDTHS = [480, 960] as const;

/**
 * How the copies are encoded; part of the demo art cache's key. `backdrop`: what a transparent
 * photo stands on in a JPEG (which has none), the e-mails' photo backdrop.
 */
export const JPEG_ENCODING = { backdrop: "#efe6d6", quality: 82, mozjpeg: true } as const;

export interface ProcessedImage {
  width: number;
  height: number;
  /** WebP, for the pages. */
  variants: { width: number; body: Buffer }[];
  /** JPEG, for link previews and e-mails: the variants' widths up to 960 px (else the smallest). */
  jpegCopies: { width: number; body: Buffer }[];
}

export class ImageRejected extends Error {}

/** What the owner reads about an iPhone HEIC photo (the pipeline and the upload route say it alike). */
export const HEIC_REFUSED = "Las fotos HEIC no se pueden usar: guárdala como JPG o PNG.";

/**
 * The largest side, the most pixels and the most elongated shape a photo may have: a 200-megapixel
 * phone photo (16,320 × 12,240) fits; a JPEG is decoded at a fraction of its size when scaled
 * (libjpeg's shrink-on-load), other formats whole, so they are held to fewer pixels.
 */
export const MAX_IMAGE_SIDE = 20_000;
const MAX_IMAGE_PIXELS = 210_000_000;
const MAX_OTHER_PIXELS = 60_000_000;
const MAX_IMAGE_RATIO = 10;

const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "avif", "gif", "heif", "tiff", "svg"]);

/**
 * Checks an image by its content (not its name) and re-encodes it to WebP in the widths that fit
 * within the original. Metadata (EXIF, GPS) is dropped by re-encoding.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  let meta: Metadata;
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
  // A picture, not a pixel bomb: one tall strip of a few MB decodes (and turns) into gigabytes of
  // memory before any check of its own, enough to stop a small server.
  const pixelCap = meta.format === "jpeg" ? MAX_IMAGE_PIXELS : MAX_OTHER_PIXELS;
  if (
    meta.width > MAX_IMAGE_SIDE ||
    meta.height > MAX_IMAGE_SIDE ||
    meta.width * meta.height > pixelCap ||
    Math.max(meta.width, meta.height) > MAX_IMAGE_RATIO * Math.min(meta.width, meta.height)
  ) {
    throw new ImageRejected(
      "La imagen es demasiado grande o demasiado alargada para la tienda: usa una foto de proporciones normales (una foto de teléfono en JPG sirve tal cual).",
    );
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
  const base = await sharp(input, { limitInputPixels: pixelCap })
    .rotate()
    .resize({ width: largest, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const scaled = (w: number) =>
    sharp(base.data, { raw: base.info }).resize({ width: w, withoutEnlargement: true });
  const [variants, jpegCopies] = await Promise.all([
    Promise.all(
      widths.map(async (w) => ({ width: w, body: await scaled(w).webp({ quality: 80 }).toBuffer() })),
    ),
    Promise.all(jpegWidths(widths).map(async (w) => ({ width: w, body: await asJpeg(scaled(w)) }))),
  ]);
  return { width, height, variants, jpegCopies };
}

/** The stored widths that get a JPEG copy: those within JPEG_WIDTHS, or the smallest. */
export function jpegWidths(widths: readonly number[]): number[] {
  const widest = Math.max(...JPEG_WIDTHS);
  const within = widths.filter((w) => w <= widest);
  return within.length > 0 ? within : widths.slice(0, 1);
}

/** An image as an e-mail's JPEG: transparency laid on the e-mails' photo backdrop. */
function asJpeg(image: Sharp): Promise<Buffer> {
  const { backdrop, quality, mozjpeg } = JPEG_ENCODING;
  return image.flatten({ background: backdrop }).jpeg({ quality, mozjpeg }).toBuffer();
}

/** The JPEG copy of a stored WebP variant (for photos stored before copies were made). */
export async function jpegCopyOf(variant: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return asJpeg(sharp(variant));
}

export function variantKey(baseKey: string, width: number): string {
  return `${baseKey}-${width}.webp`;
}

export function jpegCopyKey(baseKey: string, width: number): string {
  return `${baseKey}-${width}.jpg`;
}
