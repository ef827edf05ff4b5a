import { heldPieces, heldPiecesOfP } from "~/catalogue/held-pieces.server";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { claimProducts } from "~/db/transaction-lock.server";
import { keptWithinSecond } from "~/lib/dates";
import type { MediaStorage } from "~/media/storage.server";
import { piecesCameBack } from "~/waitlist/restock.server";
import type { DropInput, ProductInput } from "./drop-input";
import { checkMedia, dropUnusedMediaRows, writeAlts } from "./form-media.server";
import { insertProduct, productColumns, writeProductImages } from "./form-products.server";
import { saveDropForm } from "./save.server";
import { applyStockChanges } from "./stock-changes.server";
import { type DropRefusal, type DropResult, Refused, refuse } from "./types";

/** A product of the drop as it is stored before the save. */
interface StoredProduct {
  id: string;
  name: string;
  edition_size: number | null;
}

/**
 * Saves the edit form. A stock typed by the owner, a product's or a size's, is applied as a
 * difference from the value the form loaded (`stockLoaded`), so pieces sold or held while the form
 * was open are never lost; a difference that would take stock below zero is refused with what is
 * there now (stock-changes.server.ts). Products taken
 * off the form are deleted (paid orders keep their own copy of name and price); replaced photos
 * and videos are deleted with their files.
 */
export async function updateDropFromInput(
  db: Db,
  storage: MediaStorage,
  dropId: string,
  input: DropInput,
  now = new Date(),
): Promise<DropResult> {
  return saveDropForm(db, storage, async (trx) => {
    const stamp = toTimestamp(now);
    const gone = await claimDrop(trx, dropId, input.version, stamp);
    if (gone) return gone;
    // Before the drop names them: a photo that is gone is refused, not a database error.
    const media = await checkMedia(trx, dropId, { ...input, id: dropId });
    if (media) throw new Refused(media);

    const existing = await trx
      .selectFrom("products")
      .select(["id", "name", "edition_size"])
      .where("drop_id", "=", dropId)
      .execute();
    const kept = keptProducts(existing, input.products);
    // Every product of the drop, kept or taken off, claimed at once in id order as a checkout takes
    // them: a checkout still taking some has committed before held pieces are read below, and one
    // that comes to them later waits for this save (a product taken off is gone for it then).
    await claimProducts(
      trx,
      existing.map((p) => p.id),
    );
    await keepEditionNumbers(trx, kept);
    const raised = await applyStockChanges(trx, kept, stamp);
    const removed = await removableProducts(trx, existing, kept);

    await writeDrop(trx, dropId, input, stamp);
    await writeProducts(trx, dropId, input.products, stamp);
    if (removed.length > 0) {
      await trx
        .deleteFrom("products")
        .where(
          "id",
          "in",
          removed.map((p) => p.id),
        )
        .execute();
    }
    // Only where this save adds pieces or changes the edition: one already past it is left alone.
    await checkEditionsRoom(
      trx,
      kept.filter(
        (p) =>
          raised.some((r) => r.productId === p.id) ||
          existing.find((e) => e.id === p.id)?.edition_size !== p.edition,
      ),
    );
    await writeAlts(trx, input);
    // 'Avísame si vuelve' (decision 46): pieces added tell as many waiting addresses, as the drop
    // stands after this save (one that no longer sells tells nobody).
    for (const back of raised) await piecesCameBack(trx, back, now);
    return { ok: true, unused: await dropUnusedMediaRows(trx, dropId) };
  });
}

/**
 * Claims the drop (a row lock on PostgreSQL, taken before any product's, like a delete) and
 * refuses a form opened on an older version: stock is safe either way (differences), the rest
 * would silently undo another tab's save. Returns the refusal of a drop that is gone.
 */
