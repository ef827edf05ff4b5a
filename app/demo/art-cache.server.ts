import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  IMAGE_WIDTHS,
  JPEG_ENCODING,
  JPEG_WIDTHS,
  type ProcessedImage,
  processImage,
} from "~/media/images.server";
import { loadSharp } from "~/media/sharp.server";

/** Turns a drawing's source into the stored image: the upload pipeline, or a copy of its last result. */
export type ArtProcessing = (body: Buffer) => Promise<ProcessedImage>;

/**
 * DEMO_ART_CACHE: a folder of demo art already drawn, keyed by content (the drawing's source, the
 * stored widths, the pipeline's source file and sharp's version), so a later first start copies the WebP
 * files and their JPEG copies instead of drawing them again. For test runs that start many demo shops; a shop without
 * the setting draws every time.
 */
export function cachedArtProcessing(dir: string): ArtProcessing {
  // Made at the first drawing: a start that draws nothing loads neither the source nor sharp.
  let pipeline: Promise<string> | undefined;
  return async (body) => {
    pipeline ??= Promise.all([pipelineCode(), loadSharp()]).then(
      ([code, sharp]) =>
        `${IMAGE_WIDTHS.join(",")}\0${JPEG_WIDTHS.join(",")}\0${JSON.stringify(JPEG_ENCODING)}\0${JSON.stringify(sharp.versions)}\0${code}`,
    );
    const key = createHash("sha256")
      .update(await pipeline)
      .update("\0")
      .update(body)
      .digest("hex");
    const file = (name: string) => path.join(dir, `${key}${name}`);
    const cached = await readCached(file);
    if (cached) return cached;
    const processed = await processImage(body);
    await writeCached(dir, file, processed);
    return processed;
  };
}

/**
 * The pipeline's source file as written (read once per shop that caches), from the project's folder (where test runs start shops):
 * the same text for the built server, the test runner and the command-line tools, whose compiled
 * code differs (so a key on it made the data-layer test draw the catalogue again). Elsewhere, its
 * compiled code.
 */
async function pipelineCode(): Promise<string> {
  try {
    return await fs.readFile(path.resolve("app/media/images.server.ts"), "utf8");
  } catch {
    return processImage.toString();
  }
}

interface CachedEntry {
  width: number;
  height: number;
  widths: number[];
  jpegWidths: number[];
}

async function readCached(file: (name: string) => string): Promise<ProcessedImage | null> {
  try {
    const entry = JSON.parse(await fs.readFile(file(".json"), "utf8")) as CachedEntry;
    const read = (widths: number[], ext: string) =>
      Promise.all(
        widths.map(async (width) => ({ width, body: await fs.readFile(file(`-${width}.${ext}`)) })),
      );
    const [variants, jpegCopies] = await Promise.all([
      read(entry.widths, "webp"),
      read(entry.jpegWidths, "jpg"),
    ]);
    return { width: entry.width, height: entry.height, variants, jpegCopies };
  } catch {
    return null;
  }
}

/** The variants first, the entry last, each by rename: a reader sees a whole entry or none. */
async function writeCached(dir: string, file: (name: string) => string, image: ProcessedImage) {
  await fs.mkdir(dir, { recursive: true });
  const put = async (name: string, body: Buffer | string) => {
    const temporary = `${file(name)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await fs.writeFile(temporary, body);
    await fs.rename(temporary, file(name));
  };
  await Promise.all([
    ...image.variants.map((v) => put(`-${v.width}.webp`, v.body)),
    ...image.jpegCopies.map((c) => put(`-${c.width}.jpg`, c.body)),
  ]);
  const entry: CachedEntry = {
    width: image.width,
    height: image.height,
    widths: image.variants.map((v) => v.width),
    jpegWidths: image.jpegCopies.map((c) => c.width),
  };
  await put(".json", JSON.stringify(entry));
}
