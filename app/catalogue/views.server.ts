import { formatMXN } from "~/lib/money";
import { type ImageView, imageView } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import type { Drop, Product } from "./catalogue.server";
import { DROP_TIME_LABELS, dropTimeState, isDropPurchasable } from "./drop-time";
import { productTileLabel } from "./storefront";

/** What a product tile shows: serialisable, prices already formatted. */
export interface ProductTileView {
  id: string;
  dropId: string;
  name: string;
  price: string;
  label: ReturnType<typeof productTileLabel>;
  image: ImageView | null;
  href: string;
}

export function productHref(dropId: string, productId: string): string {
  return `/drop/${dropId}/product/${productId}`;
}

export function productTile(storage: MediaStorage, drop: Drop, product: Product, now: Date): ProductTileView {
  return {
    id: product.id,
    dropId: drop.id,
    name: product.name,
    price: formatMXN(product.priceCents),
    label: productTileLabel(drop, product.stock, now),
    image: product.image ? imageView(storage, product.image) : null,
    href: productHref(drop.id, product.id),
  };
}

export interface DropSummaryView {
  id: string;
  name: string;
  smallDescription: string;
  fullDescription: string;
  description: string;
  fechas: string;
  state: string;
  running: boolean;
  endsAt: string;
  image: ImageView | null;
  video: string | null;
  href: string;
}

export function dropSummary(
  storage: MediaStorage,
  drop: Drop,
  now: Date,
  datesText: string,
): DropSummaryView {
  return {
    id: drop.id,
    name: drop.name,
    smallDescription: drop.smallDescription,
    fullDescription: drop.fullDescription,
    description: drop.description,
    fechas: drop.fechas || datesText,
    state: DROP_TIME_LABELS[dropTimeState(drop, now)],
    running: isDropPurchasable(drop, now),
    endsAt: drop.endAt.toISOString(),
    image: drop.image ? imageView(storage, drop.image) : null,
    video: drop.video ? storage.publicUrl(drop.video.key) : null,
    href: `/coleccion/${drop.id}`,
  };
}
