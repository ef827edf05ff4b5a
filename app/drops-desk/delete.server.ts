import { log } from "~/config/log.server";
import { type Db, toTimestamp } from "~/db/database.server";
import { claimProducts } from "~/db/transaction-lock.server";
import { errorLine } from "~/lib/errors";
import type { MediaStorage } from "~/media/storage.server";
import type { PaymentProvider } from "~/orders/payment-port";
import { cancelCheckout } from "~/orders/sweeper.server";
import { deleteFiles } from "./form-media.server";
import type { DropRefusal, DropResult } from "./types";

/**
 * Deletes a drop with its products and media. Checkouts still waiting for payment on its pieces
 * are closed at the payment provider and released first, so nobody pays for a piece that is gone;
 * one the provider says was paid, or completed with a voucher still payable, keeps the drop
 * (archived) until it is settled. Paid orders keep their lines and totals (they are copies).
 */
export async function deleteDrop(
  db: Db,
  storage: MediaStorage,
  payments: PaymentProvider,
  dropId: string,
): Promise<DropResult> {
  // Numbered pieces sold: their orders, slips and certificates read the edition and metal from its
  // products (decision 33), so the drop stays; archiving it takes it off the shop.
  const numbered = await db
    .selectFrom("edition_numbers as e")
    .innerJoin("products as p", "p.id", "e.product_id")
    .select("p.name")
    .where("p.drop_id", "=", dropId)
    .limit(1)
    .executeTakeFirst();
  if (numbered) {
    return {
      ok: false,
      reason: "edicion_numerada",
      message: `No se puede borrar: ${numbered.name} tiene piezas numeradas vendidas, y sus certificados nombran su edición. Archívala para quitarla de la tienda.`,
    };
  }
  // Each pass closes the checkouts it finds waiting; a hold that read the drop before it was
  // archived may still commit after that read, and is found by the next one.
  for (let pass = 1; ; pass++) {
    const found = await archiveOrDelete(db, dropId);
    if (found === "no_encontrado")
      return { ok: false, reason: "no_encontrado", message: "Drop no encontrado." };
    if (found === "borrada") break;
    const refusal = await closeWaiting(db, payments, dropId, found);
    if (refusal) return refusal;
    if (pass === DELETE_PASSES) {
      return {
        ok: false,
        reason: "pago_pendiente",
        message:
          "Se siguieron abriendo pagos de esta colección mientras se borraba; quedó archivada. Intenta de nuevo en unos minutos.",
      };
    }
  }
  // Deleted: a storage that fails now leaves files the sweep of unused ones takes later.
  await deleteFiles(storage, [{ key: `drops/${dropId}/` }]);
  return { ok: true };
}

/**
 * Closes checkouts waiting for payment at the provider and releases them; the refusal when one may
 * still be paid.
 */
async function closeWaiting(
  db: Db,
  payments: PaymentProvider,
  dropId: string,
  waiting: { id: string }[],
): Promise<DropRefusal | null> {
  let paying = 0;
  try {
    for (const order of waiting) if ((await cancelCheckout(db, payments, order.id)) === "pagado") paying++;
  } catch (error) {
    // The payment provider did not answer: one of them may still be paid. The drop stays archived
    // (nobody can buy from it) and the owner tries again.
    log.error({ dropId, error: errorLine(error) }, "No se pudo cerrar un pago pendiente de la colección");
    return {
      ok: false,
      reason: "pago_pendiente",
      message:
        "No se pudo cerrar un pago pendiente de esta colección; quedó archivada. Intenta de nuevo en unos minutos.",
    };
  }
  // A payment already made, or an OXXO or SPEI voucher the buyer can still pay for days: deleting
  // the drop would leave her paying for pieces the shop no longer has. It stays archived until then.
  if (paying === 0) return null;
  return {
    ok: false,
    reason: "pago_pendiente",
    message:
      paying === 1
        ? "Un pago de esta colección ya se hizo o espera una ficha de OXXO o SPEI que todavía se puede pagar; quedó archivada. Podrás borrarla cuando ese pago se resuelva."
        : `${paying} pagos de esta colección ya se hicieron o esperan fichas de OXXO o SPEI que todavía se pueden pagar; quedó archivada. Podrás borrarla cuando esos pagos se resuelvan.`,
  };
}

/**
 * Passes of `deleteDrop`: holds that read the drop before it was archived are few and end within a
 * transaction, so the second pass normally finds none; more would mean something keeps holding.
 */
const DELETE_PASSES = 3;

/**
 * In one transaction: archives the drop (from its commit no checkout can hold its pieces), claims its
 * products, and reads the checkouts still waiting for payment on them; with none, deletes the drop,
 * its products and media rows. Claimed, a checkout still taking them has committed before the read
 * (and is read), and one that comes to them later finds them deleted. The drop's row first, then its
 * products', as a save takes them.
 */
async function archiveOrDelete(
  db: Db,
  dropId: string,
): Promise<"no_encontrado" | "borrada" | { id: string }[]> {
  return db.transaction().execute(async (trx) => {
    const closed = await trx
      .updateTable("drops")
      // A new version too: an edit form open meanwhile must not save its old status over this one.
      .set({ status: "archivada", updated_at: toTimestamp(new Date()) })
      .where("id", "=", dropId)
      .executeTakeFirst();
    if (Number(closed.numUpdatedRows) === 0) return "no_encontrado";
    const products = await trx.selectFrom("products").select("id").where("drop_id", "=", dropId).execute();
    await claimProducts(
      trx,
      products.map((p) => p.id),
    );
    const waiting = await trx
      .selectFrom("orders")
      .innerJoin("order_lines", "order_lines.order_id", "orders.id")
      .select("orders.id")
      .distinct()
      .where("orders.status", "=", "esperando_pago")
      .where("order_lines.drop_id", "=", dropId)
      .execute();
    if (waiting.length > 0) return waiting;
    await trx.deleteFrom("drops").where("id", "=", dropId).execute();
    await trx.deleteFrom("media").where("drop_id", "=", dropId).execute();
    return "borrada";
  });
}
