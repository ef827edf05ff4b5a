import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
// @fastify/busboy, the maintained fork of busboy (the parser under multer; no dependencies, its own
// types), hands each file over as a Node stream with backpressure while the body arrives, so an
// upload is never held in memory whole. @remix-run/form-data-parser was ruled out: its multipart
// parser collects each part's bytes in memory before handing the part over.
import Busboy, { type BusboyInstance } from "@fastify/busboy";
import sharp from "sharp";
import { type Db, toTimestamp } from "~/db/database.server";
import type { NewMediaRow } from "~/db/schema";
import { isId, newId } from "~/lib/ids";
import { HEIC_REFUSED, type ProcessedImage, processImage, variantKey } from "./images.server";
import type { MediaStorage } from "./storage.server";
import { MB, UPLOAD_LIMITS, type UploadKind } from "./upload-limits";

/*
 * Uploads from the drops admin form: one photo or video per request, for a drop that may not be
 * saved yet (the form picks the drop's id in advance). The body is parsed as it arrives: a photo
 * goes to a temporary file, is checked by its content and re-encoded to WebP; a video is checked
 * by its first bytes and streamed straight into storage. Sizes are counted while reading, whatever
 * Content-Length says. No HTTP here: failures are reasons, which the route turns into statuses.
 */

export { UPLOAD_LIMITS, type UploadKind } from "./upload-limits";
/** Room for the form's other fields and the multipart boundaries around the file. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;
/** The longest body an upload may have (a video at its limit); a longer Content-Length is refused unread. */
export const MAX_UPLOAD_BODY_BYTES = UPLOAD_LIMITS.video + FORM_OVERHEAD_BYTES;

export type UploadReason =
  | "not-multipart"
  | "malformed"
  | "bad-drop"
  | "bad-kind"
  | "no-file"
  | "too-large"
  | "not-image"
  | "heic"
  | "not-video";

export interface UploadFailure {
  ok: false;
  reason: UploadReason;
  message: string;
}

export interface UploadedMedia {
  id: string;
  kind: UploadKind;
  /** Where a browser fetches it: the largest WebP copy of a photo, the video file itself. */
  url: string;
  /** 0 for a video (not measured). */
  width: number;
  height: number;
}

export type UploadResult = { ok: true; media: UploadedMedia } | UploadFailure;

const FAILED: Record<UploadKind, string> = {
  image: "Error al subir la imagen",
  video: "Error al subir el video",
};
const FAILED_ANY = "Error al subir el archivo";

/** The refusal of a file over its kind's limit (`null`: the kind is not known yet). */
export function tooLargeMessage(kind: UploadKind | null): string {
  const image = `${UPLOAD_LIMITS.image / MB} MB`;
  const video = `${UPLOAD_LIMITS.video / MB} MB`;
  if (kind === "image") return `El archivo pesa demasiado: las imágenes pueden pesar hasta ${image}.`;
  if (kind === "video") return `El archivo pesa demasiado: los videos pueden pesar hasta ${video}.`;
  return `El archivo pesa demasiado: las imágenes pueden pesar hasta ${image} y los videos hasta ${video}.`;
}

export function uploadFailure(reason: UploadReason, kind: UploadKind | null, detail?: string): UploadFailure {
  const failed = kind ? FAILED[kind] : FAILED_ANY;
  const messages: Record<UploadReason, string> = {
    "not-multipart": `${failed}: el formulario no llegó como multipart/form-data.`,
    malformed: `${failed}: el formulario llegó incompleto o dañado. Inténtalo de nuevo.`,
    "bad-drop": `${failed}: ${detail ?? "la colección no es válida."}`,
    "bad-kind": `${failed}: ${detail ?? "el tipo debe ser image o video."}`,
    "no-file": `${failed}: no llegó ningún archivo.`,
    "too-large": tooLargeMessage(kind),
    "not-image": `${FAILED.image}: el archivo no es una imagen válida.`,
    heic: HEIC_REFUSED,
    "not-video": `${FAILED.video}: solo se aceptan videos MP4 o WebM.`,
  };
  return { ok: false, reason, message: messages[reason] };
}

/**
 * The form's `dropId` and `kind`, which must come before the file in the body (FormData keeps the
 * order fields are appended in): the kind decides the size limit and what is done with the file.
 */
