import { sql } from "kysely";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import type { DropStatus } from "~/db/taxonomy";
import { shopDateTimeStamp } from "~/lib/dates";
import { errorLine } from "~/lib/errors";
import { newId } from "~/lib/ids";
import { variantUrl } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import type { PaymentProvider } from "~/orders/payment-port";
import { cancelCheckout } from "~/orders/sweeper.server";
import { getDrop } from "./catalogue.server";
import { type DropFormValues, type DropInput, MAX_STOCK, type ProductInput, pesosText } from "./drop-input";
import { type DropTimeState, dropTimeState } from "./drop-time";

/*
 * The drops desk: the owner creates, edits and deletes drops. Photos are uploaded first (under the
 * drop's folder, before the drop exists) and the form names them by id; this module checks that
 * they are the drop's own, and deletes the files of photos a save leaves unused.
 */

export type DropRefusal = {
  ok: false;
  reason:
    | "no_encontrado"
    | "ya_existe"
    | "version"
    | "medios_invalidos"
    | "stock_cambio"
    | "stock_maximo"
    | "producto_ajeno"
    | "producto_apartado"
    | "pago_pendiente";
  message: string;
};
export type DropResult<T = object> = ({ ok: true } & T) | DropRefusal;

export interface AdminDropRow {
  id: string;
  name: string;
  status: DropStatus;
  timeState: DropTimeState;
  startAt: Date;
  endAt: Date;
  products: number;
  pieces: number;
}

/** The drops of one status (Activas, Próximas, Archivadas), by start date, newest first. */
export async function listAdminDrops(db: Db, status: DropStatus, now = new Date()): Promise<AdminDropRow[]> {
  const rows = await db
    .selectFrom("drops")
    .leftJoin("products", "products.drop_id", "drops.id")
    .select(["drops.id", "drops.name", "drops.status", "drops.start_at", "drops.end_at"])
    .select((eb) => [
      eb.fn.count<number>("products.id").as("products"),
      eb.fn.coalesce(eb.fn.sum<number>("products.stock"), sql<number>`0`).as("pieces"),
    ])
    .where("drops.status", "=", status)
    .groupBy(["drops.id", "drops.name", "drops.status", "drops.start_at", "drops.end_at"])
    .orderBy("drops.start_at", "desc")
    .execute();
  return rows.map((r) => {
    const startAt = toDate(r.start_at);
    const endAt = toDate(r.end_at);
    return {
      id: r.id,
      name: r.name,
      status: r.status,
      timeState: dropTimeState({ startAt, endAt }, now),
      startAt,
      endAt,
      products: Number(r.products),
      pieces: Number(r.pieces),
    };
  });
}

/** Pieces of each product held by checkouts still waiting for payment (shown on the edit form). */
export async function heldPieces(db: Db, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("order_lines")
    .innerJoin("orders", "orders.id", "order_lines.order_id")
    .select("order_lines.product_id")
    .select((eb) => eb.fn.sum<number>("order_lines.quantity").as("held"))
    .where("orders.status", "=", "esperando_pago")
    .where("order_lines.product_id", "in", productIds)
    .groupBy("order_lines.product_id")
    .execute();
  return new Map(rows.map((r) => [r.product_id, Number(r.held)]));
}

/** Every media id a form names, by kind. */
function namedMedia(input: DropInput) {
  const images = [input.imageId, ...input.products.flatMap((p) => [p.imageId, ...p.extraImageIds])].filter(
    (id) => id !== "",
  );
  return { images, video: input.videoId || null };
}

