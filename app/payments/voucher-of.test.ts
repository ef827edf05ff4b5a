import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { voucherDeadline } from "~/orders/vouchers";
import { voucherOf } from "./stripe-payments.server";

/*
 * When a voucher given on Stripe's page stops holding its pieces (decision 42): OXXO's end is
 * Stripe's; a SPEI transfer's is the shop's days, counted from when the buyer chose it (Checkout
 * makes the PaymentIntent then), by the shop's rule: 23:59:59 in Mexico City, days later.
 */

const seconds = (at: string) => Math.floor(Date.parse(at) / 1000);

// Monday 30 November 2026, 23:50 in Mexico City (UTC−6): the checkout opens its page.
const CHECKOUT = "2026-12-01T05:50:00Z";
// Tuesday 1 December, 00:10: she chooses SPEI (or OXXO) on it.
const CHOSEN = "2026-12-01T06:10:00Z";

const session = (metadata: Record<string, string>) =>
  ({
    id: "cs_test_1",
    metadata: { order_id: "OL-PRUEBA01", ...metadata },
  }) as unknown as Stripe.Checkout.Session;

const transfer = (createdAt: string) =>
  ({
    id: "pi_test_1",
    created: seconds(createdAt),
    next_action: {
      type: "display_bank_transfer_instructions",
      display_bank_transfer_instructions: {
        reference: "4821733",
        hosted_instructions_url: "https://payments.stripe.test/spei/instructions",
        financial_addresses: [{ type: "spei", spei: { clabe: "646180111812345678" } }],
      },
    },
  }) as unknown as Stripe.PaymentIntent;

describe("a voucher's end as Stripe's page gave it", () => {
  it("a transfer chosen Tuesday 00:10 with 1 day ends Wednesday 23:59:59, as an OXXO voucher given then: not Tuesday, from the checkout's Monday 23:50", () => {
    const voucher = voucherOf(transfer(CHOSEN), session({ voucher_days: "1" }));
    expect(voucher).toMatchObject({ method: "spei", reference: "4821733", clabe: "646180111812345678" });
    // Wednesday 2 December, 23:59:59 in Mexico City.
    expect(voucher?.expiresAt.toISOString()).toBe("2026-12-03T05:59:59.000Z");
    expect(voucher?.expiresAt).toEqual(voucherDeadline(new Date(CHOSEN), 1));
    // What counting from the checkout gave: a day less than OXXO's.
    expect(voucherDeadline(new Date(CHECKOUT), 1).toISOString()).toBe("2026-12-02T05:59:59.000Z");
  });

  it("OXXO's end is Stripe's own", () => {
    const oxxo = {
      id: "pi_test_2",
      created: seconds(CHOSEN),
      next_action: {
        type: "oxxo_display_details",
        oxxo_display_details: {
          number: "93000012345678",
          expires_after: seconds("2026-12-03T05:59:59Z"),
          hosted_voucher_url: "https://payments.stripe.test/oxxo/voucher",
        },
      },
    } as unknown as Stripe.PaymentIntent;
    expect(voucherOf(oxxo, session({ voucher_days: "1" }))).toMatchObject({
      method: "oxxo",
      expiresAt: new Date("2026-12-03T05:59:59Z"),
    });
  });

  it("a session made before the days travelled with it keeps the end it carries; without either, no voucher is read", () => {
    expect(
      voucherOf(transfer(CHOSEN), session({ voucher_ends_at: "2026-12-02T05:59:59.000Z" }))?.expiresAt,
    ).toEqual(new Date("2026-12-02T05:59:59Z"));
    expect(voucherOf(transfer(CHOSEN), session({}))).toBeNull();
    // Days the shop never offers are not read as days.
    expect(voucherOf(transfer(CHOSEN), session({ voucher_days: "9" }))).toBeNull();
  });
});