async function claimDrop(
  trx: Db,
  dropId: string,
  version: DropInput["version"],
  stamp: string,
): Promise<DropRefusal | null> {
  let claim = trx.updateTable("drops").set({ updated_at: stamp }).where("id", "=", dropId);
  if (version) claim = claim.where("updated_at", "=", toTimestamp(new Date(version)));
  const claimed = await claim.executeTakeFirst();
  if (Number(claimed.numUpdatedRows) > 0) return null;
  const exists = await trx.selectFrom("drops").select("id").where("id", "=", dropId).executeTakeFirst();
  if (!exists) return { ok: false, reason: "no_encontrado", message: "Drop no encontrado." };
  return refuse("version", "La colección se guardó desde otra pestaña mientras editabas: recarga la página.");
}

/** The form's products that are already stored: each the drop's own, once, with the stock it showed. */
function keptProducts(existing: StoredProduct[], products: ProductInput[]): ProductInput[] {
  const ownIds = new Set(existing.map((p) => p.id));
  const kept = products.filter((p) => p.id !== "");
  // One product twice would apply its stock change twice.
  if (new Set(kept.map((p) => p.id)).size !== kept.length) {
    refuse("producto_ajeno", "Un producto aparece dos veces: recarga la página.");
  }
  for (const p of kept) {
    if (!ownIds.has(p.id)) refuse("producto_ajeno", "Un producto ya no existe: recarga la página.");
    if (p.stockLoaded === null) {
      // Without the value the form showed, a typed stock could undo sales: ask for a fresh form.
      refuse(
        "stock_cambio",
        `No sabemos qué stock de ${p.name} tenías a la vista: recarga la página y vuelve a escribirlo.`,
      );
    }
  }
  return kept;
}

/**
 * An edition whose pieces were numbered at payment can grow, never shrink below the highest number
 * given nor stop being one: the numbers on the buyers' certificates must stay true.
 */
async function keepEditionNumbers(trx: Db, kept: ProductInput[]) {
  if (kept.length === 0) return;
  const given = await trx
    .selectFrom("edition_numbers")
    .select((eb) => ["product_id", eb.fn.max("number").as("top")])
    .where(
      "product_id",
      "in",
      kept.map((p) => p.id),
    )
    .groupBy("product_id")
    .execute();
  for (const row of given) {
    const p = kept.find((k) => k.id === row.product_id);
    const top = Number(row.top);
    if (p && (p.edition === null || p.edition < top)) {
      refuse(
        "edicion_numerada",
        `${p.name} ya tiene piezas numeradas hasta la ${top}: su edición no puede ser de menos piezas ni dejar de ser numerada.`,
      );
    }
  }
}

/**
 * A numbered edition never has more pieces for sale than numbers left: its stock after the save,
 * the pieces held by unpaid checkouts (numbered when paid) and the numbers given add up to at most
 * the edition, or the save is refused saying how many may still be on sale.
 */
async function checkEditionsRoom(trx: Db, kept: ProductInput[]): Promise<void> {
  const numbered = kept.filter((p) => p.edition !== null);
  if (numbered.length === 0) return;
  // One statement, one moment: a payment moving a piece from held to numbered between two reads
  // would count it twice, or not at all.
  const rows = await trx
    .selectFrom("products as p")
    .select((eb) => [
      "p.id",
      "p.stock",
      eb
        .selectFrom("edition_numbers as e")
        .select((sub) => sub.fn.countAll<number | string>().as("n"))
        .whereRef("e.product_id", "=", "p.id")
        .as("given"),
      heldPiecesOfP(eb).as("held"),
    ])
    .where(
      "p.id",
      "in",
      numbered.map((p) => p.id),
    )
    .execute();
  for (const p of numbered) {
    const row = rows.find((r) => r.id === p.id);
    const stock = row?.stock ?? 0;
    const sold = Number(row?.given ?? 0);
    const waiting = Number(row?.held ?? 0);
    const edition = p.edition ?? 0;
    if (stock + sold + waiting > edition) {
      const room = Math.max(0, edition - sold - waiting);
      refuse(
        "edicion_numerada",
        `${p.name}: su edición es de ${pieces(edition)} numeradas, ${sold} ${sold === 1 ? "ya vendida" : "ya vendidas"}${waiting > 0 ? ` y ${waiting} ${waiting === 1 ? "apartada" : "apartadas"}` : ""}; a la venta caben ${pieces(room)} como máximo.`,
      );
    }
  }
}

