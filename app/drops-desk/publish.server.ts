import { visibleFromRefusal } from "~/catalogue/publishing";
import { type Db, toDate, toTimestamp } from "~/db/database.server";

/*
 * 'Publicar', 'Volver a borrador' and 'Archivar' (decision 38). Publishing changes nothing the
 * edit form holds, so it leaves `updated_at` (the form's version) alone: a form open meanwhile
 * still saves. Archiving changes the form's status, so it gives the drop a new version.
 */

/** The publication as the edit page shows it. */
export async function publicationForEdit(
  db: Db,
  dropId: string,
): Promise<{ visibleFrom: Date | null; endAt: Date } | null> {
  const row = await db
    .selectFrom("drops")
    .select(["visible_from", "end_at"])
    .where("id", "=", dropId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    visibleFrom: row.visible_from === null ? null : toDate(row.visible_from),
    endAt: toDate(row.end_at),
  };
}

export type PublishResult =
  | { ok: true }
  | { ok: false; reason: "no_encontrado" | "visible_desde"; message: string };

const NOT_FOUND = { ok: false, reason: "no_encontrado", message: "Drop no encontrado." } as const;

/** Makes the drop public from `visibleFrom` (now when null); refused past the drop's end. */
export async function publishDrop(
  db: Db,
  dropId: string,
  visibleFrom: Date | null,
  now = new Date(),
): Promise<PublishResult> {
  const drop = await db.selectFrom("drops").select(["end_at"]).where("id", "=", dropId).executeTakeFirst();
  if (!drop) return NOT_FOUND;
  const from = visibleFrom ?? now;
  const refusal = visibleFromRefusal(from, { endAt: toDate(drop.end_at) });
  if (refusal) return { ok: false, reason: "visible_desde", message: refusal };
  const result = await db
    .updateTable("drops")
    .set({ visible_from: toTimestamp(from) })
    .where("id", "=", dropId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 0 ? NOT_FOUND : { ok: true };
}

/** Takes the drop off the public pages: a draft again, seen only in the admin and its preview. */
export async function unpublishDrop(db: Db, dropId: string): Promise<PublishResult> {
  const result = await db
    .updateTable("drops")
    .set({ visible_from: null })
    .where("id", "=", dropId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 0 ? NOT_FOUND : { ok: true };
}

/** 'Archivar' (from Activas, on an ended drop): the status `archivada` (the home hides it; it no longer sells). */
export async function archiveDrop(db: Db, dropId: string): Promise<PublishResult> {
  const result = await db
    .updateTable("drops")
    // A new version: an edit form open meanwhile must not save the old status over it.
    .set({ status: "archivada", updated_at: toTimestamp(new Date()) })
    .where("id", "=", dropId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 0 ? NOT_FOUND : { ok: true };
}
