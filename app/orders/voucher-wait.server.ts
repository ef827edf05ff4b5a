import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { VOUCHER_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import type { ShippingChoice } from "~/settings/shipping-rates";
import { addressKey, emailKey } from "./buyer-keys";
import { inOpening } from "./opening";
import type { Voucher } from "./order";
import { shippingChargeColumns } from "./payment.server";
import { lockLimitedDrops, overPerPersonLimit } from "./per-person.server";
import { ASKING_MS } from "./refund-timing";
import { orderSearchKey } from "./search";
import { addressColumns, type ShippingAddress } from "./shipping";

/*
 * An order paid with a voucher (OXXO cash, SPEI transfer: decision 42) waits days for its money.
 * When its payment page completes unpaid, the voucher is recorded with the buyer's details (the
 * per-person limit counts it), its pieces stay held until the voucher expires, and the buyer gets
 * the voucher by e-mail. Its outcome comes later: paid (confirmPayment), failed or expired
 * (releaseHold, which tells the buyer), or nothing at all (the sweeper at its expiry).
 *
 * A voucher that takes its buyer past a drop's 'Máximo N por persona', counted as if it were kept
 * (decision 29), is recorded all the same, with its cancellation to ask of the provider
 * (voucher-limit.server.ts), so that it is never paid in cash the shop would have to give back by
 * hand. Its e-mail is not sent then: only if the provider does not answer, as for any voucher.
 */

/**
 * What recording a voucher did: held until it expires; recorded, not held longer (its drop's
 * opening); recorded over the per-person limit, its cancellation to ask; too late; or the order no
 * longer waits.
 */
export type VoucherOutcome = "esperando" | "sin_prorroga" | "sobre_el_limite" | "vencida" | "resuelto";

export interface VoucherBuyer {
  customerName: string;
  customerEmail: string;
  shipping: ShippingAddress | null;
  /** The shipping chosen on the payment page: the voucher's amount includes it. */
  shippingRate?: ShippingChoice | null;
  /** The provider's payment the voucher pays (Stripe: the PaymentIntent), when it says: what a cancellation names. */
  paymentId?: string | null;
}

/**
 * Records the voucher given for an unpaid order and holds its pieces until it expires, once;
 * called again (a replayed event, the sweeper, /success) it changes nothing more. During one of
 * its drops' opening the hold is not lengthened (decision 27: no piece is kept past its hold on
 * drop day); a drop's 'solo tarjeta' hours mean no voucher is offered then anyway.
 */
export async function awaitVoucher(
  db: Db,
  orderId: string,
  voucher: Voucher,
  buyer: VoucherBuyer,
  now = new Date(),
): Promise<VoucherOutcome> {
  if (voucher.expiresAt.getTime() <= now.getTime()) return "vencida";
  const extend = !(await inDropOpening(db, orderId, now));
  const ship = buyer.shipping;
  return db.transaction().execute(async (trx) => {
    // The per-person locks before the order's row, as a payment's confirmation takes them.
    await lockLimitedDrops(trx, orderId);
    const order = await trx
      .selectFrom("orders")
      .select(["status", "voucher_reference", "voucher_expires_at", "expires_at"])
      .where("id", "=", orderId)
      .executeTakeFirst();
    if (order?.status !== "esperando_pago") return "resuelto";
    if (order.voucher_reference !== null) {
      // Recorded before (a replay, the sweeper): its hold was lengthened to the voucher's end then,
      // or never (recorded during its drop's opening: decision 42), and stays as it is.
      const recordedEnd = order.voucher_expires_at ? toDate(order.voucher_expires_at).getTime() : 0;
      return toDate(order.expires_at).getTime() >= recordedEnd ? "esperando" : "sin_prorroga";
    }
    const changed = await trx
      .updateTable("orders")
      .set({
        payment_method: voucher.method,
        voucher_reference: voucher.reference,
        voucher_clabe: voucher.clabe,
        voucher_url: voucher.url,
        voucher_expires_at: toTimestamp(voucher.expiresAt),
        // Its payment page is done with: the browser may start another checkout meanwhile.
        checkout_browser: null,
        ...(extend ? { expires_at: toTimestamp(voucher.expiresAt) } : {}),
        // Who is paying: a pending voucher counts toward a drop's 'Máximo N por persona'.
        customer_name: buyer.customerName,
        customer_email: buyer.customerEmail,
        search_text: orderSearchKey(orderId, buyer.customerName, buyer.customerEmail),
        email_key: emailKey(buyer.customerEmail),
        address_key: addressKey(ship),
        ...(ship ? addressColumns(ship) : {}),
        ...(buyer.shippingRate !== undefined ? shippingChargeColumns(buyer.shippingRate) : {}),
        ...(buyer.paymentId ? { payment_id: buyer.paymentId } : {}),
        updated_at: toTimestamp(now),
      })
      .where("id", "=", orderId)
      .where("status", "=", "esperando_pago")
      .where("voucher_reference", "is", null)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) return "resuelto";
    // Counted as if it were kept, against her paid orders and her other vouchers still waiting.
    const over = await overPerPersonLimit(trx, orderId, { recording: true });
    if (over) {
      await trx
        .insertInto("voucher_cancellations")
        .values({
          order_id: orderId,
          reason: over.reason,
          status: "pendiente",
          // The caller asks the provider at once; the sweep only if that did not happen (a crash).
          next_attempt_at: toTimestamp(new Date(now.getTime() + ASKING_MS)),
          created_at: toTimestamp(now),
        })
        .onConflict((oc) => oc.column("order_id").doNothing())
        .execute();
      return "sobre_el_limite";
    }
    if (extend) await queueVoucherEmail(trx, orderId, buyer.customerEmail, now);
    return extend ? "esperando" : "sin_prorroga";
  });
}

/** The buyer's e-mail with her voucher (how to pay it, until when), once per order. */
export async function queueVoucherEmail(
  trx: Db,
  orderId: string,
  recipient: string,
  now: Date,
): Promise<void> {
  if (!recipient) return;
  await queueEmail(trx, {
    kind: VOUCHER_EMAIL,
    recipient,
    orderId,
    dedupeKey: `${VOUCHER_EMAIL}:${orderId}`,
    now,
  });
}

/** Whether one of the order's drops is in its opening (its draw and first minutes). */
export async function inDropOpening(db: Db, orderId: string, now: Date): Promise<boolean> {
  const drops = await db
    .selectFrom("order_lines as l")
    .innerJoin("drops as d", "d.id", "l.drop_id")
    .select(["d.start_at", "d.lottery_seconds", "d.opening_minutes"])
    .where("l.order_id", "=", orderId)
    .execute();
  return drops.some((d) =>
    inOpening(
      { startAt: toDate(d.start_at), lotterySeconds: d.lottery_seconds, openingMinutes: d.opening_minutes },
      now,
    ),
  );
}
