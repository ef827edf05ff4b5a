import type { Db } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import type { MediaRow, NewMediaRow } from "~/db/schema";
import { newId } from "~/lib/ids";
import { type ProcessedImage, processImage, variantKey } from "./images.server";
import type { MediaStorage } from "./storage.server";

/** An image as the pages need it: what to put in src, srcset, width and height. */
export interface ImageView {
  src: string;
  /** The owner's description of the photo; empty when there is none. */
  alt: string;
  srcSet: string;
  width: number;
  height: number;
}

function widthsOf(row: MediaRow): number[] {
  return row.widths
    .split(",")
    .map(Number)
    .filter((w) => w > 0);
}

/** The largest stored copy no wider than `maxWidth` (the smallest copy if all are wider). */
export function variantUrl(storage: MediaStorage, row: MediaRow, maxWidth: number): string {
  const widths = widthsOf(row);
  const width = widths.filter((w) => w <= maxWidth).pop() ?? widths[0] ?? row.width;
  return storage.publicUrl(variantKey(row.key, width));
}

export function imageView(storage: MediaStorage, row: MediaRow): ImageView {
  const widths = widthsOf(row);
  const largest = widths[widths.length - 1] ?? row.width;
  const middle = widths[Math.min(1, widths.length - 1)] ?? largest;
  return {
    src: storage.publicUrl(variantKey(row.key, middle)),
    alt: row.alt,
    srcSet: widths.map((w) => `${storage.publicUrl(variantKey(row.key, w))} ${w}w`).join(", "),
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
  await Promise.all(
    processed.variants.map((v) => storage.put(variantKey(key, v.width), v.body, "image/webp")),
  );
  return {
    id,
    drop_id: input.dropId,
    kind: "image",
    key,
    width: processed.width,
    height: processed.height,
    widths: processed.variants.map((v) => v.width).join(","),
    mime: "image/webp",
    created_at: toTimestamp(input.now ?? new Date()),
  };
}

export async function loadMedia(db: Db, ids: (string | null)[]): Promise<Map<string, MediaRow>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("media").selectAll().where("id", "in", wanted).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
