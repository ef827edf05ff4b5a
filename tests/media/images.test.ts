import sharp from "sharp";
import { expect, it } from "vitest";
import { ImageRejected, jpegCopyOf, processImage } from "~/media/images.server";

/**
 * A phone photo as cameras store it: 4000 × 3000 (12 megapixels) with EXIF orientation 6 ("turn
 * 90° clockwise to view") and the GPS position where it was taken. Stored sideways: the left half
 * is red and the right half blue, so upright the top is red and the bottom blue.
 */
async function phonePhoto(): Promise<Buffer> {
  const half = { width: 2000, height: 3000, channels: 3, background: "#000" } as const;
  const red = await sharp({ create: { ...half, background: { r: 220, g: 20, b: 20 } } })
    .png()
    .toBuffer();
  const blue = await sharp({ create: { ...half, background: { r: 20, g: 20, b: 220 } } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#000" } })
    .composite([
      { input: red, left: 0, top: 0 },
      { input: blue, left: 2000, top: 0 },
    ])
    .jpeg({ quality: 85 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "Teléfono", Model: "Prueba" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "19/1 25/1 42/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "99/1 8/1 0/1",
      },
    })
    .toBuffer();
}

it("a 12-megapixel photo with EXIF orientation 6 and GPS comes out upright, in WebP and its JPEG copies, without its metadata", async () => {
  const input = await phonePhoto();
  const before = await sharp(input).metadata();
  expect(before).toMatchObject({ width: 4000, height: 3000, orientation: 6, format: "jpeg" });
  // The photo carries its camera and a GPS block (tag 0x8825, either byte order) before processing.
  const exif = before.exif ?? Buffer.alloc(0);
  expect(exif.includes(Buffer.from("Prueba"))).toBe(true);
  expect(exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))).toBe(true);

  const image = await processImage(input);
  // Upright: taller than wide.
  expect(image).toMatchObject({ width: 3000, height: 4000 });
  expect(image.variants.map((v) => v.width)).toEqual([480, 960, 1600]);
  for (const variant of image.variants) {
    const meta = await sharp(variant.body).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.width).toBe(variant.width);
    expect(meta.height).toBe(Math.round((variant.width * 4000) / 3000));
    expect(meta.exif, "no EXIF (no GPS position) in the stored file").toBeUndefined();
    expect(meta.orientation ?? 1).toBe(1);
    expect(variant.body.includes(Buffer.from("Prueba"))).toBe(false);
  }
  // The top of the upright picture is the red half, the bottom the blue one.
  const smallest = image.variants[0]?.body ?? Buffer.alloc(0);
  const { data, info } = await sharp(smallest).raw().toBuffer({ resolveWithObject: true });
  const pixel = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    return { r: data[i] ?? 0, b: data[i + 2] ?? 0 };
  };
  const top = pixel(info.width / 2, 10);
  const bottom = pixel(info.width / 2, info.height - 10);
  expect(top.r).toBeGreaterThan(150);
  expect(top.b).toBeLessThan(80);
  expect(bottom.b).toBeGreaterThan(150);
  expect(bottom.r).toBeLessThan(80);

  // JPEG copies too, for link previews and e-mails (WhatsApp and classic Outlook show no WebP):
  // the widths an e-mail or a preview may use, upright (red on top), without the metadata.
  expect(image.jpegCopies.map((c) => c.width)).toEqual([480, 960]);
  for (const copy of image.jpegCopies) {
    const meta = await sharp(copy.body).metadata();
    expect(meta).toMatchObject({
      format: "jpeg",
      width: copy.width,
      height: Math.round((copy.width * 4000) / 3000),
    });
    expect(meta.exif, "no EXIF (no GPS position) in the copy").toBeUndefined();
    expect(copy.body.includes(Buffer.from("Prueba"))).toBe(false);
  }
  const copy = await sharp(image.jpegCopies[0]?.body).raw().toBuffer({ resolveWithObject: true });
  expect(copy.data[(10 * copy.info.width + copy.info.width / 2) * copy.info.channels] ?? 0).toBeGreaterThan(
    150,
  );
});

it("a small photo gets one JPEG copy at its own width; a transparent one stands on the e-mails' sand backdrop, not black", async () => {
  // 300 × 200, fully transparent but for a gold square in the middle.
  const png = await sharp({
    create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      {
        input: await sharp({ create: { width: 100, height: 100, channels: 4, background: "#c9a227" } })
          .png()
          .toBuffer(),
        left: 100,
        top: 50,
      },
    ])
    .png()
    .toBuffer();
  const image = await processImage(png);
  expect(image.variants.map((v) => v.width)).toEqual([300]);
  expect(image.jpegCopies.map((c) => c.width)).toEqual([300]);
  const corner = async (jpeg: Buffer) => {
    const { data } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    return [data[0], data[1], data[2]].map((v) => v ?? 0);
  };
  // #efe6d6, give or take the JPEG's rounding.
  for (const [channel, want] of (await corner(image.jpegCopies[0]?.body ?? Buffer.alloc(0))).map(
    (v, i) => [v, [0xef, 0xe6, 0xd6][i] ?? 0] as const,
  )) {
    expect(Math.abs(channel - want)).toBeLessThan(6);
  }
  // A copy made later from the stored WebP (a photo stored before copies were made) alike.
  const later = await jpegCopyOf(image.variants[0]?.body ?? Buffer.alloc(0));
  expect((await sharp(later).metadata()).format).toBe("jpeg");
  expect(Math.abs(((await corner(later))[0] ?? 0) - 0xef)).toBeLessThan(6);
});

it("a text file named like a photo is refused by its content", async () => {
  await expect(processImage(Buffer.from("esto no es una foto, aunque se llame foto.jpg"))).rejects.toThrow(
    ImageRejected,
  );
});

it("a pixel bomb (a long strip of one colour, small as a file) is refused from its size alone, before it is decoded", async () => {
  const strip = await sharp({ create: { width: 200, height: 5_000, channels: 3, background: "#c9a227" } })
    .png()
    .toBuffer();
  expect(strip.length).toBeLessThan(200_000);
  await expect(processImage(strip)).rejects.toThrow(/demasiado grande o demasiado alargada/);
  // A square PNG past its pixels (a JPEG of the same size would be taken: it decodes scaled).
  const square = await sharp({ create: { width: 8_000, height: 8_000, channels: 3, background: "#c9a227" } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  await expect(processImage(square)).rejects.toThrow(/demasiado grande/);
  // A large, normal photo shape is still taken.
  const wide = await sharp({ create: { width: 4_000, height: 3_000, channels: 3, background: "#efe6d6" } })
    .jpeg()
    .toBuffer();
  expect((await processImage(wide)).width).toBe(4_000);
});