export function checkUploadFields(
  fields: ReadonlyMap<string, string>,
): { ok: true; dropId: string; kind: UploadKind } | UploadFailure {
  const dropId = fields.get("dropId");
  const kind = fields.get("kind");
  if (kind !== undefined && kind !== "image" && kind !== "video") return uploadFailure("bad-kind", null);
  const known = kind ?? null;
  if (dropId === undefined) {
    return uploadFailure("bad-drop", known, "falta la colección (dropId), que va antes del archivo.");
  }
  if (!isId(dropId)) return uploadFailure("bad-drop", known);
  if (kind === undefined) {
    return uploadFailure("bad-kind", null, "falta el tipo (kind: image o video), que va antes del archivo.");
  }
  return { ok: true, dropId, kind };
}

/** The first bytes of a video tell its container; only what every browser plays is taken. */
const SNIFF_BYTES = 64;
/** ISO-BMFF brands of still images (HEIC, AVIF and their sequences): an 'ftyp' box like MP4's, not a video. */
const IMAGE_BRANDS = new Set([
  "heic",
  "heix",
  "heim",
  "heis",
  "hevc",
  "hevx",
  "mif1",
  "msf1",
  "avif",
  "avis",
]);
/** Brands of HEIC photos (HEVC-coded HEIF), what iPhones save by default. */
const HEIC_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx"]);

export interface VideoFormat {
  ext: "mp4" | "webm";
  mime: "video/mp4" | "video/webm";
}

/** MP4 ('ftyp' at byte 4, not an image brand) or WebM (EBML header naming 'webm'); null otherwise. */
export function sniffVideo(head: Uint8Array): VideoFormat | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length >= 12 && bytes.toString("latin1", 4, 8) === "ftyp") {
    const brand = bytes.toString("latin1", 8, 12);
    // QuickTime (.mov, brand 'qt  ') is not MP4: not every browser plays it.
    return IMAGE_BRANDS.has(brand) || brand === "qt  " ? null : { ext: "mp4", mime: "video/mp4" };
  }
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) {
    // EBML is also Matroska's (.mkv, which browsers do not all play): the header's DocType says which.
    return bytes.includes("webm", 4, "latin1") ? { ext: "webm", mime: "video/webm" } : null;
  }
  return null;
}

/** A HEIC photo, by its content: sharp reads its header (HEVC-coded HEIF) but cannot decode it. */
export async function isHeic(body: Buffer): Promise<boolean> {
  if (body.length >= 12 && body.toString("latin1", 4, 8) === "ftyp") {
    if (HEIC_BRANDS.has(body.toString("latin1", 8, 12))) return true;
  }
  // AVIF is HEIF too (format 'heif'), but AV1-coded: that one is decoded and taken.
  const meta = await sharp(body)
    .metadata()
    .catch(() => null);
  return meta?.format === "heif" && meta.compression === "hevc";
}

/** A file past its limit, raised by the byte counter while it streams. */
class UploadTooLarge extends Error {}
/** The upload was given up on (a refusal decided elsewhere): the file's stream is ended with this. */
class UploadStopped extends Error {}

/** Passes bytes through until more than `limit` have gone by, then fails with UploadTooLarge. */
function capBytes(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(new UploadTooLarge());
      else callback(null, chunk);
    },
  });
}

/** Reads the first `bytes` bytes (or all, if fewer) and leaves the stream paused with them put back. */
function peek(stream: Readable, bytes: number): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size < bytes) return;
      stream.pause();
      cleanup();
      const head = Buffer.concat(chunks);
      stream.unshift(head);
      resolve({ head, ended: false });
    };
    const onEnd = () => {
      cleanup();
      resolve({ head: Buffer.concat(chunks), ended: true });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", onError);
  });
}

/**
 * Writes the request body into the multipart parser as it arrives, with backpressure, counting
 * bytes against `limit()` (the total a body may have: it shrinks once the kind is known). It never
 * cancels the body (that would destroy the connection before the answer is sent): when stopped it
 * simply reads no more, and the server drains or closes the connection after answering.
 */
function feedBody(body: ReadableStream<Uint8Array>, sink: Writable, limit: () => number) {
  const reader = body.getReader();
  let stopped = false;
  let wake: (() => void) | null = null;
  const done = (async (): Promise<"ended" | "too-large" | "broken" | "stopped"> => {
    let total = 0;
    while (!stopped) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        return stopped ? "stopped" : "broken";
      }
      if (stopped) break;
      if (chunk.done) {
        sink.end();
        return "ended";
      }
      total += chunk.value.byteLength;
      if (total > limit()) return "too-large";
      const bytes = Buffer.from(chunk.value.buffer, chunk.value.byteOffset, chunk.value.byteLength);
      if (!sink.write(bytes)) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          sink.once("drain", resolve);
        });
        wake = null;
      }
    }
    return "stopped";
  })();
  return {
    done,
    stop() {
      stopped = true;
      wake?.();
    },
  };
}

