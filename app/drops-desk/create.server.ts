import { type Db, toTimestamp } from "~/db/database.server";
import type { MediaStorage } from "~/media/storage.server";
import type { DropInput } from "./drop-input";
import { checkMedia, dropUnusedMediaRows, writeAlts } from "./form-media.server";
import { insertProduct } from "./form-products.server";
import { saveDropForm } from "./save.server";
import { type DropResult, refuse } from "./types";

const ALREADY_SAVED = "Esta colección ya se guardó: recarga la página.";

/**
 * Creates a drop from the form, as `proximamente` and a draft (no `visible_from`: decision 38)
 * until the owner publishes it. Photos uploaded for it and then taken off the
 * form before saving are deleted.
 */
export async function createDropFromInput(
  db: Db,
  storage: MediaStorage,
  input: DropInput,
  now = new Date(),
): Promise<DropResult<{ id: string }>> {
  const saved = await saveDropForm(db, storage, async (trx) => {
    const exists = await trx.selectFrom("drops").select("id").where("id", "=", input.id).executeTakeFirst();
    if (exists) return { ok: false, reason: "ya_existe", message: ALREADY_SAVED };
    const media = await checkMedia(trx, input.id, input);
    if (media) return media;
    const stamp = toTimestamp(now);
    const inserted = await trx
      .insertInto("drops")
      .values({
        id: input.id,
        name: input.name,
        small_description: input.smallDescription,
        full_description: input.fullDescription,
        description: input.smallDescription,
        fechas: "",
        start_at: toTimestamp(input.startAt),
        end_at: toTimestamp(input.endAt),
        status: "proximamente",
        // A draft until 'Publicar' (decision 38).
        visible_from: null,
        image_id: input.imageId || null,
        video_id: input.videoId || null,
        max_per_order: input.maxPerOrder,
        hold_minutes: input.holdMinutes,
        lottery_seconds: input.lotterySeconds,
        opening_minutes: input.openingMinutes,
        opening_hold_minutes: input.openingHoldMinutes,
        opening_holds_per_address: input.openingHoldsPerAddress,
        card_only_hours: input.cardOnlyHours,
        created_at: stamp,
        updated_at: stamp,
      })
      // Two submits of one form at once: the second finds the id taken and says so.
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) refuse("ya_existe", ALREADY_SAVED);
    for (const [position, p] of input.products.entries())
      await insertProduct(trx, input.id, p, position, stamp);
    await writeAlts(trx, input);
    return { ok: true, unused: await dropUnusedMediaRows(trx, input.id) };
  });
  return saved.ok ? { ok: true, id: input.id } : saved;
}