/** "1 pieza", "3 piezas". */
const pieces = (n: number) => (n === 1 ? "1 pieza" : `${n} piezas`);

/**
 * The stored products taken off the form. A piece taken off while a shopper is paying for it would
 * be paid for and gone: a product with pieces held by an unpaid checkout is refused (their rows are
 * already claimed, so a checkout still in its transaction is counted too). So is one with
 * numbered pieces sold: their certificates and orders read its edition and metal from it.
 */
async function removableProducts(
  trx: Db,
  existing: StoredProduct[],
  kept: ProductInput[],
): Promise<StoredProduct[]> {
  const keptIds = new Set(kept.map((p) => p.id));
  const removed = existing.filter((p) => !keptIds.has(p.id));
  const held = await heldPieces(
    trx,
    removed.map((p) => p.id),
  );
  const busy = removed.find((p) => (held.get(p.id) ?? 0) > 0);
  if (busy) {
    refuse(
      "producto_apartado",
      `No se puede quitar ${busy.name}: tiene piezas apartadas en pagos que aún no terminan. Se puede cuando esos pagos terminen o venzan sus apartados.`,
    );
  }
  const numbered = removed.length
    ? await trx
        .selectFrom("edition_numbers")
        .select("product_id")
        .where(
          "product_id",
          "in",
          removed.map((p) => p.id),
        )
        .limit(1)
        .executeTakeFirst()
    : undefined;
  const keep = numbered && removed.find((p) => p.id === numbered.product_id);
  if (keep) {
    refuse(
      "edicion_numerada",
      `No se puede quitar ${keep.name}: ya tiene piezas numeradas vendidas, y sus certificados nombran su edición. Si ya no se vende, deja su stock en 0.`,
    );
  }
  return removed;
}

/** The drop's own fields as the form has them. */
async function writeDrop(trx: Db, dropId: string, input: DropInput, stamp: string) {
  // The form shows minutes: a time it kept keeps its stored seconds (a drop made elsewhere has them).
  const stored = await trx
    .selectFrom("drops")
    .select(["start_at", "end_at"])
    .where("id", "=", dropId)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable("drops")
    .set({
      name: input.name,
      small_description: input.smallDescription,
      full_description: input.fullDescription,
      description: input.smallDescription,
      start_at: toTimestamp(keptWithinSecond(toDate(stored.start_at), input.startAt)),
      end_at: toTimestamp(keptWithinSecond(toDate(stored.end_at), input.endAt)),
      ...(input.status ? { status: input.status } : {}),
      image_id: input.imageId || null,
      video_id: input.videoId || null,
      max_per_order: input.maxPerOrder,
      hold_minutes: input.holdMinutes,
      lottery_seconds: input.lotterySeconds,
      opening_minutes: input.openingMinutes,
      opening_hold_minutes: input.openingHoldMinutes,
      opening_holds_per_address: input.openingHoldsPerAddress,
      card_only_hours: input.cardOnlyHours,
      updated_at: stamp,
    })
    .where("id", "=", dropId)
    .execute();
}

/** Kept products take the form's fields and photos (their stock is already applied); new ones are added. */
async function writeProducts(trx: Db, dropId: string, products: ProductInput[], stamp: string) {
  for (const [position, p] of products.entries()) {
    if (!p.id) {
      await insertProduct(trx, dropId, p, position, stamp);
      continue;
    }
    await trx
      .updateTable("products")
      .set(productColumns(p, position, stamp))
      .where("id", "=", p.id)
      .execute();
    await writeProductImages(trx, p.id, p.extraImageIds);
  }
}
