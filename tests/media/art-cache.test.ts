import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { cachedArtProcessing } from "~/demo/art-cache.server";
import { processImage } from "~/media/images.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-art-cache-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const drawing = (fill: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="${fill}"/></svg>`,
  );

it("DEMO_ART_CACHE: a drawing is processed once, then copied from the folder by its content", async () => {
  const processing = cachedArtProcessing(dir);
  const first = await processing(drawing("#c9a227"));
  // What the upload pipeline makes, entry by entry.
  const direct = await processImage(drawing("#c9a227"));
  expect(first.width).toBe(direct.width);
  expect(first.height).toBe(direct.height);
  expect(first.variants.map((v) => v.width)).toEqual(direct.variants.map((v) => v.width));
  expect(first.jpegCopies.map((c) => c.width)).toEqual([480]);
  const files = fs.readdirSync(dir).sort();
  expect(files.filter((f) => f.endsWith(".json"))).toHaveLength(1);
  expect(files.filter((f) => f.endsWith(".webp"))).toHaveLength(first.variants.length);
  expect(files.filter((f) => f.endsWith(".jpg"))).toHaveLength(1);
  expect(files.some((f) => f.endsWith(".tmp"))).toBe(false);

  // A later start (a new processing over the same folder) reads the files instead of drawing.
  const webp = files.find((f) => f.endsWith("-480.webp")) ?? "";
  fs.writeFileSync(path.join(dir, webp), "kept");
  fs.writeFileSync(path.join(dir, webp.replace(/webp$/, "jpg")), "kept too");
  const again = await cachedArtProcessing(dir)(drawing("#c9a227"));
  expect(again.variants.find((v) => v.width === 480)?.body.toString()).toBe("kept");
  expect(again.jpegCopies.find((c) => c.width === 480)?.body.toString()).toBe("kept too");
  expect({ width: again.width, height: again.height }).toEqual({ width: first.width, height: first.height });

  // Other content is another entry.
  const other = await processing(drawing("#1d3b2a"));
  expect(other.variants.map((v) => v.width)).toEqual(first.variants.map((v) => v.width));
  expect(fs.readdirSync(dir).filter((f) => f.endsWith(".json"))).toHaveLength(2);
});
