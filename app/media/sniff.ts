/*
 * What a file is, told by its first bytes (never by its name or the type the browser sent). Pure:
 * no I/O, no decoding.
 */

/** The first bytes of a video tell its container; only what every browser plays is taken. */
export const SNIFF_BYTES = 64;
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

/** An 'ftyp' box with a HEIC brand: a HEIC photo by its header alone (see pipeline.server.ts `isHeic`). */
export function hasHeicBrand(body: Buffer): boolean {
  return (
    body.length >= 12 &&
    body.toString("latin1", 4, 8) === "ftyp" &&
    HEIC_BRANDS.has(body.toString("latin1", 8, 12))
  );
}
