import type { Db } from "~/db/database.server";
import type { MediaStorage } from "~/media/storage.server";
import { deleteFiles, type UnusedMedia } from "./form-media.server";
import { type DropRefusal, type DropResult, Refused } from "./types";

/**
 * Runs one save of the drop form in a transaction. A refusal returned commits what was done (the
 * steps return one only before writing anything); a `Refused` thrown rolls everything back and is
 * returned. Once committed, the files of the media the save left unused are deleted.
 */
export async function saveDropForm(
  db: Db,
  storage: MediaStorage,
  save: (trx: Db) => Promise<DropRefusal | { ok: true; unused: UnusedMedia[] }>,
): Promise<DropResult> {
  const result = await db
    .transaction()
    .execute(save)
    .catch((error: unknown) => {
      if (error instanceof Refused) return error.refusal;
      throw error;
    });
  if (!result.ok) return result;
  await deleteFiles(storage, result.unused);
  return { ok: true };
}
