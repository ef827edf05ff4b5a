import type { CurrentProduct } from "~/cart/reconcile";
import type { Db } from "~/db/database.server";
import { dateRangeText, openingText } from "~/lib/dates";
import { formatMXN } from "~/lib/money";
import { absoluteUrl } from "~/lib/urls";
import { type ImageView, imageView, jpegUrl, variantUrl } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { type DropInfo, getProductsWithDrops, type Product } from "./catalogue.server";
import { type DropMoment, type DropTimeState, dropTimeState, isDropPurchasable } from "./drop-time";
import { heldByBrowser, heldPieces, soldOutIds } from "./held-pieces.server";
import { heldPerValue } from "./options.server";

/** What a product tile shows: serialisable, prices already formatted. */
export interface ProductTileView {
  id: string;
  dropId: string;
  name: string;
  price: string;
  /** The tile's label follows from the drop's moment and these (see `pieceLabel`). */
  stock: number;
  /** Pieces in checkouts waiting for payment, counted only when none is left ('Apartado'). */
  held: number;
  image: ImageView | null;
  href: string;
}

export function dropHref(dropId: string): string {
  return `/coleccion/${dropId}`;
}

export function productHref(dropId: string, productId: string): string {
  return `/drop/${dropId}/product/${productId}`;
}

/** `held`: pieces of sold-out products held by unpaid checkouts (see held-pieces.server.ts). */
export function productTile(
  storage: MediaStorage,
  drop: DropInfo,
  product: Product,
  held: ReadonlyMap<string, number> = new Map(),
): ProductTileView {
  return {
    id: product.id,
    dropId: drop.id,
    name: product.name,
    price: formatMXN(product.priceCents),
    stock: product.stock,
    held: held.get(product.id) ?? 0,
    image: product.image ? imageView(storage, product.image) : null,
    href: productHref(drop.id, product.id),
  };
}

export interface DropSummaryView extends DropMoment {
  id: string;
  name: string;
  smallDescription: string;
  fullDescription: string;
  description: string;
  fechas: string;
  /** The time state when the page was rendered; the browser follows the clock from there. */
  state: DropTimeState;
  /** "Abre el sábado 5 de diciembre, 10:00 h (hora de la Ciudad de México)". */
  opensText: string;
  image: ImageView | null;
  video: string | null;
  href: string;
}

/** `fechas` is the text the owner wrote, or else the drop's date range. */
export function dropSummary(storage: MediaStorage, drop: DropInfo, now: Date): DropSummaryView {
  return {
    id: drop.id,
    name: drop.name,
    smallDescription: drop.smallDescription,
    fullDescription: drop.fullDescription,
    description: drop.description,
    fechas: drop.fechas || dateRangeText(drop.startAt, drop.endAt),
    state: dropTimeState(drop, now),
    startsAt: drop.startAt.toISOString(),
    endsAt: drop.endAt.toISOString(),
    archived: drop.status === "archivada",
    opensText: openingText(drop.startAt, now),
    image: drop.image ? imageView(storage, drop.image) : null,
    video: drop.video ? storage.publicUrl(drop.video.key) : null,
    href: dropHref(drop.id),
  };
}

/**
 * What the cart drawer revalidates: each known product's current name, price, small image and
 * stock, and whether its drop sells now. Unknown ids are skipped.
 */
export async function cartProducts(
  db: Db,
  storage: MediaStorage,
  ids: string[],
  now: Date,
  /** The browser asking (its cookie), whose own unpaid checkout's pieces are still its to pay. */
  browser: string | null = null,
): Promise<CurrentProduct[]> {
  const rows = await getProductsWithDrops(db, ids, now);
  const held = await heldPieces(db, soldOutIds(rows.map((r) => r.product)));
  // A size at 0 with pieces in others' unpaid checkouts is 'Apartado', not gone.
  const heldValues = await heldPerValue(
    db,
    rows.flatMap((r) => r.product.option?.values.filter((v) => v.stock <= 0).map((v) => v.id) ?? []),
  );
  // Its own held pieces are neither gone nor someone else's: counted back as its stock.
  const own = browser
    ? await heldByBrowser(
        db,
        browser,
        rows.map((r) => r.product.id),
      )
    : null;
  return rows.map(({ product, drop }) => {
    const mine = own?.products.get(product.id) ?? 0;
    return {
      id: product.id,
      name: product.name,
      priceCents: product.priceCents,
      stock: product.stock + mine,
      image: product.image ? variantUrl(storage, product.image, 0) : null,
      purchasable: isDropPurchasable(drop, now),
      held: Math.max(0, (held.get(product.id) ?? 0) - mine),
      maxPerPerson: drop.maxPerOrder,
      option: product.option && {
        name: product.option.name,
        values: product.option.values.map((v) => {
          const mineOfValue = own?.values.get(v.id) ?? 0;
          return {
            ...v,
            stock: v.stock + mineOfValue,
            held: Math.max(0, (heldValues.get(v.id) ?? 0) - mineOfValue),
          };
        }),
      },
    };
  });
}

/**
 * Absolute addresses of the products' main images, for the payment page's line items: their JPEG
 * copies, since the provider may show them outside a browser (its receipts).
 */
export async function productImageUrls(
  db: Db,
  storage: MediaStorage,
  origin: string,
  ids: string[],
): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const { product } of await getProductsWithDrops(db, ids, new Date())) {
    if (product.image) urls.set(product.id, absoluteUrl(origin, jpegUrl(storage, product.image, 960)));
  }
  return urls;
}
