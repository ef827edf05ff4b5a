import type { Db } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import type { MediaRow, NewMediaRow } from "~/db/schema";
import { newId } from "~/lib/ids";
import { jpegCopyKey, type ProcessedImage, processImage, variantKey } from "./images.server";
import type { MediaStorage } from "./storage.server";

/** An image as the pages need it: what to put in src, srcset, width and height. */
export interface ImageView {
  src: string;
  /** The owner's description of the photo; empty when there is none. */
  alt: string;
  srcSet: string;
  /**
   * The photo for a link preview (og:image): its JPEG copy, since WhatsApp shows no WebP; its
   * WebP `src` while a photo stored before the copies were made waits for its own.
   */
  shareSrc: string;
  width: number;
  height: number;
}

/** A comma-separated list of widths as stored ("480,960"; "" or "0": none). */
export function parseWidths(list: string): number[] {
  return list
    .split(",")
    .map(Number)
    .filter((w) => w > 0);
}

function widthsOf(row: MediaRow): number[] {
  return parseWidths(row.widths);
}

/** The largest of `widths` no wider than `maxWidth` (the smallest if all are wider). */
function widthUpTo(widths: number[], maxWidth: number): number | undefined {
  return widths.filter((w) => w <= maxWidth).pop() ?? widths[0];
}

/** The largest stored copy no wider than `maxWidth` (the smallest copy if all are wider). */
export function variantUrl(storage: MediaStorage, row: MediaRow, maxWidth: number): string {
  return storage.publicUrl(variantKey(row.key, widthUpTo(widthsOf(row), maxWidth) ?? row.width));
}

/**
 * A photo's address where WebP may not show (an e-mail, a link preview): its JPEG copy no wider
 * than `maxWidth`, or its WebP copy while a photo stored before the copies were made still waits
 * for its own (`makeMissingJpegCopies`).
 */
export function jpegUrl(storage: MediaStorage, row: MediaRow, maxWidth: number): string {
  const width = widthUpTo(parseWidths(row.jpeg_widths), maxWidth);
  return width === undefined
    ? variantUrl(storage, row, maxWidth)
    : storage.publicUrl(jpegCopyKey(row.key, width));
}

export function imageView(storage: MediaStorage, row: MediaRow): ImageView {
  const widths = widthsOf(row);
  const largest = widths[widths.length - 1] ?? row.width;
  const middle = widths[Math.min(1, widths.length - 1)] ?? largest;
  return {
    src: storage.publicUrl(variantKey(row.key, middle)),
    alt: row.alt,
    srcSet: widths.map((w) => `${storage.publicUrl(variantKey(row.key, w))} ${w}w`).join(", "),
    shareSrc: jpegUrl(storage, row, middle),
    width: row.width,
    height: row.height,
  };
}

/**
 * Checks and re-encodes an image and writes its variants under the drop's folder. Returns the row
 * to record; nothing is written to the database yet. `processing` replaces the pipeline only for
 * the demo art's cache (app/demo/art-cache.server.ts).
 */
export async function storeImage(
  storage: MediaStorage,
  input: { dropId: string; body: Buffer; now?: Date },
  processing: (body: Buffer) => Promise<ProcessedImage> = processImage,
): Promise<NewMediaRow> {
  const processed = await processing(input.body);
  const id = newId();
  const key = `drops/${input.dropId}/${id}`;
  await putProcessedImage(storage, key, processed);
  return processedImageRow({ id, dropId: input.dropId, key, processed, now: input.now ?? new Date() });
}

/**
 * Writes a processed photo's files under `key`: its WebP variants and its JPEG copies for e-mails.
 * If one write fails, the others are removed once every write has ended (none lands after the
 * clean-up) and the failure is raised.
 */
export async function putProcessedImage(storage: MediaStorage, key: string, processed: ProcessedImage) {
  const puts = await Promise.allSettled([
    ...processed.variants.map((v) => storage.put(variantKey(key, v.width), v.body, "image/webp")),
    ...processed.jpegCopies.map((c) => storage.put(jpegCopyKey(key, c.width), c.body, "image/jpeg")),
  ]);
  const refused = puts.find((p) => p.status === "rejected");
  if (refused) {
    await storage.deletePrefix(key).catch(() => {});
    throw refused.reason;
  }
}

/** The media row of a processed photo written under `key`. */
export function processedImageRow(input: {
  id: string;
  dropId: string;
  key: string;
  processed: ProcessedImage;
  now: Date;
}): NewMediaRow {
  const { processed } = input;
  return {
    id: input.id,
    drop_id: input.dropId,
    kind: "image",
    key: input.key,
    width: processed.width,
    height: processed.height,
    widths: processed.variants.map((v) => v.width).join(","),
    jpeg_widths: processed.jpegCopies.map((c) => c.width).join(","),
    mime: "image/webp",
    created_at: toTimestamp(input.now),
  };
}

export async function loadMedia(db: Db, ids: (string | null)[]): Promise<Map<string, MediaRow>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("media").selectAll().where("id", "in", wanted).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
