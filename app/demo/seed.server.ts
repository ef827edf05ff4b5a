import { countDrops, insertDrop, type NewDrop, type NewProduct } from "~/catalogue/catalogue.server";
import { type Db, toTimestamp } from "~/db/database.server";
import type { NewMediaRow } from "~/db/schema";
import { newId } from "~/lib/ids";
import { storeImage } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { type ArtProcessing, cachedArtProcessing } from "./art-cache.server";
import { DEMO_DROPS, DEMO_WAITLIST, type DemoProduct } from "./catalogue";
import { writeDemoHistory } from "./history.server";
import { dropCoverSvg, jewelSvg } from "./jewel-art";

const HOUR = 3_600_000;
const SEEDED_KEY = "demo_catalogue_seeded_at";
/** Product shots are drawn at the largest width a product image is shown at. */
const PRODUCT_ART_SIZE = 960;

interface PreparedCatalogue {
  media: NewMediaRow[];
  drops: NewDrop[];
}

/** How far drawing the catalogue has come: images done of the total. */
export type SeedProgress = (done: number, total: number) => void;

interface DrawingOptions {
  onProgress?: SeedProgress;
  /** DEMO_ART_CACHE: a folder of art already drawn, to copy instead of drawing again. */
  artCache?: string | null;
}

/** Every image the demo catalogue draws: a cover per drop and each product's views. */
export const DEMO_IMAGE_COUNT = DEMO_DROPS.reduce(
  (sum, drop) => sum + 1 + drop.products.reduce((n, p) => n + p.extraViews + 1, 0),
  0,
);

interface Drawing {
  storage: MediaStorage;
  processing: ArtProcessing | undefined;
  now: Date;
  media: NewMediaRow[];
  progress: () => void;
}

/** Renders an SVG and stores its WebP variants through the upload pipeline; returns the row's id. */
async function storeArt(drawing: Drawing, dropId: string, svg: string) {
  const body = Buffer.from(svg);
  const row = await storeImage(drawing.storage, { dropId, body, now: drawing.now }, drawing.processing);
  drawing.media.push(row);
  drawing.progress();
  return row.id;
}

async function prepareProduct(drawing: Drawing, dropId: string, p: DemoProduct): Promise<NewProduct> {
  const art = { categoria: p.categoria, material: p.material, variant: p.artVariant };
  const views = Array.from({ length: p.extraViews + 1 }, (_, view) => view);
  const [main, ...extras] = await Promise.all(
    views.map((view) =>
      storeArt(drawing, dropId, jewelSvg({ ...art, view }, PRODUCT_ART_SIZE, PRODUCT_ART_SIZE)),
    ),
  );
  return {
    name: p.name,
    description: p.description,
    categoria: p.categoria,
    material: p.material,
    priceCents: p.priceCents,
    stock: p.stock,
    imageId: main ?? null,
    extraImageIds: extras,
    // Grams with up to two decimals → whole milligrams (2.35 → 2350).
    metal: { karat: p.karat, weightMg: Math.round(p.grams * 1000), stones: p.stones },
    editionSize: p.edition ?? null,
    option: p.option && {
      name: p.option.name,
      values: p.option.values.map(([value, stock]) => ({ value, stock })),
    },
  };
}

/**
 * Draws and stores every image of the demo catalogue (the slow part) and returns what to write to
 * the database. Dates are relative to `now`.
 */
async function prepareDemoCatalogue(
  storage: MediaStorage,
  now: Date,
  options: DrawingOptions,
): Promise<PreparedCatalogue> {
  let done = 0;
  const { onProgress, artCache } = options;
  const drawing: Drawing = {
    storage,
    processing: artCache ? cachedArtProcessing(artCache) : undefined,
    now,
    media: [],
    progress: () => onProgress?.(++done, DEMO_IMAGE_COUNT),
  };
  const drops: NewDrop[] = [];
  for (const drop of DEMO_DROPS) {
    const id = newId();
    // Images of one drop are rendered together: sharp's thread pool spreads them over every core.
    const [imageId, products] = await Promise.all([
      storeArt(drawing, id, dropCoverSvg(drop.cover, 1600, 900)),
      Promise.all(drop.products.map((p) => prepareProduct(drawing, id, p))),
    ]);
    drops.push({
      id,
      name: drop.name,
      smallDescription: drop.smallDescription,
      fullDescription: drop.fullDescription,
      description: drop.description,
      startAt: new Date(now.getTime() + drop.startOffsetHours * HOUR),
      endAt: new Date(now.getTime() + drop.endOffsetHours * HOUR),
      status: drop.status,
      createdAt: new Date(now.getTime() + drop.createdOffsetHours * HOUR),
      imageId,
      products,
    });
  }
  return { media: drawing.media, drops };
}

/**
 * Writes the drops and the upcoming drop's 'Avísame' list; with `history` (a first start only,
 * never over an owner's shop) also the past orders and lists of the ended and archived drops.
 */
