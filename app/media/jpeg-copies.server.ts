import { sql } from "kysely";
import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { jpegCopyKey, jpegCopyOf, jpegWidths, variantKey } from "./images.server";
import { parseWidths } from "./media.server";
import { loadSharp } from "./sharp.server";
import { MediaKeyTaken, type MediaStorage } from "./storage.server";

/*
 * JPEG copies (for e-mails and link previews, which may show no WebP) of the photos stored before
 * they were made with every upload (migration 0036; decision 4): made from each photo's stored WebP
 * copies of the same widths, a batch at a time, by a background job of every app server. Photos are
 * not claimed: each server takes them in a random order, so two seldom work on the same one, and
 * when they do its copy is written once (a key is written once; the other's write is refused and
 * counts as made) and its row set once. A photo deleted meanwhile may leave a copy behind, which
 * the sweep of unused files removes. The sweep also puts back in line a photo whose copies have
 * gone missing, or whose WebP has come back (`jpegCopiesToRemake`).
 */

/** Photos read per batch: each is a decode and one or two encodes, off the event loop (sharp). */
const BATCH = 20;

/** Makes the missing copies: how many photos got theirs, and how many cannot have them. */
export async function makeMissingJpegCopies(
  db: Db,
  storage: MediaStorage,
): Promise<{ made: number; lost: number }> {
  let made = 0;
  let lost = 0;
  // Each photo once a round, whatever its row says meanwhile.
  const tried = new Set<string>();
  for (;;) {
    const rows = await db
      .selectFrom("media")
      .select(["id", "key", "widths"])
      .where("kind", "=", "image")
      .where("jpeg_widths", "=", "")
      .orderBy(sql`random()`)
      .limit(BATCH)
      .execute();
    const due = rows.filter((row) => !tried.has(row.id));
    if (due.length === 0) break;
    // sharp, before any photo (and only when there is one: this job runs at every start): a
    // library that cannot load fails the round, tried again at the next, rather than each photo
    // being marked as one that cannot have copies.
    await loadSharp();
    for (const row of due) {
      tried.add(row.id);
      const widths = await copiesOf(storage, row.key, jpegWidths(parseWidths(row.widths)));
      // "0": nothing to copy from (its WebP is gone, or does not decode); the e-mails keep the WebP
      // address they had, and the job does not read it again (unless the sweep finds its WebP).
      const set = await db
        .updateTable("media")
        .set({ jpeg_widths: widths.length > 0 ? widths.join(",") : "0" })
        .where("id", "=", row.id)
        .where("jpeg_widths", "=", "")
        .executeTakeFirst();
      // Set by another server meanwhile, or deleted: counted there, or not at all.
      if (Number(set.numUpdatedRows) === 0) continue;
      if (widths.length > 0) made++;
      else lost++;
    }
  }
  return { made, lost };
}

/** Writes the photo's JPEG copy of each width from its WebP one: the widths it has a copy of. */
async function copiesOf(storage: MediaStorage, key: string, widths: number[]): Promise<number[]> {
  const copied: number[] = [];
  for (const width of widths) {
    // A storage that does not answer fails the round (tried again at the next one).
    const source = await storage.read(variantKey(key, width));
    if (source === null) continue;
    let copy: Buffer;
    try {
      copy = await jpegCopyOf(source);
    } catch (error) {
      log.warn(
        { key, width, error: (error as Error).message },
        "Una foto guardada no se pudo leer para su copia JPEG",
      );
      continue;
    }
    try {
      await storage.put(jpegCopyKey(key, width), copy, "image/jpeg");
    } catch (error) {
      if (!(error instanceof MediaKeyTaken)) throw error;
    }
    copied.push(width);
  }
  return copied;
}
