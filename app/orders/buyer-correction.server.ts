import { sql } from "kysely";
import { type Db, toTimestamp } from "~/db/database.server";
import type { OrderStatus } from "~/db/schema";
import {
  type BuyerField,
  type BuyerInput,
  buyerInputOf,
  changedBuyerFields,
  changedFieldsText,
} from "./buyer-input";
import { addressKey, emailKey } from "./buyer-keys";
import { recordEvent, refusal } from "./desk.server";
import { orderSearchKey } from "./search";
import { addressColumns, type ShippingAddress } from "./shipping";
import { movableFrom } from "./status";

/*
 * 'Corregir datos del comprador': the owner corrects the name, e-mail, phone or shipping address
 * of a paid order that has not shipped yet ("I typed my street number wrong", on WhatsApp).
 *
 * - Only while it is `pendiente` (the `correctBuyer` move): the row is claimed with a conditional
 *   update before it is read, so a correction racing a shipment either lands before it (the
 *   parcel and its notice carry the corrected data) or is refused; a shipped, archived, cancelled
 *   or unpaid order is never changed.
 * - The shipping already charged stays: the shop's rates are standard and express, the same for
 *   every address in Mexico (decision 43), so no correction can move an order to another rate.
 *   Were rates ever to depend on the address, this is where a correction that changes the rate
 *   would be refused (cancel and refund instead).
 * - What the shop derives from these fields follows them: the desk's search text, and the
 *   per-person keys (buyer-keys.ts). Those are recomputed because 'Mi pedido' finds an order by its
 *   number and the buyer's e-mail key, and because the per-person limit of later payments compares
 *   them: with the mistyped values kept, the buyer could not find her order by her real e-mail and
 *   her next order would count as another person's. The limit is not checked again for this
 *   order: it was checked at its payment, and a correction is the owner's, not the buyer's.
 * - The timeline records which fields changed, by their names, never their old values.
 * - Nothing is sent again. Messages of the order not yet sent, and not being sent right now, go to
 *   the corrected e-mail; 'Reenviar' sends a copy of a sent one to it (desk.server.ts).
 * - A corrected e-mail raises the order's link generation in the same update: the 'Mi pedido'
 *   links the old address received stop working (they would show the corrected name, address and
 *   phone), and every message rendered from then on carries the new one.
 */

export type BuyerCorrection =
  /** `changed`: the fields it changed, in the form's order (none: nothing was written). */
  | { ok: true; changed: BuyerField[] }
  | { ok: false; reason: "no_encontrado" | "conflicto"; status: OrderStatus | null };

export async function correctBuyer(
  db: Db,
  orderId: string,
  input: BuyerInput,
  now = new Date(),
): Promise<BuyerCorrection> {
  const stamp = toTimestamp(now);
  return db.transaction().execute(async (trx) => {
    // Claimed first with an update that changes nothing (PostgreSQL locks the row until the
    // commit; SQLite's write lock is already held), so what is read below is what is replaced: a
    // shipment waits for this transaction.
    const claimed = await trx
      .updateTable("orders")
      .set((eb) => ({ status: eb.ref("status") }))
      .where("id", "=", orderId)
      .where("status", "in", movableFrom("correctBuyer"))
      .where("removed_at", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return refusal(trx, orderId);
    const row = await trx
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    const before = buyerInputOf({
      customerName: row.customer_name,
      customerEmail: row.customer_email,
      shipping: {
        phone: row.ship_phone ?? "",
        line1: row.ship_line1 ?? "",
        line2: row.ship_line2 ?? "",
        city: row.ship_city ?? "",
        state: row.ship_state ?? "",
        postalCode: row.ship_postal_code ?? "",
      },
    });
    const changed = changedBuyerFields(before, input);
    if (changed.length === 0) return { ok: true, changed };
    const { phone, line1, line2, postalCode, city, state } = input;
    const shipping: ShippingAddress = {
      phone,
      line1,
      line2,
      postalCode,
      city,
      state,
      // One name, as the checkout asks it: the parcel's follows it when it is corrected. Left as
      // it was, a recipient the payment page named apart (Stripe's shipping name) is kept.
      name: changed.includes("name") ? input.name : row.ship_name || input.name,
      country: row.ship_country || "MX",
    };
    await trx
      .updateTable("orders")
      .set({
        customer_name: input.name,
        customer_email: input.email,
        ...addressColumns(shipping),
        search_text: orderSearchKey(orderId, input.name, input.email),
        email_key: emailKey(input.email),
        address_key: addressKey(shipping),
        updated_at: stamp,
        // Whoever received its messages at the old address keeps no way into her page: every
        // 'Mi pedido' link signed before stops working (order-page-link.server.ts).
        ...(changed.includes("email") ? { link_version: sql<number>`link_version + 1` } : {}),
      })
      .where("id", "=", orderId)
      .execute();
    if (changed.includes("email"))
      await readdressUnsent(trx, orderId, row.customer_email, input.email, stamp);
    await recordEvent(trx, orderId, "datos_corregidos", changedFieldsText(changed), now);
    return { ok: true, changed };
  });
}

/**
 * The order's messages still to go out, addressed to the e-mail corrected, go to the new one. One
 * being sent right now (claimed, its claim not over, no failure yet) goes where it was addressed.
 */
async function readdressUnsent(trx: Db, orderId: string, from: string, to: string, stamp: string) {
  await trx
    .updateTable("emails")
    .set({ recipient: to })
    .where("order_id", "=", orderId)
    .where("recipient", "=", from)
    .where("sent_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("claimed_at", "is", null),
        eb("last_error", "is not", null),
        eb("next_attempt_at", "<=", stamp),
      ]),
    )
    .execute();
}
