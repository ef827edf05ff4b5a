import { type Db, toTimestamp } from "~/db/database.server";

/*
 * A checkout never paid keeps no buyer (the privacy notice: data kept while it serves its purpose,
 * then deleted or made anonymous). A cash voucher left unpaid wrote her name, e-mail, phone and
 * address to its order; a checkout, her browser and address bucket. A month after the hold ended
 * (a voucher lasts three days at most; one cancelled unpaid over a per-person limit counts the
 * same) they are blanked; the order stays as a count of pieces once held, for the accounts of
 * nothing.
 */

/** Days an unpaid order keeps its buyer's data after its hold ended. */
export const UNPAID_KEPT_DAYS = 30;

/** Orders blanked per transaction: on SQLite the one write lock is held while it runs. */
const CHUNK = 500;

/**
 * Blanks the buyer of orders never paid whose hold ended over UNPAID_KEPT_DAYS ago, and the
 * address their e-mails (a voucher's, its end) were sent to; how many orders. In chunks: a year's
 * first run must not hold the write lock for all of them at once.
 */
export async function forgetUnpaidBuyers(db: Db, now = new Date()): Promise<number> {
  const before = toTimestamp(new Date(now.getTime() - UNPAID_KEPT_DAYS * 24 * 3_600_000));
  let forgotten = 0;
  for (;;) {
    const ids = (
      await db
        .selectFrom("orders")
        .select("id")
        // Ended unpaid, or its voucher cancelled before it was paid (over a per-person limit).
        .where("status", "in", ["expirado", "cancelado"])
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
        .limit(CHUNK)
        .execute()
    ).map((r) => r.id);
    if (ids.length === 0) return forgotten;
    await db.transaction().execute(async (trx) => {
      await trx
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
        .where("id", "in", ids)
        .where("paid_at", "is", null)
        .execute();
      await trx.updateTable("emails").set({ recipient: "" }).where("order_id", "in", ids).execute();
    });
    forgotten += ids.length;
    if (ids.length < CHUNK) return forgotten;
  }
}
