import { heldPieces, soldOutIds } from "~/catalogue/held-pieces.server";
import type { PublicShopSettings } from "~/config/env.server";
import { HERO_SHARE_IMAGE } from "~/content/brand";
import type { Db } from "~/db/database.server";
import { absoluteUrl } from "~/lib/urls";
import type { MediaStorage } from "~/media/storage.server";
import type { DropInfo, Product } from "./catalogue.server";
import { isDropPurchasable } from "./drop-time";
import { type DropSummaryView, dropSummary, type ProductTileView, productTile } from "./views.server";

/*
 * What the storefront's pages (home, a collection, a product) assemble alike: the shop's details
 * in force, pieces held by unpaid checkouts (asked only of drops on sale, and only of their
 * sold-out products), each drop's summary with its product tiles and whether it takes 'Avísame'
 * sign-ups, and the page's block for search engines and link previews, with absolute addresses.
 */

/** What a storefront page reads of the shop's services. */
export interface StorefrontServices {
  database: { db: Db };
  media: MediaStorage;
  settings: { current(): { shop: PublicShopSettings } };
}

/** A drop the page shows, with the products it lists (filtered and sorted as the page wants). */
export interface ShownDrop {
  drop: DropInfo;
  products: readonly Product[];
}

/** A drop as the storefront shows it: its summary, its tiles and whether it takes sign-ups. */
export interface StorefrontDropView extends DropSummaryView {
  waitlist: boolean;
  products: ProductTileView[];
}

/** The page's words for search engines and link previews; `path` and `image` relative to the shop. */
export interface SeoInput {
  description: string;
  path: string;
  /** The page's own photo; null: the brand's share image (every public page has one). */
  image: string | null;
}

/** The block `pageMeta` reads (the page adds its own `title`). */
export interface StorefrontSeo {
  description: string;
  /** The page's canonical address. */
  url: string;
  /** The link-preview image's absolute address. */
  image: string;
  shopName: string;
}

export interface StorefrontPage {
  shop: PublicShopSettings;
  drops: StorefrontDropView[];
  /** Pieces held by unpaid checkouts, per sold-out product listed of a drop on sale. */
  held: ReadonlyMap<string, number>;
  seo(page: SeoInput): StorefrontSeo;
  /** An address of the shop (a /media URL, a page) made absolute. */
  absolute(path: string): string;
}

/** The SEO block of a public page of the shop at `origin`. */
export function pageSeo(origin: string, shopName: string, page: SeoInput): StorefrontSeo {
  return {
    description: page.description,
    url: `${origin}${page.path}`,
    image: absoluteUrl(origin, page.image ?? HERO_SHARE_IMAGE),
    shopName,
  };
}

/**
 * The shared part of a storefront page showing `shown` at `now` on the shop at `origin`.
 * `takesSignUps` is the waitlist's rule for 'Avísame' (the waitlist sits above the catalogue, so
 * the route hands it in).
 */
export async function storefrontPage(
  services: StorefrontServices,
  origin: string,
  shown: readonly ShownDrop[],
  { now, takesSignUps }: { now: Date; takesSignUps: (drop: DropInfo, now: Date) => boolean },
): Promise<StorefrontPage> {
  const { database, media, settings } = services;
  const { shop } = settings.current();
  const held = await heldPieces(
    database.db,
    // Only a drop on sale can show 'Apartado': the others' pieces are not worth asking about.
    shown.filter((s) => isDropPurchasable(s.drop, now)).flatMap((s) => soldOutIds(s.products)),
  );
  return {
    shop,
    drops: shown.map(({ drop, products }) => ({
      ...dropSummary(media, drop, now),
      waitlist: takesSignUps(drop, now),
      products: products.map((p) => productTile(media, drop, p, held)),
    })),
    held,
    seo: (page) => pageSeo(origin, shop.name, page),
    absolute: (path) => absoluteUrl(origin, path),
  };
}
