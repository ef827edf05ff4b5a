/**
 * Where uploaded and generated media live. The embedded implementation writes to local disk and
 * the app serves it under /media; an S3-compatible one comes with drop editing.
 */
export interface MediaStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (a media item's variants, or a drop's folder). */
  deletePrefix(prefix: string): Promise<void>;
  /** The address a browser fetches the object from. */
  publicUrl(key: string): string;
}

/** Keys are built by the app, never from user text; this guards against a bug turning into path traversal. */
export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9][a-z0-9/_.-]*$/i.test(key) || key.includes("..") || key.includes("//")) {
    throw new Error(`Unsafe media key: ${key}`);
  }
}
