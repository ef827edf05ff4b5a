import type { Db } from "~/db/database.server";
import { type ImageView, imageView, loadMedia } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import type { ShopSettings } from "./settings";

/*
 * The storefront story's uploaded photos (decision 40): stored like a drop's photos (media rows,
 * WebP widths) under their own folder, named in Configuración by media id.
 */

/** The uploaded photo as pages show it (srcset, size, the owner's description); null when none or gone. */
export async function storyImage(
  db: Db,
  storage: MediaStorage,
  id: string | null,
  alt: string,
): Promise<ImageView | null> {
  if (!id) return null;
  const row = (await loadMedia(db, [id])).get(id);
  if (row?.kind !== "image") return null;
  return { ...imageView(storage, row), alt };
}

/** The media Configuración names, which the sweep of unused uploads must leave alone. */
export function storyMediaIds(settings: ShopSettings): string[] {
  return settings.storefront.heroImage ? [settings.storefront.heroImage] : [];
}
