import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { createDrop } from "~/catalogue/catalogue.server";
import { migrateToLatest, toTimestamp } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { processImage, variantKey } from "~/media/images.server";
import { makeMissingJpegCopies } from "~/media/jpeg-copies.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { imageView, jpegUrl, loadMedia } from "~/media/media.server";
import { dropShowcase } from "~/waitlist/showcase.server";
import { describeEachDatabase } from "../support/databases";
import { migrationsFrom } from "../support/migration-names";

/*
 * Photos stored before their JPEG copies were made with every upload (migration 0036): their
 * e-mails and link previews show the WebP until the background job has made the copies from the
 * stored WebP ones; then the JPEG. Classic Outlook and WhatsApp's link previews show no WebP.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), "jpeg-copies-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const origin = "https://orodeluna.mx";

/** A 1200 × 800 photo, as the pipeline stored it before the copies: its WebP variants only. */
async function oldPhoto(storage: ReturnType<typeof createLocalStorage>, key: string) {
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#c9a227" } })
    .jpeg()
    .toBuffer();
  const processed = await processImage(photo);
  for (const v of processed.variants) await storage.put(variantKey(key, v.width), v.body, "image/webp");
  return processed.variants.map((v) => v.width).join(",");
}

describeEachDatabase("JPEG copies of photos stored before them", (harness) => {
  it("the migration leaves them without; the job makes them from the stored WebP, once, and e-mails and previews switch to them", async () => {
    const database = await harness.fresh({ migrate: true });
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0035_delivery_days")).error).toBeUndefined();
    const storage = createLocalStorage(path.join(root, harness.dialect));
    const now = new Date();
    // Two photos of a drop's cover and piece, and one whose files are gone (a bucket emptied by hand).
    const rows = [
      { id: "portada", widths: await oldPhoto(storage, "drops/d/portada") },
      { id: "pieza", widths: await oldPhoto(storage, "drops/d/pieza") },
      { id: "perdida", widths: "480,960" },
    ];
    await database.db
      .insertInto("media")
      .values(
        rows.map((r) => ({
          id: r.id,
          drop_id: null,
          kind: "image",
          key: `drops/d/${r.id}`,
          width: 1200,
          height: 800,
          widths: r.widths,
          mime: "image/webp",
          alt: "",
          created_at: toTimestamp(now),
        })),
      )
      .execute();
    expect(await migrateToLatest(database)).toEqual(migrationsFrom("0036_jpeg_copies"));

    const dropId = await createDrop(database.db, {
      name: "Mareas",
      startAt: now,
      endAt: new Date(now.getTime() + 86_400_000),
      imageId: "portada",
      products: [
        {
          name: "Anillo Ola",
          categoria: "Anillo",
          material: "Oro amarillo",
          priceCents: 480_000,
          stock: 1,
          imageId: "pieza",
        },
      ],
    });
    const showcase = () => dropShowcase(database.db, storage, dropId, origin);
    // Before the job: the WebP, as before the migration.
    expect((await showcase()).cover?.url).toBe(`${origin}/media/drops/d/portada-960.webp`);
    expect((await showcase()).pieces[0]?.image?.url).toBe(`${origin}/media/drops/d/pieza-480.webp`);

    // Two app servers run the job at once: each copy is made once, neither fails.
    const [one, two] = await Promise.all([
      makeMissingJpegCopies(database.db, storage),
      makeMissingJpegCopies(database.db, storage),
    ]);
    // Each photo counted by the one server whose row update took.
    expect({ made: one.made + two.made, lost: one.lost + two.lost }).toEqual({ made: 2, lost: 1 });
    const media = await loadMedia(database.db, ["portada", "pieza", "perdida"]);
    expect([...media.values()].map((m) => [m.id, m.jpeg_widths]).sort()).toEqual([
      ["perdida", "0"],
      ["pieza", "480,960"],
      ["portada", "480,960"],
    ]);
    for (const key of ["drops/d/portada-480.jpg", "drops/d/portada-960.jpg", "drops/d/pieza-480.jpg"]) {
      const copy = await storage.read(key);
      expect(copy, key).not.toBeNull();
      expect(await sharp(copy ?? Buffer.alloc(0)).metadata(), key).toMatchObject({ format: "jpeg" });
    }
    // Two WebP and two JPEG files for each of the two photos.
    expect(await storage.list("drops/d/")).toHaveLength(8);

    // The e-mail and the link preview now show the JPEG; the lost photo keeps the address it had.
    expect((await showcase()).cover?.url).toBe(`${origin}/media/drops/d/portada-960.jpg`);
    expect((await showcase()).pieces[0]?.image?.url).toBe(`${origin}/media/drops/d/pieza-480.jpg`);
    const pieza = media.get("pieza");
    const perdida = media.get("perdida");
    if (!pieza || !perdida) throw new Error("rows");
    expect(imageView(storage, pieza).shareSrc).toBe("/media/drops/d/pieza-960.jpg");
    expect(imageView(storage, pieza).src).toBe("/media/drops/d/pieza-960.webp");
    expect(jpegUrl(storage, perdida, 480)).toBe("/media/drops/d/perdida-480.webp");

    // Nothing left to do: the next round reads, makes nothing and reads no photo again.
    expect(await makeMissingJpegCopies(database.db, storage)).toEqual({ made: 0, lost: 0 });
  });
});
