import type { Readable } from "node:stream";

/**
 * Where uploaded and generated media live: local disk (the app serves it under /media) or
 * S3-compatible object storage (served from its public address), chosen once from configuration.
 * Keys are made by the app and never reused, so an object never changes once written.
 */
export interface MediaStorage {
  readonly kind: "local" | "s3";
  /**
   * Stores a new object. `body` may be a stream (a video as it is uploaded); it is never held in
   * memory whole. A key that already exists is refused (MediaKeyTaken): objects are immutable.
   */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** A stored object's bytes, or null when there is none: for small ones (a photo's copy). */
  read(key: string): Promise<Buffer | null>;
  /**
   * Deletes a media item's variants (`drops/<dropId>/<mediaId>`: every key starting with it) or,
   * with a trailing slash, a whole folder (`drops/<dropId>/`: only keys inside that folder).
   */
  deletePrefix(prefix: string): Promise<void>;
  /** Every key under a folder (`drops/`), for the sweep of files no row uses. */
  list(folder: string): Promise<string[]>;
  /** The same, with when each object was written (the sweep leaves recent uploads alone). */
  listWithDates(folder: string): Promise<{ key: string; modifiedAt: Date }[]>;
  /** The address a browser fetches the object from. */
  publicUrl(key: string): string;
}

/** A put on a key that already holds an object. */
export class MediaKeyTaken extends Error {}

/** Keys are built by the app, never from user text; this guards against a bug turning into path traversal. */
export function assertSafeKey(key: string): void {
  const segments = key.replace(/\/$/, "").split("/");
  if (!/^[a-z0-9][a-z0-9/_.-]*$/i.test(key) || segments.some((s) => s === "" || s.startsWith("."))) {
    throw new Error(`Unsafe media key: ${key}`);
  }
}