/** The form names only photos and videos uploaded for this drop, of the right kind. */
async function checkMedia(trx: Db, dropId: string, input: DropInput): Promise<DropRefusal | null> {
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
async function writeAlts(trx: Db, input: DropInput) {
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

async function writeProductImages(trx: Db, productId: string, extras: string[]) {
  await trx.deleteFrom("product_images").where("product_id", "=", productId).execute();
  if (extras.length > 0) {
    await trx
      .insertInto("product_images")
      .values(extras.map((media_id, i) => ({ product_id: productId, position: i + 1, media_id })))
      .execute();
  }
}

function productColumns(p: ProductInput, position: number, stamp: string) {
  return {
    position,
    name: p.name,
    description: p.description,
    categoria: p.categoria,
    material: p.material,
    price_cents: p.price,
    image_id: p.imageId || null,
    updated_at: stamp,
  };
}

/** Media rows of the drop that no longer appear in it: their rows go now, their files after commit. */
async function unusedMedia(trx: Db, dropId: string): Promise<{ id: string; key: string }[]> {
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

/**
 * Creates a drop from the form, as `proximamente`. Photos uploaded for it and then taken off the
 * form before saving are deleted.
 */
export async function createDropFromInput(
  db: Db,
  storage: MediaStorage,
  input: DropInput,
  now = new Date(),
): Promise<DropResult<{ id: string }>> {
  const result = await db
    .transaction()
    .execute(async (trx): Promise<DropResult<{ id: string; unused: { key: string }[] }>> => {
      const exists = await trx.selectFrom("drops").select("id").where("id", "=", input.id).executeTakeFirst();
      if (exists) {
        return {
          ok: false,
          reason: "ya_existe",
          message: "Esta colección ya se guardó: recarga la página.",
        };
      }
      const media = await checkMedia(trx, input.id, input);
      if (media) return media;
      const stamp = toTimestamp(now);
      await trx
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
          image_id: input.imageId || null,
          video_id: input.videoId || null,
          max_per_order: input.maxPerOrder,
          hold_minutes: input.holdMinutes,
          created_at: stamp,
          updated_at: stamp,
        })
        // Two submits of one form at once: the second finds the id taken and says so.
        .onConflict((oc) => oc.column("id").doNothing())
        .executeTakeFirst()
        .then((r) => {
          if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) {
            throw new Refused({
              ok: false,
              reason: "ya_existe",
              message: "Esta colección ya se guardó: recarga la página.",
            });
          }
        });
      for (const [position, p] of input.products.entries()) {
        const id = newId();
        await trx
          .insertInto("products")
          .values({
            id,
            drop_id: input.id,
            stock: p.stock,
            created_at: stamp,
            ...productColumns(p, position, stamp),
          })
          .execute();
        await writeProductImages(trx, id, p.extraImageIds);
      }
      await writeAlts(trx, input);
      const unused = await unusedMedia(trx, input.id);
      await deleteMediaRows(trx, unused);
      return { ok: true, id: input.id, unused };
    })
    .catch((error: unknown) => {
      if (error instanceof Refused) return error.refusal;
      throw error;
    });
  if (!result.ok) return result;
  await deleteFiles(storage, result.unused);
  return { ok: true, id: result.id };
}

async function deleteMediaRows(trx: Db, rows: { id: string }[]) {
  if (rows.length > 0)
    await trx
      .deleteFrom("media")
      .where(
        "id",
        "in",
        rows.map((r) => r.id),
      )
      .execute();
}

async function deleteFiles(storage: MediaStorage, rows: { key: string }[]) {
  for (const row of rows) {
    await storage.deletePrefix(row.key).catch((error) => {
      // The sweep of unused files retries later; the save itself succeeded.
      console.error(`No se pudo borrar ${row.key}: ${errorLine(error)}`);
    });
  }
}

