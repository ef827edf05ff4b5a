import { type Db, toTimestamp } from "~/db/database.server";

/*
 * A checkout never paid keeps no buyer (the privacy notice: data kept while it serves its purpose,
 * then deleted or made anonymous). A cash voucher left unpaid wrote her name, e-mail, phone and
 * address to its order; a checkout, her browser and address bucket. A month after the hold ended
 * (a voucher lasts three days at most) they are blanked; the order stays as a count of pieces
 * once held, for the accounts of nothing.
 */

/** Days an unpaid order keeps its buyer's data after its hold ended. */
export const UNPAID_KEPT_DAYS = 30;

/** Blanks the buyer of orders never paid whose hold ended over UNPAID_KEPT_DAYS ago; how many. */
export async function forgetUnpaidBuyers(db: Db, now = new Date()): Promise<number> {
  const before = toTimestamp(new Date(now.getTime() - UNPAID_KEPT_DAYS * 24 * 3_600_000));
  const result = await db
    .updateTable("orders")
    .set({
      customer_name: "",
      customer_email: "",
      ship_name: null,
      ship_phone: null,
      ship_line1: null,
      ship_line2: null,
      ship_city: null,
      ship_state: null,
      ship_postal_code: null,
      search_text: "",
      email_key: null,
      address_key: null,
      checkout_browser: null,
      address_bucket: null,
    })
    .where("status", "=", "expirado")
    .where("paid_at", "is", null)
    .where("expires_at", "<", before)
    .where((eb) =>
      eb.or([
        eb("customer_email", "<>", ""),
        eb("ship_line1", "is not", null),
        eb("checkout_browser", "is not", null),
        eb("address_bucket", "is not", null),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
