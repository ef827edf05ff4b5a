/**
 * Where uploaded and generated media live. The embedded implementation writes to local disk and
 * the app serves it under /media; an S3-compatible one comes with drop editing.
 */
export interface MediaStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Deletes a media item's variants (`drops/<dropId>/<mediaId>`: every key starting with it) or,
   * with a trailing slash, a whole folder (`drops/<dropId>/`: only keys inside that folder).
   */
  deletePrefix(prefix: string): Promise<void>;
  /** The address a browser fetches the object from. */
  publicUrl(key: string): string;
}

/** Keys are built by the app, never from user text; this guards against a bug turning into path traversal. */
export function assertSafeKey(key: string): void {
  const segments = key.replace(/\/$/, "").split("/");
  if (!/^[a-z0-9][a-z0-9/_.-]*$/i.test(key) || segments.some((s) => s === "" || s.startsWith("."))) {
    throw new Error(`Unsafe media key: ${key}`);
  }
}
