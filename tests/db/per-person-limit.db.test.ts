import { afterEach, expect, it, vi } from "vitest";
import { log } from "~/config/log.server";
import type { Database } from "~/db/database.server";
import { getDeskOrder, listOrders } from "~/orders/desk.server";
import { setPaymentSession } from "~/orders/holds.server";
import { confirmPayment } from "~/orders/payment.server";
import { applyPaymentEvent } from "~/orders/payment-events.server";
import { overPerPersonLimit } from "~/orders/per-person.server";
import type { BuyerKey } from "~/orders/per-person-reason";
import { refundOrder, retryPendingRefunds } from "~/orders/refunds.server";
import { orderTimeline } from "~/orders/timeline.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { createStripeClient, createStripePayments } from "~/payments/stripe-payments.server";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { payByCard, STRIPE_SHOPPER } from "../support/fake-stripe";
import { orderMailTo } from "../support/order-mail";
import { hold } from "../support/orders";
import { stripeAndMailStands } from "../support/stripe-and-mail";
import { signedSessionEvent } from "../support/stripe-events";

/*
 * 'Máximo N por persona' at payment (decision 29), through the real Stripe SDK and adapter against
 * the local stand-in for Stripe's API, and a real SMTP server: a second paid order of one buyer
 * (same e-mail, same card or same address, each alone) beyond the drop's limit is cancelled,
 * refunded for its total, its pieces back in stock, and the buyer told in Spanish.
 */

vi.setConfig({ testTimeout: 60_000 });
const SECRET = "whsec_limite_por_persona";
const stands = stripeAndMailStands();
afterEach(() => {
  vi.restoreAllMocks();
});

function stripePayments() {
  return createStripePayments(
    createStripeClient({ secretKey: "sk_test_123", webhookSecret: SECRET, apiBase: stands.fake.url }),
    { webhookSecret: SECRET },
  );
}

interface Buyer {
  email: string;
  fingerprint: string;
  /** Stripe's fields of the address that differ from STRIPE_SHOPPER's. */
  address: Record<string, string>;
}

/**
 * One checkout of `quantity` pieces paid by card at Stripe, its `checkout.session.completed`
 * signed like Stripe's and handed to the shop as the webhook route does.
 */
async function buy(
  database: Database,
  piece: { id: string; dropId: string },
  quantity: number,
  buyer: Buyer,
) {
  const payments = stripePayments();
  const order = await hold(database.db, {
    lines: [{ productId: piece.id, dropId: piece.dropId, quantity }],
    provider: "stripe",
  });
  const session = await payments.createSession(order, {
    success: "https://t.example/s",
    cancel: "https://t.example/c",
  });
  await setPaymentSession(database.db, order.id, session);
  const address = { ...STRIPE_SHOPPER.collected_information.shipping_details.address, ...buyer.address };
  const paymentIntent = payByCard(stands.fake, session.id, {
    amount: order.totalCents,
    fingerprint: buyer.fingerprint,
    shopper: {
      customer_details: { ...STRIPE_SHOPPER.customer_details, email: buyer.email },
      collected_information: {
        shipping_details: { ...STRIPE_SHOPPER.collected_information.shipping_details, address },
      },
    },
  });
  const event = signedSessionEvent(stands.fake, payments, SECRET, "checkout.session.completed", session.id);
  const deliver = async () => applyPaymentEvent(database.db, event, new Date(), payments);
  return { orderId: order.id, totalCents: order.totalCents, paymentIntent, deliver, payments };
}

const row = (database: Database, id: string) =>
  database.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const refundRow = (database: Database, id: string) =>
  database.db.selectFrom("refunds").selectAll().where("order_id", "=", id).executeTakeFirst();

const mailTo = (database: Database, to: string) => orderMailTo(database, stands.smtp, to);

const OTHER_ADDRESS = {
  line1: "Avenida Juárez 10",
  postal_code: "06000",
  city: "Ciudad de México",
  state: "CDMX",
};

