import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { toTimestamp } from "~/db/database.server";
import type { NewMediaRow } from "~/db/schema";
import { newId } from "~/lib/ids";
import { ImageRejected, type ProcessedImage, processImage, variantKey } from "./images.server";
import { processedImageRow, putProcessedImage } from "./media.server";
import { capBytes, peek, UploadTooLarge } from "./multipart.server";
import { loadSharp } from "./sharp.server";
import { hasHeicBrand, SNIFF_BYTES, sniffVideo } from "./sniff";
import type { MediaStorage } from "./storage.server";
import { type UploadFailure, uploadFailure } from "./upload-failures.server";
import { UPLOAD_MAX_BYTES } from "./upload-sizes";

/*
 * What is done with an uploaded file as it streams in: a photo is checked by its content and
 * re-encoded to WebP widths, a video is checked by its first bytes and stored as sent. Both go under
 * the drop's folder; the media row is written by the caller.
 */

/** A file stored under the drop's folder, with the row that records it and its address. */
export interface Stored {
  row: NewMediaRow;
  url: string;
}

/** Where and when a file is stored. */
export interface Target {
  storage: MediaStorage;
  dropId: string;
  now: Date;
  /** Where photos wait while they are checked. */
  tmpDir: string;
}

/** A HEIC photo, by its content: sharp reads its header (HEVC-coded HEIF) but cannot decode it. */
export async function isHeic(body: Buffer): Promise<boolean> {
  if (hasHeicBrand(body)) return true;
  // AVIF is HEIF too (format 'heif'), but AV1-coded: that one is decoded and taken.
  const sharp = await loadSharp();
  const meta = await sharp(body)
    .metadata()
    .catch(() => null);
  return meta?.format === "heif" && meta.compression === "hevc";
}

/**
 * A photo: to a temporary file (at most the image limit), checked by content (HEIC refused with
 * its own message), re-encoded to WebP widths stored under the drop's folder. The temporary file
 * is always removed. Only the check and re-encoding hold the photo in memory (processImage takes
 * a buffer), never more than the limit.
 */
export async function receiveImage(target: Target, file: Readable): Promise<Stored | UploadFailure> {
  const dir = await fsp.mkdtemp(path.join(target.tmpDir, "shop-upload-"));
  try {
    const tmp = path.join(dir, "imagen");
    try {
      await pipeline(file, capBytes(UPLOAD_MAX_BYTES.image), fs.createWriteStream(tmp));
    } catch (error) {
      if (error instanceof UploadTooLarge) return uploadFailure("demasiado_grande", "image");
      throw error;
    }
    const body = await fsp.readFile(tmp);
    if (body.length === 0) return uploadFailure("sin_archivo", "image");
    if (await isHeic(body)) return uploadFailure("heic", "image");
    let processed: ProcessedImage;
    try {
      processed = await processImage(body);
    } catch (error) {
      // Refused by its content (with its own words when the check said why), or a file that passes
      // the header check but does not decode.
      return uploadFailure(
        "no_es_imagen",
        "image",
        error instanceof ImageRejected
          ? error.message.charAt(0).toLowerCase() + error.message.slice(1)
          : undefined,
      );
    }
    const id = newId();
    const key = `drops/${target.dropId}/${id}`;
    await putProcessedImage(target.storage, key, processed);
    const largest = processed.variants[processed.variants.length - 1]?.width ?? processed.width;
    return {
      row: processedImageRow({ id, dropId: target.dropId, key, processed, now: target.now }),
      url: target.storage.publicUrl(variantKey(key, largest)),
    };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * A video: its first bytes decide (MP4 or WebM), then it streams into storage as it arrives. Over
 * the limit, the partial object is deleted.
 */
export async function receiveVideo(target: Target, file: Readable): Promise<Stored | UploadFailure> {
  const { head, ended } = await peek(file, SNIFF_BYTES);
  if (head.length === 0) return uploadFailure("sin_archivo", "video");
  const format = sniffVideo(head);
  if (!format) return uploadFailure("no_es_video", "video");
  const id = newId();
  const key = `drops/${target.dropId}/${id}.${format.ext}`;
  const source = ended ? Readable.from([head]) : file;
  const body = capBytes(UPLOAD_MAX_BYTES.video);
  source.once("error", (error) => body.destroy(error));
  source.pipe(body);
  try {
    await target.storage.put(key, body, format.mime);
  } catch (error) {
    await target.storage.deletePrefix(key).catch(() => {});
    if (error instanceof UploadTooLarge) return uploadFailure("demasiado_grande", "video");
    throw error;
  }
  return {
    row: {
      id,
      drop_id: target.dropId,
      kind: "video",
      key,
      width: 0,
      height: 0,
      widths: "",
      mime: format.mime,
      created_at: toTimestamp(target.now),
    },
    url: target.storage.publicUrl(key),
  };
}