/**
 * Saves the edit form. A stock typed by the owner is applied as a difference from the value the
 * form loaded (`stockLoaded`), so pieces sold or held while the form was open are never lost; a
 * difference that would take stock below zero is refused with what is there now. Products taken
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
  const refuse = (reason: DropRefusal["reason"], message: string): never => {
    throw new Refused({ ok: false, reason, message });
  };
  const result = await db
    .transaction()
    .execute(async (trx): Promise<DropResult<{ unused: { key: string }[] }>> => {
      const stamp = toTimestamp(now);
      // Claims the drop (a row lock on PostgreSQL, taken before any product's, like a delete) and
      // refuses a form opened on an older version: stock is safe either way (differences), the rest
      // would silently undo another tab's save.
      let claim = trx.updateTable("drops").set({ updated_at: stamp }).where("id", "=", dropId);
      if (input.version) claim = claim.where("updated_at", "=", toTimestamp(new Date(input.version)));
      const claimed = await claim.executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) {
        const exists = await trx.selectFrom("drops").select("id").where("id", "=", dropId).executeTakeFirst();
        if (!exists) return { ok: false, reason: "no_encontrado", message: "Drop no encontrado." };
        refuse("version", "La colección se guardó desde otra pestaña mientras editabas: recarga la página.");
      }
      // Before the drop names them: a photo that is gone is refused, not a database error.
      const media = await checkMedia(trx, dropId, { ...input, id: dropId });
      if (media) throw new Refused(media);

      const existing = await trx
        .selectFrom("products")
        .select(["id", "name"])
        .where("drop_id", "=", dropId)
        .execute();
      const ownIds = new Set(existing.map((p) => p.id));
      const kept = input.products.filter((p) => p.id !== "");
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
      // Stock first, in product-id order like every checkout, so a save and a checkout sharing two
      // pieces can never wait on each other (PostgreSQL would end one with a deadlock).
      for (const p of [...kept].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        const delta = p.stock - (p.stockLoaded ?? p.stock);
        // A raise may not take stock past MAX_STOCK (a forged `stockLoaded` could otherwise grow it
        // save after save until the column overflows); a cut or no change always goes through.
        const changed = await trx
          .updateTable("products")
          .set({ stock: sql`stock + ${delta}`, updated_at: stamp })
          .where("id", "=", p.id)
          .where(sql<boolean>`stock + ${delta} >= 0`)
          .where(sql<boolean>`(${delta} <= 0 or stock + ${delta} <= ${MAX_STOCK})`)
          .executeTakeFirst();
        if (Number(changed.numUpdatedRows) === 0) {
          const left = await trx
            .selectFrom("products")
            .select("stock")
            .where("id", "=", p.id)
            .executeTakeFirst();
          if (delta > 0 && (left?.stock ?? 0) + delta > MAX_STOCK) {
            refuse(
              "stock_maximo",
              `El stock de ${p.name} puede ser de hasta ${MAX_STOCK} piezas (ahora hay ${left?.stock ?? 0}).`,
            );
          }
          refuse(
            "stock_cambio",
            `El stock de ${p.name} cambió mientras editabas (ahora hay ${left?.stock ?? 0}): recarga la página y vuelve a escribirlo.`,
          );
        }
      }
      // A piece taken off the form while a shopper is paying for it would be paid for and gone.
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
          `No se puede quitar ${busy.name}: tiene piezas apartadas en pagos que aún no terminan. Intenta de nuevo en unos minutos.`,
        );
      }

      await trx
        .updateTable("drops")
        .set({
          name: input.name,
          small_description: input.smallDescription,
          full_description: input.fullDescription,
          description: input.smallDescription,
          start_at: toTimestamp(input.startAt),
          end_at: toTimestamp(input.endAt),
          ...(input.status ? { status: input.status } : {}),
          image_id: input.imageId || null,
          video_id: input.videoId || null,
          max_per_order: input.maxPerOrder,
          hold_minutes: input.holdMinutes,
          updated_at: stamp,
        })
        .where("id", "=", dropId)
        .execute();
      for (const [position, p] of input.products.entries()) {
        if (p.id) {
          await trx
            .updateTable("products")
            .set(productColumns(p, position, stamp))
            .where("id", "=", p.id)
            .execute();
          await writeProductImages(trx, p.id, p.extraImageIds);
          continue;
        }
        const id = newId();
        await trx
          .insertInto("products")
          .values({
            id,
            drop_id: dropId,
            stock: p.stock,
            created_at: stamp,
            ...productColumns(p, position, stamp),
          })
          .execute();
        await writeProductImages(trx, id, p.extraImageIds);
      }
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
      await writeAlts(trx, input);
      const unused = await unusedMedia(trx, dropId);
      await deleteMediaRows(trx, unused);
      return { ok: true, unused };
    })
    .catch((error: unknown) => {
      if (error instanceof Refused) return error.refusal;
      throw error;
    });
  if (!result.ok) return result;
  await deleteFiles(storage, result.unused);
  return { ok: true };
}

/** Thrown inside a transaction to roll it back with a refusal; never leaves this module. */
class Refused extends Error {
  constructor(readonly refusal: DropRefusal) {
    super(refusal.message);
  }
}