interface Stored {
  row: NewMediaRow;
  url: string;
}

interface Target {
  storage: MediaStorage;
  dropId: string;
  now: Date;
  tmpDir: string;
}

/**
 * A photo: to a temporary file (at most the image limit), checked by content (HEIC refused with
 * its own message), re-encoded to WebP widths stored under the drop's folder. The temporary file
 * is always removed. Only the check and re-encoding hold the photo in memory (processImage takes
 * a buffer), never more than the limit.
 */
async function receiveImage(target: Target, file: Readable): Promise<Stored | UploadFailure> {
  const dir = await fsp.mkdtemp(path.join(target.tmpDir, "shop-upload-"));
  try {
    const tmp = path.join(dir, "imagen");
    try {
      await pipeline(file, capBytes(UPLOAD_LIMITS.image), fs.createWriteStream(tmp));
    } catch (error) {
      if (error instanceof UploadTooLarge) return uploadFailure("too-large", "image");
      throw error;
    }
    const body = await fsp.readFile(tmp);
    if (body.length === 0) return uploadFailure("no-file", "image");
    if (await isHeic(body)) return uploadFailure("heic", "image");
    let processed: ProcessedImage;
    try {
      processed = await processImage(body);
    } catch {
      // Refused by its content, or a file that passes the header check but does not decode.
      return uploadFailure("not-image", "image");
    }
    const id = newId();
    const key = `drops/${target.dropId}/${id}`;
    const puts = await Promise.allSettled(
      processed.variants.map((v) => target.storage.put(variantKey(key, v.width), v.body, "image/webp")),
    );
    const refused = puts.find((p) => p.status === "rejected");
    if (refused) {
      // Once every write has ended, so that none lands after the clean-up.
      await target.storage.deletePrefix(key).catch(() => {});
      throw refused.reason;
    }
    const widths = processed.variants.map((v) => v.width);
    return {
      row: {
        id,
        drop_id: target.dropId,
        kind: "image",
        key,
        width: processed.width,
        height: processed.height,
        widths: widths.join(","),
        mime: "image/webp",
        created_at: toTimestamp(target.now),
      },
      url: target.storage.publicUrl(variantKey(key, widths[widths.length - 1] ?? processed.width)),
    };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * A video: its first bytes decide (MP4 or WebM), then it streams into storage as it arrives. Over
 * the limit, the partial object is deleted.
 */
async function receiveVideo(target: Target, file: Readable): Promise<Stored | UploadFailure> {
  const { head, ended } = await peek(file, SNIFF_BYTES);
  if (head.length === 0) return uploadFailure("no-file", "video");
  const format = sniffVideo(head);
  if (!format) return uploadFailure("not-video", "video");
  const id = newId();
  const key = `drops/${target.dropId}/${id}.${format.ext}`;
  const source = ended ? Readable.from([head]) : file;
  const body = capBytes(UPLOAD_LIMITS.video);
  source.once("error", (error) => body.destroy(error));
  source.pipe(body);
  try {
    await target.storage.put(key, body, format.mime);
  } catch (error) {
    await target.storage.deletePrefix(key).catch(() => {});
    if (error instanceof UploadTooLarge) return uploadFailure("too-large", "video");
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

export interface UploadDeps {
  db: Db;
  storage: MediaStorage;
  /** Where photos wait while they are checked; the system's temporary folder by default. */
  tmpDir?: string;
}

export interface UploadInput {
  /** The request's Content-Type (multipart/form-data with its boundary). */
  contentType: string | null;
  /** The declared length, null when absent (chunked). Only a hint: the bytes are counted anyway. */
  contentLength: number | null;
  body: ReadableStream<Uint8Array> | null;
  now?: Date;
}

/**
 * Receives one upload: multipart/form-data with `dropId` and `kind` (image | video) before `file`.
 * Stores the file under `drops/<dropId>/` and records its `media` row; on any refusal nothing is
 * left behind. The drop row itself is not required (the form uploads before the drop is saved).
 * Errors that are not the upload's fault (storage, database) are thrown.
 */
export async function receiveUpload(deps: UploadDeps, input: UploadInput): Promise<UploadResult> {
  const contentType = input.contentType ?? "";
  if (!input.body || !/^multipart\/form-data\s*;/i.test(contentType)) {
    return uploadFailure("not-multipart", null);
  }
  if (input.contentLength !== null && input.contentLength > MAX_UPLOAD_BODY_BYTES) {
    return uploadFailure("too-large", null);
  }
  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      limits: { fieldNameSize: 100, fieldSize: 1024, fields: 10, parts: 20, headerPairs: 20 },
    });
  } catch {
    return uploadFailure("not-multipart", null);
  }

  const fields = new Map<string, string>();
  // Set from the parser's callbacks; an object so that the checks after `await` read them afresh.
  const state: {
    kind: UploadKind | null;
    file: Readable | null;
    task: Promise<Stored | UploadFailure> | null;
    failure: UploadFailure | null;
  } = { kind: null, file: null, task: null, failure: null };
  let announceFailure: (failure: UploadFailure) => void = () => {};
  const failed = new Promise<UploadFailure>((resolve) => {
    announceFailure = resolve;
  });
  const feeder = feedBody(input.body, parser, () =>
    state.kind ? UPLOAD_LIMITS[state.kind] + FORM_OVERHEAD_BYTES : MAX_UPLOAD_BODY_BYTES,
  );
  /** The first refusal wins: reading stops and the file being received is abandoned. */
  const fail = (failure: UploadFailure) => {
    if (state.failure) return;
    state.failure = failure;
    feeder.stop();
    state.file?.destroy(new UploadStopped());
    announceFailure(failure);
  };

  const parsed = new Promise<void>((resolve) => parser.on("finish", resolve));
  parser.on("error", () => fail(uploadFailure("malformed", state.kind)));
  parser.on("field", (name, value) => {
    if (fields.has(name)) return; // the first value counts
    fields.set(name, value);
    // A bad value is refused at once; a missing one when the file arrives.
    if (name === "kind" && value !== "image" && value !== "video") fail(uploadFailure("bad-kind", null));
    if (name === "dropId" && !isId(value)) fail(uploadFailure("bad-drop", null));
  });
  parser.on("file", (name, stream) => {
    // A file given up on is ended with an error (or the parser ends it, cut short): each consumer
    // handles it in its own way, and one left unread has none.
    stream.on("error", () => {});
    if (state.task || state.failure || name !== "file") {
      stream.resume(); // not the one file expected: thrown away (the body's size is still capped)
      return;
    }
    const checked = checkUploadFields(fields);
    if (!checked.ok) {
      stream.resume();
      fail(checked);
      return;
    }
    const kind = checked.kind;
    state.kind = kind;
    if (input.contentLength !== null && input.contentLength > UPLOAD_LIMITS[kind] + FORM_OVERHEAD_BYTES) {
      stream.resume();
      fail(uploadFailure("too-large", kind)); // told by Content-Length: the file is not read
      return;
    }
    state.file = stream;
    const target: Target = {
      storage: deps.storage,
      dropId: checked.dropId,
      now: input.now ?? new Date(),
      tmpDir: deps.tmpDir ?? os.tmpdir(),
    };
    const task = kind === "image" ? receiveImage(target, stream) : receiveVideo(target, stream);
    state.task = task;
    task.then(
      (result) => {
        if ("ok" in result) fail(result);
      },
      () => {}, // handled where the task is awaited
    );
  });
  void feeder.done.then((outcome) => {
    if (outcome === "too-large") fail(uploadFailure("too-large", state.kind));
    else if (outcome === "broken") fail(uploadFailure("malformed", state.kind));
  });

  const completion = (async (): Promise<Stored | UploadFailure> => {
    await parsed;
    if (state.task) return state.task;
    const checked = checkUploadFields(fields);
    return checked.ok ? uploadFailure("no-file", checked.kind) : checked;
  })();

  let outcome: Stored | UploadFailure;
  try {
    outcome = await Promise.race([failed, completion]);
  } catch (error) {
    // A file stream ended by a refusal fails too; the refusal is the answer.
    if (!state.failure) {
      feeder.stop();
      throw error;
    }
    outcome = state.failure;
  }
  if (state.failure) outcome = state.failure;
  if ("ok" in outcome) {
    // Whatever the abandoned file got to store is removed before answering.
    const abandoned = await state.task?.catch(() => null);
    if (abandoned && "row" in abandoned) await deps.storage.deletePrefix(abandoned.row.key).catch(() => {});
    return outcome;
  }

  const { row, url } = outcome;
  try {
    await deps.db.insertInto("media").values(row).execute();
  } catch (error) {
    await deps.storage.deletePrefix(row.key).catch(() => {});
    throw error;
  }
  return { ok: true, media: { id: row.id, kind: row.kind, url, width: row.width, height: row.height } };
}
