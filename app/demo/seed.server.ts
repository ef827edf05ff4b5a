import sharp from "sharp";
import { countDrops, createDrop } from "~/catalogue/catalogue.server";
import type { Db } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { saveImage } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { DEMO_DROPS, type DemoProduct } from "./catalogue";
import { dropCoverSvg, jewelSvg } from "./jewel-art";

const HOUR = 3_600_000;
const SEEDED_KEY = "demo_catalogue_seeded_at";

/** Product shots are drawn at the largest width a product image is shown at. */
const PRODUCT_ART_SIZE = 960;

/** Renders an SVG and stores it like an upload (checked, re-encoded to WebP variants). */
async function storeArt(db: Db, storage: MediaStorage, dropId: string, svg: string, now: Date) {
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
  return saveImage(db, storage, { dropId, body: png, now });
}

async function demoProduct(db: Db, storage: MediaStorage, dropId: string, p: DemoProduct, now: Date) {
  const art = { categoria: p.categoria, material: p.material, variant: p.artVariant };
  const views = Array.from({ length: p.extraViews + 1 }, (_, view) => view);
  const [main, ...extras] = await Promise.all(
    views.map((view) =>
      storeArt(db, storage, dropId, jewelSvg({ ...art, view }, PRODUCT_ART_SIZE, PRODUCT_ART_SIZE), now),
    ),
  );
  return {
    name: p.name,
    description: p.description,
    categoria: p.categoria,
    material: p.material,
    priceCents: p.priceCents,
    stock: p.stock,
    imageId: main?.id ?? null,
    extraImageIds: extras.map((e) => e.id),
  };
}

/** Writes the four demo drops, their products and generated images. Dates are relative to `now`. */
export async function seedDemoCatalogue(db: Db, storage: MediaStorage, now = new Date()): Promise<string[]> {
  const ids: string[] = [];
  for (const drop of DEMO_DROPS) {
    const dropId = newId();
    // Images of one drop are rendered together: sharp spreads the work over every core.
    const [cover, ...products] = await Promise.all([
      storeArt(db, storage, dropId, dropCoverSvg(drop.cover, 1600, 900), now),
      ...drop.products.map((p) => demoProduct(db, storage, dropId, p, now)),
    ]);
    ids.push(
      await createDrop(
        db,
        {
          id: dropId,
          name: drop.name,
          smallDescription: drop.smallDescription,
          fullDescription: drop.fullDescription,
          description: drop.description,
          startAt: new Date(now.getTime() + drop.startOffsetHours * HOUR),
          endAt: new Date(now.getTime() + drop.endOffsetHours * HOUR),
          status: drop.status,
          createdAt: new Date(now.getTime() + drop.createdOffsetHours * HOUR),
          imageId: (cover as { id: string }).id,
          products: products as Awaited<ReturnType<typeof demoProduct>>[],
        },
        now,
      ),
    );
  }
  return ids;
}

/**
 * Loads the demo catalogue on the very first start of an empty database, once. The marker row is
 * claimed before seeding so two servers starting together seed once, and a shop whose owner later
 * deletes every drop does not get the demo back.
 */
export async function seedDemoOnFirstStart(
  db: Db,
  storage: MediaStorage,
  options: { now?: Date; onSeeding?: () => void } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  if ((await countDrops(db)) > 0) return false;
  const claimed = await db
    .insertInto("shop_meta")
    .values({ key: SEEDED_KEY, value: now.toISOString() })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  options.onSeeding?.();
  try {
    await seedDemoCatalogue(db, storage, now);
  } catch (error) {
    await db.deleteFrom("shop_meta").where("key", "=", SEEDED_KEY).execute();
    throw error;
  }
  return true;
}

/** `npm run seed -- --replace`: deletes every drop and its media, then loads the demo catalogue. */
export async function replaceWithDemoCatalogue(
  db: Db,
  storage: MediaStorage,
  now = new Date(),
): Promise<string[]> {
  await db.deleteFrom("drops").execute();
  await db.deleteFrom("media").execute();
  await storage.deletePrefix("drops/");
  const ids = await seedDemoCatalogue(db, storage, now);
  await db
    .insertInto("shop_meta")
    .values({ key: SEEDED_KEY, value: now.toISOString() })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: now.toISOString() }))
    .execute();
  return ids;
}
