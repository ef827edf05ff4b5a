import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { errorLine } from "~/lib/errors";
import type { MediaStorage } from "~/media/storage.server";
import type { DropInput } from "./drop-input";
import type { DropRefusal } from "./types";

/*
 * The photos and video a drop form names: uploaded before the save under the drop's folder, checked
 * to be the drop's own, described, and deleted (rows in the save, files after it) once unused.
 */

/** A media row a save left unused: its row goes with the save, its files after commit. */
export interface UnusedMedia {
  id: string;
  key: string;
}

/** Every media id a form names, by kind. */
function namedMedia(input: DropInput) {
  const images = [input.imageId, ...input.products.flatMap((p) => [p.imageId, ...p.extraImageIds])].filter(
    (id) => id !== "",
  );
  return { images, video: input.videoId || null };
}

/** The form names only photos and videos uploaded for this drop, of the right kind. */
export async function checkMedia(trx: Db, dropId: string, input: DropInput): Promise<DropRefusal | null> {
  const { images, video } = namedMedia(input);
  const wanted = [...new Set([...images, ...(video ? [video] : [])])];
  if (wanted.length === 0) return null;
  const rows = await trx
    .selectFrom("media")
    .select(["id", "kind", "drop_id"])
    .where("id", "in", wanted)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const bad =
    images.some((id) => byId.get(id)?.kind !== "image" || byId.get(id)?.drop_id !== dropId) ||
    (video !== null && (byId.get(video)?.kind !== "video" || byId.get(video)?.drop_id !== dropId));
  return bad
    ? {
        ok: false,
        reason: "medios_invalidos",
        message: "Una imagen o el video ya no está disponible: súbelo de nuevo.",
      }
    : null;
}

/** The descriptions typed for the form's photos, on their media rows. */
export async function writeAlts(trx: Db, input: DropInput) {
  const alts: [string, string][] = [];
  if (input.imageId) alts.push([input.imageId, input.imageAlt]);
  for (const p of input.products) {
    if (p.imageId) alts.push([p.imageId, p.imageAlt]);
    p.extraImageIds.forEach((id, i) => {
      alts.push([id, p.extraImageAlts[i] ?? ""]);
    });
  }
  for (const [id, alt] of alts) await trx.updateTable("media").set({ alt }).where("id", "=", id).execute();
}

/** Media rows of the drop that no longer appear in it: their rows go now, their files after commit. */
async function unusedMedia(trx: Db, dropId: string): Promise<UnusedMedia[]> {
  const [drop, products, extras, media] = await Promise.all([
    trx.selectFrom("drops").select(["image_id", "video_id"]).where("id", "=", dropId).executeTakeFirst(),
    trx.selectFrom("products").select("image_id").where("drop_id", "=", dropId).execute(),
    trx
      .selectFrom("product_images")
      .innerJoin("products", "products.id", "product_images.product_id")
      .select("product_images.media_id")
      .where("products.drop_id", "=", dropId)
      .execute(),
    trx.selectFrom("media").select(["id", "key"]).where("drop_id", "=", dropId).execute(),
  ]);
  const used = new Set([
    drop?.image_id,
    drop?.video_id,
    ...products.map((p) => p.image_id),
    ...extras.map((e) => e.media_id),
  ]);
  return media.filter((m) => !used.has(m.id));
}

/** Deletes the rows of the drop's media the save left unused and returns them (files go later). */
export async function dropUnusedMediaRows(trx: Db, dropId: string): Promise<UnusedMedia[]> {
  const rows = await unusedMedia(trx, dropId);
  if (rows.length > 0)
    await trx
      .deleteFrom("media")
      .where(
        "id",
        "in",
        rows.map((r) => r.id),
      )
      .execute();
  return rows;
}

/** The files of media rows deleted by a save that committed. */
export async function deleteFiles(storage: MediaStorage, rows: { key: string }[]) {
  for (const row of rows) {
    await storage.deletePrefix(row.key).catch((error) => {
      // The sweep of unused files retries later; the save itself succeeded.
      log.error({ key: row.key, error: errorLine(error) }, "No se pudo borrar un archivo");
    });
  }
}