async function writeCatalogue(
  trx: Db,
  prepared: PreparedCatalogue,
  now: Date,
  options: { history: boolean },
): Promise<string[]> {
  if (prepared.media.length > 0) await trx.insertInto("media").values(prepared.media).execute();
  const ids: string[] = [];
  for (const drop of prepared.drops) ids.push(await insertDrop(trx, drop, now));
  const upcoming = ids[DEMO_DROPS.findIndex((d) => d.role === "upcoming")];
  if (upcoming) await writeWaitlist(trx, upcoming, now);
  if (options.history) await writeDemoHistory(trx, ids, now);
  return ids;
}

/** The upcoming drop's 'Avísame' list, straight in the table (no confirmation e-mails go out). */
async function writeWaitlist(trx: Db, dropId: string, now: Date): Promise<void> {
  const ago = (hours: number | undefined) =>
    hours === undefined ? null : toTimestamp(new Date(now.getTime() - hours * HOUR));
  await trx
    .insertInto("waitlist_subscriptions")
    .values(
      DEMO_WAITLIST.map((s) => ({
        id: newId(),
        drop_id: dropId,
        email: s.email,
        status: s.status,
        // Links in e-mails use PUBLIC_URL when it is set; this is the address `npm start` serves.
        site_url: "http://localhost:3000",
        created_at: toTimestamp(new Date(now.getTime() - s.signedUpHoursAgo * HOUR)),
        confirmation_sent_at: toTimestamp(new Date(now.getTime() - s.signedUpHoursAgo * HOUR)),
        confirmed_at: ago(s.confirmedHoursAgo),
        unsubscribed_at: ago(s.unsubscribedHoursAgo),
      })),
    )
    .execute();
}

async function discardFiles(storage: MediaStorage, prepared: PreparedCatalogue) {
  for (const drop of prepared.drops) await storage.deletePrefix(`drops/${drop.id}/`);
}

/** A write that failed leaves no prepared images behind, then fails as it would have. */
function discardOnFailure(storage: MediaStorage, prepared: PreparedCatalogue) {
  return async (error: unknown): Promise<never> => {
    await discardFiles(storage, prepared);
    throw error;
  };
}

/**
 * Loads the demo catalogue, with its past orders and 'Avísame' lists (history.ts), on the very
 * first start of an empty database, once. Images are made
 * first; then one transaction claims the marker row and writes every drop, so a start that is
 * interrupted leaves either the whole demo or nothing, two servers starting together seed once, and
 * a shop whose owner later deletes every drop does not get the demo back.
 */
export async function seedDemoOnFirstStart(
  db: Db,
  storage: MediaStorage,
  options: DrawingOptions & { now?: Date; onSeeding?: () => void } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  const marker = await db
    .selectFrom("shop_meta")
    .select("key")
    .where("key", "=", SEEDED_KEY)
    .executeTakeFirst();
  if (marker || (await countDrops(db)) > 0) return false;
  options.onSeeding?.();
  const prepared = await prepareDemoCatalogue(storage, now, options);
  const seeded = await db
    .transaction()
    .execute(async (trx) => {
      const claimed = await trx
        .insertInto("shop_meta")
        .values({ key: SEEDED_KEY, value: now.toISOString() })
        .onConflict((oc) => oc.column("key").doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await writeCatalogue(trx, prepared, now, { history: true });
      return true;
    })
    .catch(discardOnFailure(storage, prepared));
  if (!seeded) await discardFiles(storage, prepared); // another server got there first
  return seeded;
}

/** `npm run seed -- --replace`: deletes every drop and its media, then loads the demo catalogue. */
export async function replaceWithDemoCatalogue(
  db: Db,
  storage: MediaStorage,
  options: DrawingOptions & { now?: Date } = {},
): Promise<string[]> {
  const now = options.now ?? new Date();
  const prepared = await prepareDemoCatalogue(storage, now, options);
  const old = await db.selectFrom("drops").select("id").execute();
  const ids = await db
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom("drops").execute();
      await trx.deleteFrom("media").where("drop_id", "is not", null).execute();
      await trx
        .insertInto("shop_meta")
        .values({ key: SEEDED_KEY, value: now.toISOString() })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: now.toISOString() }))
        .execute();
      // The shop's orders are its own: the demo's past orders are not written over them.
      return writeCatalogue(trx, prepared, now, { history: false });
    })
    .catch(discardOnFailure(storage, prepared));
  for (const drop of old) await storage.deletePrefix(`drops/${drop.id}/`);
  return ids;
}

/**
 * Progress as log lines: one each fifth of the way and one at the end, so a terminal (or a log
 * collector) shows the first start moving without a line per image.
 */
export function progressLines(log: (line: string) => void): SeedProgress {
  let lastStep = 0;
  return (done, total) => {
    const step = Math.floor((done / total) * 5);
    if (step === lastStep && done !== total) return;
    lastStep = step;
    log(`Catálogo de demostración: ${done} de ${total} imágenes dibujadas.`);
  };
}