describeEachDatabase("the per-person limit at payment", (harness) => {
  const cases: { name: string; first: Buyer; second: Buyer; words: string }[] = [
    {
      name: "the same e-mail (typed otherwise)",
      first: { email: `sol.${harness.dialect}@example.mx`, fingerprint: "fp_tarjeta_sol", address: {} },
      second: {
        email: `SOL.${harness.dialect.toUpperCase()}@Example.MX`,
        fingerprint: "fp_otra_tarjeta_1",
        address: OTHER_ADDRESS,
      },
      words: "el mismo correo",
    },
    {
      name: "the same card (Stripe's fingerprint)",
      first: { email: `rio.${harness.dialect}@example.mx`, fingerprint: "fp_misma_tarjeta", address: {} },
      second: {
        email: `otro.rio.${harness.dialect}@example.mx`,
        fingerprint: "fp_misma_tarjeta",
        address: OTHER_ADDRESS,
      },
      words: "la misma tarjeta",
    },
    {
      name: "the same shipping address (spelled otherwise)",
      first: { email: `luz.${harness.dialect}@example.mx`, fingerprint: "fp_tarjeta_luz", address: {} },
      second: {
        email: `hermana.luz.${harness.dialect}@example.mx`,
        fingerprint: "fp_tarjeta_hermana",
        address: { line1: "calle MACEDONIO alcala #401", postal_code: "68000", country: "MX" },
      },
      words: "la misma dirección de envío",
    },
  ];

  it.each(cases)(
    "a second order over 'Máximo 1 por persona' by $name is cancelled and refunded through Stripe, with its e-mail",
    async ({ first, second, words }) => {
      const database = await harness.fresh();
      const piece = await runningPiece(database, { stock: 3, priceCents: 450_000, maxPerOrder: 1 });

      const kept = await buy(database, piece, 1, first);
      expect(await kept.deliver()).toBe("paid");
      expect(await row(database, kept.orderId)).toMatchObject({
        status: "pendiente",
        card_fingerprint: first.fingerprint,
      });

      const over = await buy(database, piece, 1, second);
      expect(await piece.stock()).toBe(1);
      const refundsBefore = stands.fake.refunds.length;
      expect(await over.deliver()).toBe("cancelled");

      // The first order keeps its piece; the second is cancelled and its piece is back in stock.
      expect((await row(database, kept.orderId)).status).toBe("pendiente");
      expect(await row(database, over.orderId)).toMatchObject({
        status: "cancelado",
        card_fingerprint: second.fingerprint,
        payment_id: over.paymentIntent,
      });
      expect(await piece.stock()).toBe(2);

      // Stripe was asked for one refund: the order's whole total, on its PaymentIntent, keyed by the order.
      const made = stands.fake.refunds.slice(refundsBefore);
      expect(made).toEqual([
        {
          id: expect.stringMatching(/^re_test_/),
          payment_intent: over.paymentIntent,
          amount: over.totalCents,
          idempotencyKey: `refund-${over.orderId}`,
          metadata: { order_id: over.orderId },
          status: "succeeded",
        },
      ]);
      expect(over.totalCents).toBe(450_000);
      const refund = await refundRow(database, over.orderId);
      expect(refund).toMatchObject({
        status: "hecho",
        amount_cents: 450_000,
        currency: "mxn",
        provider: "stripe",
        provider_refund_id: made[0]?.id,
        last_error: null,
      });
      expect(refund?.reason).toContain("«Mareas» permite 1 por persona");
      expect(refund?.reason).toContain(words);
      expect(refund?.refunded_at).toBeTruthy();

      // The buyer is told in Spanish, once; the first buyer got only the confirmation.
      const mails = await mailTo(database, second.email);
      const notices = mails.filter((m) =>
        m.includes(`Subject: Cancelamos tu pedido ${over.orderId} y te devolvimos tu dinero`),
      );
      expect(notices, mails.join("\n---\n")).toHaveLength(1);
      const text = notices[0] ?? "";
      expect(text).toContain("pasa del máximo de piezas por persona");
      expect(text).toContain(words);
      expect(text).toContain("Ya hicimos el reembolso de $4,500.00 MXN");
      expect(text).toContain("pasaron a quien seguía en la fila");
      expect(mails.some((m) => m.includes(`Tu pedido ${over.orderId} está confirmado`))).toBe(false);

      // The owner sees it under 'Cancelados', with the reason and the refund.
      const listed = await listOrders(database.db, { tab: "cancelado", page: 1 });
      expect(listed.orders.map((o) => o.id)).toEqual([over.orderId]);
      expect(listed.orders[0]?.cancellation).toMatchObject({
        refund: "hecho",
        amountCents: 450_000,
        refundId: made[0]?.id,
      });
      const overOrder = await getDeskOrder(database.db, over.orderId);
      expect(overOrder?.cancellation?.reason).toContain(words);
      // Its timeline tells the cancellation at payment and the provider's refund, not only e-mails.
      const timeline = await orderTimeline(database.db, overOrder as NonNullable<typeof overOrder>);
      expect(timeline.find((e) => e.title === "Cancelado al confirmar el pago")?.detail).toContain(words);
      expect(timeline.find((e) => e.title === "Reembolsado por el proveedor de pagos")?.detail).toBe(
        `$4,500.00 · referencia ${made[0]?.id}`,
      );
      expect((await listOrders(database.db, { tab: "pendiente", page: 1 })).orders.map((o) => o.id)).toEqual([
        kept.orderId,
      ]);

      // Idempotent: the webhook delivered again, the refund asked again, the sweep: no second refund.
      expect(await over.deliver()).toBe("duplicate");
      expect(await refundOrder(database.db, over.payments, over.orderId)).toBe("reembolsado");
      expect(await retryPendingRefunds(database.db, over.payments)).toEqual({
        refunded: 0,
        failed: 0,
        inProgress: 0,
      });
      expect(stands.fake.refunds.length).toBe(refundsBefore + 1);
      expect(await piece.stock()).toBe(2);
      expect((await mailTo(database, second.email)).filter((m) => m.includes("Cancelamos"))).toHaveLength(1);
    },
  );

  it("a buyer within the limit across two orders keeps both", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 5, maxPerOrder: 2 });
    const buyer = { email: `dos.${harness.dialect}@example.mx`, fingerprint: "fp_dos", address: {} };
    const a = await buy(database, piece, 1, buyer);
    const b = await buy(database, piece, 1, buyer);
    expect(await a.deliver()).toBe("paid");
    expect(await b.deliver()).toBe("paid");
    expect((await row(database, a.orderId)).status).toBe("pendiente");
    expect((await row(database, b.orderId)).status).toBe("pendiente");
    expect(await refundRow(database, b.orderId)).toBeUndefined();
    expect(await piece.stock()).toBe(3);
    // A third piece would be one over: that order is cancelled.
    const c = await buy(database, piece, 1, buyer);
    expect(await c.deliver()).toBe("cancelled");
    expect(await piece.stock()).toBe(3);
  });

  it("two payments of one buyer confirmed at once (two app servers): exactly one keeps the piece", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 4, maxPerOrder: 1 });
    const buyer = { email: `prisa.${harness.dialect}@example.mx`, fingerprint: "fp_prisa", address: {} };
    const orders = await Promise.all([1, 2, 3].map(() => buy(database, piece, 1, buyer)));
    const outcomes = await Promise.all(orders.map((o) => o.deliver()));
    expect([...outcomes].sort()).toEqual(["cancelled", "cancelled", "paid"]);
    const statuses = await Promise.all(orders.map(async (o) => (await row(database, o.orderId)).status));
    expect(statuses.filter((s) => s === "pendiente")).toHaveLength(1);
    expect(await piece.stock()).toBe(3);
    const refunded = stands.fake.refunds.filter((r) =>
      orders.some((o) => o.paymentIntent === r.payment_intent),
    );
    expect(refunded).toHaveLength(2);
  });

  it("Stripe down when the refund is asked: the order is cancelled with its refund pending for the owner, and the sweep makes it once Stripe is back", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 3, maxPerOrder: 1 });
    const buyer = { email: `caida.${harness.dialect}@example.mx`, fingerprint: "fp_caida", address: {} };
    const first = await buy(database, piece, 1, buyer);
    expect(await first.deliver()).toBe("paid");
    const over = await buy(database, piece, 1, buyer);
    // The payment is confirmed (details asked of Stripe), then Stripe fails at the refund.
    const refund = vi
      .spyOn(over.payments, "refund")
      .mockRejectedValueOnce(new Error("Stripe: 500 api_error"));
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    expect(await over.deliver()).toBe("cancelled");
    expect(refund).toHaveBeenCalledTimes(1);
    // Only this order's line: another test's background work (a batch of last looks in line
    // written after its database closed) may log meanwhile in the same process.
    const aboutIt = logged.mock.calls.filter((c) => (c[0] as { orderId?: string })?.orderId === over.orderId);
    expect(aboutIt).toHaveLength(1);
    expect((await row(database, over.orderId)).status).toBe("cancelado");
    expect(await refundRow(database, over.orderId)).toMatchObject({
      status: "pendiente",
      attempts: 1,
      last_error: "sin respuesta del proveedor: Stripe: 500 api_error",
      provider_refund_id: null,
    });
    expect(await piece.stock()).toBe(2);
    // Shown on the desk as pending; no e-mail says a refund was made.
    const desk = await getDeskOrder(database.db, over.orderId);
    expect(desk?.cancellation).toMatchObject({
      refund: "pendiente",
      attempts: 1,
      lastError: "sin respuesta del proveedor: Stripe: 500 api_error",
      noAnswer: true,
    });
    expect(
      await database.db.selectFrom("emails").select("id").where("order_id", "=", over.orderId).execute(),
    ).toEqual([]);
    // Not due again at once; a sweep after the pause makes it, once.
    expect(await retryPendingRefunds(database.db, over.payments)).toEqual({
      refunded: 0,
      failed: 0,
      inProgress: 0,
    });
    const later = new Date(Date.now() + 10 * 60_000);
    expect(await retryPendingRefunds(database.db, over.payments, later)).toEqual({
      refunded: 1,
      failed: 0,
      inProgress: 0,
    });
    expect(await retryPendingRefunds(database.db, over.payments, later)).toEqual({
      refunded: 0,
      failed: 0,
      inProgress: 0,
    });
    expect(stands.fake.refunds.filter((r) => r.payment_intent === over.paymentIntent)).toMatchObject([
      { amount: over.totalCents, idempotencyKey: `refund-${over.orderId}` },
    ]);
    expect(await refundRow(database, over.orderId)).toMatchObject({
      status: "hecho",
      attempts: 2,
      last_error: null,
    });
    const mails = await mailTo(database, buyer.email);
    expect(mails.filter((m) => m.includes(`Cancelamos tu pedido ${over.orderId}`))).toHaveLength(1);
  });

  it("a refund Stripe leaves pending is not taken as made: kept with its id, no e-mail, asked about until it is made; one that fails is asked anew, once", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 3, maxPerOrder: 1 });
    const buyer = {
      email: `pendiente.${harness.dialect}@example.mx`,
      fingerprint: "fp_pendiente",
      address: {},
    };
    const kept = await buy(database, piece, 1, buyer);
    expect(await kept.deliver()).toBe("paid");
    const over = await buy(database, piece, 1, buyer);
    stands.fake.refundStatus = "pending";
    try {
      expect(await over.deliver()).toBe("cancelled");
    } finally {
      stands.fake.refundStatus = "succeeded";
    }
    const first = stands.fake.refunds.find((r) => r.payment_intent === over.paymentIntent);
    expect(first?.status).toBe("pending");
    expect(await refundRow(database, over.orderId)).toMatchObject({
      status: "pendiente",
      provider_refund_id: first?.id,
      last_error: "en curso en el proveedor",
    });
    const notice = async () =>
      (await mailTo(database, buyer.email)).filter((m) => m.includes(`Cancelamos tu pedido ${over.orderId}`));
    expect(await notice()).toEqual([]);
    expect((await getDeskOrder(database.db, over.orderId))?.cancellation?.refund).toBe("pendiente");
    // Still pending a while later: asked about, not asked for again.
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    expect(await retryPendingRefunds(database.db, over.payments, later(20))).toEqual({
      refunded: 0,
      failed: 0,
      inProgress: 1,
    });
    expect(stands.fake.refunds.filter((r) => r.payment_intent === over.paymentIntent)).toHaveLength(1);
    // Stripe reports it failed (the card was closed): the next sweep asks for a new refund, keyed
    // after the failed one, which is made; the buyer is told once.
    stands.fake.settleRefund(first?.id ?? "", "failed");
    expect(await retryPendingRefunds(database.db, over.payments, later(40))).toEqual({
      refunded: 1,
      failed: 0,
      inProgress: 0,
    });
    const asked = stands.fake.refunds.filter((r) => r.payment_intent === over.paymentIntent);
    expect(asked.map((r) => [r.idempotencyKey, r.status])).toEqual([
      [`refund-${over.orderId}`, "failed"],
      [`refund-${over.orderId}-after-${first?.id}`, "succeeded"],
    ]);
    expect(await refundRow(database, over.orderId)).toMatchObject({
      status: "hecho",
      provider_refund_id: asked[1]?.id,
    });
    expect(await notice()).toHaveLength(1);
    // Nothing more to ask: the sweep leaves it be.
    expect(await retryPendingRefunds(database.db, over.payments, later(60))).toEqual({
      refunded: 0,
      failed: 0,
      inProgress: 0,
    });
    expect(stands.fake.refunds.filter((r) => r.payment_intent === over.paymentIntent)).toHaveLength(2);
  });

  it("the demo page's payments: same e-mail over the limit is cancelled and its refund recorded (nothing was charged), by the sweep if nobody asked", async () => {
    const database = await harness.fresh();
    const demo = createDemoPayments(database.db);
    const piece = await runningPiece(database, { stock: 2, maxPerOrder: 1 });
    const pay = async () => {
      const order = await hold(database.db, {
        lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
        provider: "demo",
      });
      const outcome = await confirmPayment(database.db, {
        orderId: order.id,
        customerName: "Ana Pérez",
        customerEmail: `demo.${harness.dialect}@example.mx`,
      });
      return { id: order.id, outcome };
    };
    expect((await pay()).outcome).toBe("paid");
    const over = await pay();
    expect(over.outcome).toBe("cancelled_over_limit");
    // As if the app died before asking for the refund: the sweep leaves it to its caller for a
    // moment, then makes it.
    expect(await retryPendingRefunds(database.db, demo)).toEqual({ refunded: 0, failed: 0, inProgress: 0 });
    expect(await retryPendingRefunds(database.db, demo, new Date(Date.now() + 3 * 60_000))).toEqual({
      refunded: 1,
      failed: 0,
      inProgress: 0,
    });
    expect(await refundOrder(database.db, demo, over.id)).toBe("reembolsado");
    expect(await refundRow(database, over.id)).toMatchObject({
      status: "hecho",
      provider: "demo",
      provider_refund_id: `demo_re_${over.id}`,
    });
    expect(await piece.stock()).toBe(1);
  });

  it("counted from the buyer's own orders: found by each key alone, each order once, only the pieces of the limited drop", async () => {
    const database = await harness.fresh();
    const limited = await runningPiece(database, { stock: 20, maxPerOrder: 1 });
    const elsewhere = await runningPiece(database, { stock: 20, maxPerOrder: 1 });
    const hers: Record<BuyerKey, string> = {
      email_key: "ana@example.mx",
      card_fingerprint: "fp_ana",
      address_key: "reforma 1|06000|mx",
    };
    const order = async (
      piece: { id: string; dropId: string },
      status: "esperando_pago" | "pendiente" | "enviado" | "cancelado",
      keys: Partial<Record<BuyerKey, string>>,
    ) => {
      const held = await hold(database.db, {
        lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
        provider: "demo",
      });
      await database.db
        .updateTable("orders")
        .set({ status, email_key: null, card_fingerprint: null, address_key: null, ...keys })
        .where("id", "=", held.id)
        .execute();
      return held.id;
    };
    const check = (orderId: string) =>
      database.db.transaction().execute((trx) => overPerPersonLimit(trx, orderId));

    // Her piece of another drop, and another buyer's piece of this one, count for nothing.
    await order(elsewhere, "pendiente", hers);
    await order(limited, "pendiente", {
      email_key: "otra@example.mx",
      card_fingerprint: "fp_otra",
      address_key: "otra",
    });
    const paying = await order(limited, "esperando_pago", hers);
    expect(await check(paying)).toBeNull();
    // A piece she kept, found by one key alone.
    for (const key of Object.keys(hers) as BuyerKey[]) {
      const kept = await order(limited, "pendiente", { [key]: hers[key] });
      expect(await check(paying)).toMatchObject({ dropId: limited.dropId, kept: 1, wanted: 1, keys: [key] });
      await database.db.updateTable("orders").set({ status: "cancelado" }).where("id", "=", kept).execute();
    }
    expect(await check(paying)).toBeNull();
    // Found by all three keys: one order, one piece.
    await order(limited, "enviado", hers);
    expect(await check(paying)).toMatchObject({
      kept: 1,
      wanted: 1,
      keys: ["email_key", "card_fingerprint", "address_key"],
    });
  });
});
