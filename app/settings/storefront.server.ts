import type { Db } from "~/db/database.server";
import { isId } from "~/lib/ids";
import { type ImageView, imageView, loadMedia } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { brandIllustration, type ShopSettings, type StorefrontStory } from "./settings";

/*
 * The storefront story's pictures (decision 40): an uploaded photo is stored like a drop's photos
 * (media rows, WebP widths) under its own folder and named in Configuración by media id; until the
 * owner uploads one, a picture names one of the brand's illustrations by its path.
 */

/** A picture as the pages show it: srcSet only for an uploaded photo. */
export interface StoryPicture {
  src: string;
  alt: string;
  width: number;
  height: number;
  srcSet?: string;
}

/** The hero's uploaded photo as pages show it (srcset, size, the owner's description); null when none or gone. */
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

/**
 * The shop's own link-preview picture for a page without a photo of its own: the hero photo the
 * owner uploaded (its JPEG copy, as home and /nosotros share it), or null for the brand's drawing.
 */
export async function shopShareImage(
  db: Db,
  storage: MediaStorage,
  heroImage: string | null,
): Promise<string | null> {
  return (await storyImage(db, storage, heroImage, ""))?.shareSrc ?? null;
}

/**
 * Each picture named (media id or illustration path) as pages show it, in one database read;
 * null for none, or for a photo that is gone.
 */
export async function storyPictures(
  db: Db,
  storage: MediaStorage,
  pictures: { ref: string | null; alt: string }[],
): Promise<(StoryPicture | null)[]> {
  const rows = await loadMedia(
    db,
    pictures.map((p) => (p.ref && isId(p.ref) ? p.ref : null)),
  );
  return pictures.map(({ ref, alt }) => {
    if (!ref) return null;
    const illustration = brandIllustration(ref);
    if (illustration) return { ...illustration, alt };
    const row = rows.get(ref);
    return row?.kind === "image" ? { ...imageView(storage, row), alt } : null;
  });
}

/** Every picture of the story that is an uploaded photo: its media id. */
function photoIds(story: StorefrontStory): string[] {
  return [
    story.heroImage,
    ...story.storyCards.map((c) => c.image),
    ...story.workshopPairs.flatMap((p) => [p.before, p.after]),
  ].filter((id): id is string => id !== null && isId(id));
}

/** The media Configuración names, which the sweep of unused uploads must leave alone. */
export function storyMediaIds(settings: ShopSettings): string[] {
  return photoIds(settings.storefront);
}

/** The uploaded photos a form names that are not (or no longer) stored images. */
export async function missingPhotos(db: Db, story: StorefrontStory): Promise<Set<string>> {
  const ids = photoIds(story);
  const rows = await loadMedia(db, ids);
  return new Set(ids.filter((id) => rows.get(id)?.kind !== "image"));
}
