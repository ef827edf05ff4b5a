import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { startCheckout } from "~/orders/checkout.server";
import { applyPaymentEvent } from "~/orders/payment-events.server";
import { getOrder } from "~/orders/queries.server";
import { createStripeClient, createStripePayments } from "~/payments/stripe-payments.server";
import type { Installments } from "~/settings/installments";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type FakeStripe, payByCard, startFakeStripe } from "../support/fake-stripe";
import { signedSessionEvent } from "../support/stripe-events";

/*
 * 'Meses sin intereses' (issue 26) through the real Stripe SDK and adapter against the local
 * stand-in for Stripe's API: the checkout asks Stripe for the card's plans only when the owner
 * offers them and the order's total reaches her minimum; the plan the buyer chose on Stripe's
 * page is recorded with the order when its payment is confirmed by the signed webhook.
 */

vi.setConfig({ testTimeout: 60_000 });
const SECRET = "whsec_meses_sin_intereses";
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.close();
});

const payments = () =>
  createStripePayments(
    createStripeClient({ secretKey: "sk_test_123", webhookSecret: SECRET, apiBase: fake.url }),
    { webhookSecret: SECRET },
  );
const URLS = { success: "https://t.example/s", cancel: (id: string) => `https://t.example/c/${id}` };
const SIX_FROM_3000: Installments = { enabled: true, months: 6, minCents: 300_000 };
const INSTALLMENTS_FIELD = "payment_method_options[card][installments][enabled]";

describeEachDatabase("'meses sin intereses' at Stripe", (harness) => {
  let database: Database;
  beforeAll(async () => {
    database = await harness.fresh();
  });

  /** A checkout of one piece; what the shop asked of Stripe for its payment page. */
  async function checkout(priceCents: number, installments: Installments) {
    const piece = await runningPiece(database, { stock: 2, priceCents });
    const started = fake.requests.length;
    const result = await startCheckout(
      database.db,
      payments(),
      [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      URLS,
      null,
      undefined,
      { installments },
    );
    if (!result.ok || !("orderId" in result)) throw new Error("checkout refused");
    const asked = fake.requests
      .slice(started)
      .find((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
    const sessionId = [...fake.sessions.entries()].find(
      ([, s]) => (s.metadata as { order_id: string }).order_id === result.orderId,
    )?.[0];
    return { orderId: result.orderId, form: asked?.form, sessionId: sessionId ?? "", priceCents };
  }

  it("asked of Stripe when offered and the total reaches the minimum; not under it, nor when off", async () => {
    expect((await checkout(450_000, SIX_FROM_3000)).form?.get(INSTALLMENTS_FIELD)).toBe("true");
    // Exactly the minimum qualifies.
    expect((await checkout(300_000, SIX_FROM_3000)).form?.get(INSTALLMENTS_FIELD)).toBe("true");
    // Said off, not left out: the account's own switch would otherwise offer them on any total.
    expect((await checkout(299_900, SIX_FROM_3000)).form?.get(INSTALLMENTS_FIELD)).toBe("false");
    const off = { ...SIX_FROM_3000, enabled: false };
    const asked = (await checkout(900_000, off)).form;
    expect(asked?.get("line_items[0][price_data][unit_amount]")).toBe("900000");
    expect(asked?.get(INSTALLMENTS_FIELD)).toBe("false");
  });

  it("cards (and Link) are the session's only methods, whatever the account's dashboard enables", async () => {
    const asked = (await checkout(450_000, SIX_FROM_3000)).form;
    expect(asked?.get("allowed_payment_method_types[0]")).toBe("card");
    expect(asked?.get("allowed_payment_method_types[1]")).toBe("link");
    expect(asked?.has("allowed_payment_method_types[2]")).toBe(false);
  });

  it("the plan the buyer chose is kept with the paid order; one payment keeps none", async () => {
    const pay = async (installments?: number) => {
      const bought = await checkout(600_000, SIX_FROM_3000);
      payByCard(fake, bought.sessionId, { amount: bought.priceCents, fingerprint: "fp_msi", installments });
      const provider = payments();
      const parsed = signedSessionEvent(
        fake,
        provider,
        SECRET,
        "checkout.session.completed",
        bought.sessionId,
      );
      expect(await applyPaymentEvent(database.db, parsed, new Date(), provider)).toBe("paid");
      return getOrder(database.db, bought.orderId);
    };
    const inSix = await pay(6);
    expect(inSix?.status).toBe("pendiente");
    expect(inSix?.installmentMonths).toBe(6);
    const once = await pay();
    expect(once?.status).toBe("pendiente");
    expect(once?.installmentMonths).toBeNull();
  });
});
