import { PostgresAdapter } from "kysely";
import { type Db, toDate } from "~/db/database.server";
import { jpegCopyKey, jpegWidths, variantKey } from "./images.server";
import { parseWidths } from "./media.server";
import type { MediaStorage } from "./storage.server";

/** Uploads younger than this are left alone: the form that made them may still be open. */
export const SWEEP_GRACE_HOURS = 24;

/**
 * A stored file's media key: images are `<key>-<width>.webp` and their JPEG copies
 * `<key>-<width>.jpg`, a video is its key itself.
 */
function mediaKeyOf(fileKey: string): string {
  return fileKey.replace(/-\d+\.(?:webp|jpg)$/, "");
}

/**
 * Removes media nothing uses, once they are older than the grace period: rows (and their files)
 * that no drop, product or gallery names — photos uploaded on a form that was never saved — and
 * files under drops/ that no row names (an upload cut off between storing and recording). `keep`
 * names media used elsewhere (the storefront's photos in Configuración). Safe on several app
 * servers at once: deleting what is already gone does nothing. On the way, photos whose JPEG copies
 * are missing, or marked as impossible while their WebP is there, are put back in line for the job
 * that makes them (`copies`; app/media/jpeg-copies.server.ts).
 */
export async function sweepUnusedMedia(
  db: Db,
  storage: MediaStorage,
  now = new Date(),
  keep: readonly string[] = [],
): Promise<{ rows: number; files: number; copies: number }> {
  const cutoff = now.getTime() - SWEEP_GRACE_HOURS * 3_600_000;
  const [rows, drops, products, extras] = await Promise.all([
    db
      .selectFrom("media")
      .select(["id", "kind", "key", "drop_id", "widths", "jpeg_widths", "created_at"])
      .execute(),
    db.selectFrom("drops").select(["image_id", "video_id"]).execute(),
    db.selectFrom("products").select("image_id").execute(),
    db.selectFrom("product_images").select("media_id").execute(),
  ]);
  const used = new Set<string | null>([
    ...keep,
    ...drops.flatMap((d) => [d.image_id, d.video_id]),
    ...products.map((p) => p.image_id),
    ...extras.map((e) => e.media_id),
  ]);
  const stale = rows.filter(
    (r) => r.drop_id !== null && !used.has(r.id) && toDate(r.created_at).getTime() < cutoff,
  );
  const removed: typeof stale = [];
  for (const row of stale) {
    // Deleted only if still unused at this moment (a save may have just named it); its files only
    // then. On PostgreSQL a save naming the photo holds a lock on its row until it commits, and a
    // DELETE waiting for that lock would then go ahead on what it read before (emptying the save's
    // photo through the foreign key): the row is locked first, so the check, a statement of its
    // own, reads what that save committed. On SQLite the delete is one statement under the write
    // lock, which no save holds at the same time.
    const deleted = await db.transaction().execute(async (trx) => {
      await lockMediaRow(trx, row.id);
      return trx
        .deleteFrom("media")
        .where("id", "=", row.id)
        .where(({ not, exists, selectFrom, or }) =>
          not(
            or([
              exists(
                selectFrom("drops")
                  .select("id")
                  .where((eb) => eb.or([eb("image_id", "=", row.id), eb("video_id", "=", row.id)])),
              ),
              exists(selectFrom("products").select("id").where("image_id", "=", row.id)),
              exists(selectFrom("product_images").select("media_id").where("media_id", "=", row.id)),
            ]),
          ),
        )
        .executeTakeFirst();
    });
    if (Number(deleted.numDeletedRows) === 0) continue;
    removed.push(row);
    await storage.deletePrefix(row.key);
  }

  const kept = rows.filter((r) => !removed.includes(r));
  const named = new Set(kept.map((r) => r.key));
  // Listed after the rows were read: a copy a row names was written before the row named it.
  const listed = await storage.listWithDates("drops/");
  let files = 0;
  for (const file of listed) {
    if (named.has(mediaKeyOf(file.key)) || file.modifiedAt.getTime() >= cutoff) continue;
    await storage.deletePrefix(file.key);
    files++;
  }
  let copies = 0;
  for (const row of jpegCopiesToRemake(kept, new Set(listed.map((f) => f.key)))) {
    const reset = await db
      .updateTable("media")
      .set({ jpeg_widths: "" })
      .where("id", "=", row.id)
      .where("jpeg_widths", "=", row.jpeg_widths)
      .executeTakeFirst();
    copies += Number(reset.numUpdatedRows);
  }
  return { rows: removed.length, files, copies };
}

/**
 * Photos under drops/ whose JPEG copies must be made again: one it lists is not stored (deleted
 * by hand, or by a server of an older version, whose sweep did not know them), or it is marked as
 * having none ("0") while a WebP to make them from is stored (a storage that answered "not found"
 * while misconfigured).
 */
export function jpegCopiesToRemake<
  R extends { id: string; kind: string; key: string; widths: string; jpeg_widths: string },
>(rows: R[], stored: ReadonlySet<string>): R[] {
  return rows.filter((row) => {
    if (row.kind !== "image" || !row.key.startsWith("drops/")) return false;
    if (row.jpeg_widths === "0") {
      return jpegWidths(parseWidths(row.widths)).some((w) => stored.has(variantKey(row.key, w)));
    }
    return parseWidths(row.jpeg_widths).some((w) => !stored.has(jpegCopyKey(row.key, w)));
  });
}

/** PostgreSQL: the media row locked for the rest of the transaction (waiting for a save holding it). */
async function lockMediaRow(trx: Db, id: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await trx.selectFrom("media").select("id").where("id", "=", id).forUpdate().execute();
}