/**
 * Deletes a drop with its products and media. Checkouts still waiting for payment on its pieces
 * are closed at the payment provider and released first, so nobody pays for a piece that is gone;
 * paid orders keep their lines and totals (they are copies).
 */
export async function deleteDrop(
  db: Db,
  storage: MediaStorage,
  payments: PaymentProvider,
  dropId: string,
): Promise<DropResult> {
  // Archived first: from here on no checkout can hold its pieces.
  const closed = await db
    .updateTable("drops")
    .set({ status: "archivada" })
    .where("id", "=", dropId)
    .executeTakeFirst();
  if (Number(closed.numUpdatedRows) === 0)
    return { ok: false, reason: "no_encontrado", message: "Drop no encontrado." };
  const waiting = await db
    .selectFrom("orders")
    .innerJoin("order_lines", "order_lines.order_id", "orders.id")
    .select("orders.id")
    .distinct()
    .where("orders.status", "=", "esperando_pago")
    .where("order_lines.drop_id", "=", dropId)
    .execute();
  try {
    for (const order of waiting) await cancelCheckout(db, payments, order.id);
  } catch (error) {
    // The payment provider did not answer: one of them may still be paid. The drop stays archived
    // (nobody can buy from it) and the owner tries again.
    console.error(`No se pudo cerrar un pago pendiente de ${dropId}: ${errorLine(error)}`);
    return {
      ok: false,
      reason: "pago_pendiente",
      message:
        "No se pudo cerrar un pago pendiente de esta colección; quedó archivada. Intenta de nuevo en unos minutos.",
    };
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("drops").where("id", "=", dropId).execute();
    await trx.deleteFrom("media").where("drop_id", "=", dropId).execute();
  });
  await storage.deletePrefix(`drops/${dropId}/`);
  return { ok: true };
}

/** A drop as the edit form opens it: typed values, uploaded media with their addresses, held pieces. */
export async function dropForEdit(
  db: Db,
  storage: MediaStorage,
  dropId: string,
): Promise<DropFormValues | null> {
  const drop = await getDrop(db, dropId, { extraImages: true });
  if (!drop) return null;
  const held = await heldPieces(
    db,
    drop.products.map((p) => p.id),
  );
  const image = (row: Parameters<typeof variantUrl>[1] | null) =>
    row ? { id: row.id, url: variantUrl(storage, row, 480), alt: row.alt } : null;
  const [startDate = "", startTime = ""] = shopDateTimeStamp(drop.startAt).split(" ");
  const [endDate = "", endTime = ""] = shopDateTimeStamp(drop.endAt).split(" ");
  const { updated_at } = await db
    .selectFrom("drops")
    .select("updated_at")
    .where("id", "=", dropId)
    .executeTakeFirstOrThrow();
  return {
    id: drop.id,
    version: toDate(updated_at).toISOString(),
    name: drop.name,
    startDate,
    startTime,
    endDate,
    endTime,
    maxPerOrder: drop.maxPerOrder === null ? "" : String(drop.maxPerOrder),
    holdMinutes: String(drop.holdMinutes),
    smallDescription: drop.smallDescription,
    fullDescription: drop.fullDescription,
    status: drop.status,
    image: image(drop.image),
    video: drop.video ? { id: drop.video.id, url: storage.publicUrl(drop.video.key), alt: "" } : null,
    products: drop.products.map((p) => ({
      id: p.id,
      name: p.name,
      price: pesosText(p.priceCents),
      stock: String(p.stock),
      stockLoaded: String(p.stock),
      held: held.get(p.id) ?? 0,
      categoria: p.categoria,
      material: p.material,
      description: p.description,
      image: image(p.image),
      extras: p.extraImages.map((m) => ({ id: m.id, url: variantUrl(storage, m, 480), alt: m.alt })),
    })),
  };
}
