import { beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { startCheckout } from "~/orders/checkout.server";
import { listOrders } from "~/orders/desk.server";
import { releaseHold } from "~/orders/holds.server";
import { orderPageOf } from "~/orders/order-page.server";
import { applyPaymentEvent } from "~/orders/payment-events.server";
import { catchUpWithProvider } from "~/orders/payment-return.server";
import { getOrder } from "~/orders/queries.server";
import { receiptOf } from "~/orders/receipt.server";
import { sweepExpiredHolds } from "~/orders/sweeper.server";
import { orderTimeline } from "~/orders/timeline.server";
import { forgetUnpaidBuyers } from "~/orders/unpaid-retention.server";
import { recordVoucher } from "~/orders/voucher-limit.server";
import { createDemoPayments, demoVoucher } from "~/payments/demo-payments.server";
import type { Vouchers } from "~/settings/vouchers";
import { stripePaymentsAt } from "../support/card-payment";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import {
  payByCard,
  payByTransfer,
  payByVoucher,
  STRIPE_SHOPPER,
  settleVoucher,
} from "../support/fake-stripe";
import { orderMailTo } from "../support/order-mail";
import { hold } from "../support/orders";
import { stripeAndMailStands } from "../support/stripe-and-mail";
import { signedSessionEvent } from "../support/stripe-events";

/*
 * A cash voucher (OXXO) or a transfer (SPEI) given to a buyer already at a drop's 'Máximo N por
 * persona' (decision 29, 42): checked when the voucher is recorded, as if it were kept. Over the
 * limit, its payment is cancelled at Stripe (so it can no longer be paid, and no cash has to be
 * given back by hand), the order cancelled with its reason under 'Cancelados', its piece back in
 * stock and the buyer told in Spanish that nothing was charged. Through the real Stripe SDK and
 * adapter against the local stand-in for Stripe's API, and a real SMTP server.
 */

vi.setConfig({ testTimeout: 60_000 });
const SECRET = "whsec_fichas_por_persona";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const stands = stripeAndMailStands();

const payments = () => stripePaymentsAt(stands.fake, SECRET);
const URLS = { success: "https://t.example/s", cancel: (id: string) => `https://t.example/c/${id}` };
const BOTH: Vouchers = { oxxo: true, spei: true, days: 2 };
const OTHER_ADDRESS = {
  name: "Rosa Díaz",
  address: {
    line1: "Avenida Juárez 10",
    line2: "",
    city: "Ciudad de México",
    state: "CDMX",
    postal_code: "06000",
    country: "MX",
  },
};

describeEachDatabase("a voucher over 'Máximo N por persona'", (harness) => {
  let database: Database;
  beforeAll(async () => {
    database = await harness.fresh();
  });

  /** A piece of a drop open for 3 hours (vouchers are offered) with 'Máximo `max` por persona'. */
  const piece = (max: number, stock = 3) =>
    runningPiece(database, { stock, priceCents: 450_000, opensInMs: -3 * HOUR, maxPerOrder: max });

  async function checkout(p: { id: string; dropId: string }) {
    const result = await startCheckout(
      database.db,
      payments(),
      [{ productId: p.id, dropId: p.dropId, quantity: 1 }],
      URLS,
      null,
      undefined,
      { vouchers: BOTH },
    );
    if (!result.ok || !("orderId" in result)) throw new Error(`checkout refused: ${JSON.stringify(result)}`);
    const sessionId =
      [...stands.fake.sessions.entries()].find(
        ([, s]) => (s.metadata as { order_id: string }).order_id === result.orderId,
      )?.[0] ?? "";
    return { orderId: result.orderId, sessionId };
  }

  /** Stripe's signed event for the session as it stands now, applied as the webhook would. */
  async function deliver(type: string, sessionId: string, now = new Date()) {
    const provider = payments();
    const event = signedSessionEvent(stands.fake, provider, SECRET, type, sessionId);
    return applyPaymentEvent(database.db, event, now, provider);
  }

  const shopper = (email: string, address?: typeof OTHER_ADDRESS) => ({
    customer_details: { ...STRIPE_SHOPPER.customer_details, email },
    ...(address ? { collected_information: { shipping_details: address } } : {}),
  });

  /** A piece of `p` paid by card by `email`, confirmed by its webhook. */
  async function paidByCard(p: { id: string; dropId: string }, email: string) {
    const card = await checkout(p);
    payByCard(stands.fake, card.sessionId, {
      amount: 450_000,
      fingerprint: `fp_${email}`,
      shopper: shopper(email),
    });
    expect(await deliver("checkout.session.completed", card.sessionId)).toBe("paid");
    return card;
  }

  /** A piece of `p` for a voucher (OXXO) Stripe gave `email`, payable for two days. */
  async function voucherFor(
    p: { id: string; dropId: string },
    email: string,
    address?: typeof OTHER_ADDRESS,
  ) {
    const bought = await checkout(p);
    const intent = payByVoucher(stands.fake, bought.sessionId, new Date(Date.now() + 2 * DAY));
    Object.assign(stands.fake.sessions.get(bought.sessionId) ?? {}, shopper(email, address));
    return { ...bought, intent };
  }

  const cancelAsked = (intent: string) =>
    stands.fake.requests.filter(
      (r) => r.method === "POST" && r.path === `/v1/payment_intents/${intent}/cancel`,
    );
  const mailOf = (email: string) => orderMailTo(database, stands.smtp, email);

  it("a buyer who paid the 1 piece of a 'Máximo 1' drop gets a voucher for another: its payment is cancelled at Stripe, the order cancelled with its reason, the piece back, and she is told nothing was charged", async () => {
    const p = await piece(1);
    const email = `lia.${harness.dialect}@example.mx`;
    const card = await paidByCard(p, email);
    const voucher = await voucherFor(p, email);
    expect(await p.stock()).toBe(1);

    expect(await deliver("checkout.session.completed", voucher.sessionId)).toBe("awaiting_payment");

    // Stripe was asked to cancel the voucher's PaymentIntent, and did: it can no longer be paid.
    expect(cancelAsked(voucher.intent)).toHaveLength(1);
    expect(stands.fake.cancelledIntents).toContain(voucher.intent);
    expect(stands.fake.paymentIntents.get(voucher.intent)?.status).toBe("canceled");
    // The order: cancelled, with why, no money taken and none to give back.
    const order = await getOrder(database.db, voucher.orderId);
    expect(order).toMatchObject({
      status: "cancelado",
      paidAt: null,
      cancellation: null,
      voucherCancelled: {
        reason: expect.stringContaining("«Mareas» permite 1 por persona"),
        at: expect.any(Date),
      },
    });
    expect(order?.voucherCancelled?.reason).toContain("1 pieza pagada con el mismo correo");
    expect(
      await database.db
        .selectFrom("refunds")
        .select("order_id")
        .where("order_id", "=", voucher.orderId)
        .execute(),
    ).toEqual([]);
    expect(stands.fake.requests.filter((r) => r.path === "/v1/refunds")).toEqual([]);
    // Its piece is back; the card order keeps its own.
    expect(await p.stock()).toBe(2);
    expect((await getOrder(database.db, card.orderId))?.status).toBe("pendiente");
    // The owner sees it under 'Cancelados', with its entry on the timeline.
    expect((await listOrders(database.db, { tab: "cancelado" })).orders.map((o) => o.id)).toContain(
      voucher.orderId,
    );
    const timeline = await orderTimeline(database.db, order as NonNullable<typeof order>);
    expect(timeline).toContainEqual(
      expect.objectContaining({
        title: "Ficha cancelada por el máximo por persona",
        detail: order?.voucherCancelled?.reason,
      }),
    );
    expect(timeline.map((e) => e.title)).not.toContain("Pago confirmado");
    // The buyer: no ficha to pay, one e-mail in Spanish saying why and that nothing was charged.
    const mail = await mailOf(email);
    expect(mail.filter((m) => m.includes(`Tu ficha para pagar el pedido ${voucher.orderId}`))).toEqual([]);
    const cancelled = mail.filter((m) => m.includes(`Cancelamos tu ficha del pedido ${voucher.orderId}`));
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toContain("máximo de piezas por persona");
    expect(cancelled[0]).toContain("ya no se puede pagar");
    expect(cancelled[0]).toContain("No se te cobró nada");
    expect(cancelled[0]).not.toMatch(/reembols|devolv/i);
    // Her page and the thanks page say it too, with no payment nor refund to come.
    const page = await orderPageOf(database.db, voucher.orderId, { carriers: [], deliveryDays: 7 });
    expect(page?.status).toBe("Cancelado");
    expect(page?.steps.map((s) => s.label)).toEqual(["Ficha de pago: Efectivo en OXXO", "Ficha cancelada"]);
    expect(page?.next).not.toMatch(/reembols|devolv/i);
    expect(page?.voucher).toBeNull();
    expect((await receiptOf(database.db, voucher.orderId))?.voucherCancelled).toBe(
      order?.voucherCancelled?.reason,
    );

    // Stripe's later events for it, replays and sweeps change nothing more.
    expect(await deliver("checkout.session.completed", voucher.sessionId)).toBe("awaiting_payment");
    await deliver("checkout.session.async_payment_failed", voucher.sessionId);
    await sweepExpiredHolds(database.db, payments(), new Date(Date.now() + 3 * DAY));
    expect(cancelAsked(voucher.intent)).toHaveLength(1);
    expect(await p.stock()).toBe(2);
    expect((await getOrder(database.db, voucher.orderId))?.status).toBe("cancelado");
    expect((await mailOf(email)).filter((m) => m.includes("Cancelamos tu ficha"))).toHaveLength(1);
  });

  it("a voucher within the limit is unaffected: 'Máximo 2' with 1 paid, and another buyer's voucher beside a paid piece of 'Máximo 1'", async () => {
    const two = await piece(2);
    const email = `noa.${harness.dialect}@example.mx`;
    await paidByCard(two, email);
    const within = await voucherFor(two, email);
    await deliver("checkout.session.completed", within.sessionId);

    const one = await piece(1);
    await paidByCard(one, `ema.${harness.dialect}@example.mx`);
    const stranger = await voucherFor(one, `ivan.${harness.dialect}@example.mx`, OTHER_ADDRESS);
    await deliver("checkout.session.completed", stranger.sessionId);

    for (const v of [within, stranger]) {
      expect(cancelAsked(v.intent)).toEqual([]);
      expect(await getOrder(database.db, v.orderId)).toMatchObject({
        status: "esperando_pago",
        voucher: expect.objectContaining({ method: "oxxo" }),
        voucherCancelled: null,
      });
    }
    expect(await two.stock()).toBe(1);
    expect(await one.stock()).toBe(1);
    expect(
      (await mailOf(email)).filter((m) => m.includes(`Tu ficha para pagar el pedido ${within.orderId}`)),
    ).toHaveLength(1);
  });

  it("a second voucher of a buyer whose first still waits to be paid ('Máximo 1'): the second is cancelled, the first kept", async () => {
    const p = await piece(1);
    const email = `ada.${harness.dialect}@example.mx`;
    const first = await voucherFor(p, email);
    await deliver("checkout.session.completed", first.sessionId);
    const second = await voucherFor(p, email);
    await deliver("checkout.session.completed", second.sessionId);
    expect(cancelAsked(first.intent)).toEqual([]);
    expect((await getOrder(database.db, first.orderId))?.status).toBe("esperando_pago");
    expect(cancelAsked(second.intent)).toHaveLength(1);
    const order = await getOrder(database.db, second.orderId);
    expect(order?.status).toBe("cancelado");
    expect(order?.voucherCancelled?.reason).toContain("1 pieza apartada con una ficha de pago sin pagar");
    expect(await p.stock()).toBe(2);
  });

  it("Stripe not answering the cancel leaves the voucher waiting as before (its piece held, its ficha sent); a later sweep cancels it", async () => {
    const p = await piece(1);
    const email = `eli.${harness.dialect}@example.mx`;
    await paidByCard(p, email);
    const voucher = await voucherFor(p, email);
    stands.fake.failingIntents.add(voucher.intent);
    const now = new Date();
    await deliver("checkout.session.completed", voucher.sessionId, now);

    // Asked (the SDK retried), not made: nothing cancelled in silence.
    expect(cancelAsked(voucher.intent).length).toBeGreaterThan(0);
    expect(stands.fake.cancelledIntents).not.toContain(voucher.intent);
    const waiting = await getOrder(database.db, voucher.orderId);
    expect(waiting).toMatchObject({ status: "esperando_pago", voucherCancelled: null });
    expect(waiting?.expiresAt.getTime()).toBe(waiting?.voucher?.expiresAt.getTime());
    expect(await p.stock()).toBe(1);
    expect(
      (await mailOf(email)).filter((m) => m.includes(`Tu ficha para pagar el pedido ${voucher.orderId}`)),
    ).toHaveLength(1);

    // Stripe still down at the next sweep: still waiting.
    await sweepExpiredHolds(database.db, payments(), new Date(now.getTime() + 10 * 60_000));
    expect((await getOrder(database.db, voucher.orderId))?.status).toBe("esperando_pago");

    // Back: the next sweep due finishes the job, once.
    stands.fake.failingIntents.clear();
    const asked = cancelAsked(voucher.intent).length;
    await sweepExpiredHolds(database.db, payments(), new Date(now.getTime() + HOUR));
    expect(cancelAsked(voucher.intent)).toHaveLength(asked + 1);
    expect(stands.fake.cancelledIntents).toContain(voucher.intent);
    expect(await getOrder(database.db, voucher.orderId)).toMatchObject({
      status: "cancelado",
      voucherCancelled: expect.objectContaining({ reason: expect.stringContaining("por persona") }),
    });
    expect(await p.stock()).toBe(2);
    await sweepExpiredHolds(database.db, payments(), new Date(now.getTime() + 2 * HOUR));
    expect(cancelAsked(voucher.intent)).toHaveLength(asked + 1);
    expect(
      (await mailOf(email)).filter((m) => m.includes(`Cancelamos tu ficha del pedido ${voucher.orderId}`)),
    ).toHaveLength(1);
  });

  it("a hold released before Stripe answered (no extension in a drop's first hours): the voucher is still cancelled while it could be paid, the piece not given back twice", async () => {
    const p = await piece(1);
    const email = `ines.${harness.dialect}@example.mx`;
    await paidByCard(p, email);
    const voucher = await voucherFor(p, email);
    stands.fake.failingIntents.add(voucher.intent);
    const now = new Date();
    await deliver("checkout.session.completed", voucher.sessionId, now);
    expect(stands.fake.cancelledIntents).not.toContain(voucher.intent);
    expect(await p.stock()).toBe(1);

    // Its hold ends (as in an opening, where a voucher extends none): the piece goes back.
    expect(await releaseHold(database.db, voucher.orderId, now)).toBe(true);
    expect((await getOrder(database.db, voucher.orderId))?.status).toBe("expirado");
    expect(await p.stock()).toBe(2);

    // Stripe back: the voucher, payable for two days more, is cancelled; the piece is not counted again.
    stands.fake.failingIntents.clear();
    await sweepExpiredHolds(database.db, payments(), new Date(now.getTime() + HOUR));
    expect(stands.fake.cancelledIntents).toContain(voucher.intent);
    expect(await getOrder(database.db, voucher.orderId)).toMatchObject({
      status: "cancelado",
      voucherCancelled: expect.objectContaining({ reason: expect.stringContaining("por persona") }),
    });
    expect(await p.stock()).toBe(2);
  });

  it("a voucher over the limit still waiting for its cancellation does not count against her next purchase", async () => {
    const p = await piece(1);
    const email = `bea.${harness.dialect}@example.mx`;
    const first = await voucherFor(p, email);
    await deliver("checkout.session.completed", first.sessionId);
    const doomed = await voucherFor(p, email);
    stands.fake.failingIntents.add(doomed.intent);
    const now = new Date();
    await deliver("checkout.session.completed", doomed.sessionId, now);
    expect((await getOrder(database.db, doomed.orderId))?.status).toBe("esperando_pago");
    // Her first voucher expires unpaid; she buys the piece by card instead: kept.
    settleVoucher(stands.fake, first.sessionId, "failed");
    await deliver("checkout.session.async_payment_failed", first.sessionId);
    const card = await paidByCard(p, email);
    expect((await getOrder(database.db, card.orderId))?.status).toBe("pendiente");
    // Stripe back: the one over the limit is cancelled, the card order stays.
    stands.fake.failingIntents.clear();
    await sweepExpiredHolds(database.db, payments(), new Date(now.getTime() + HOUR));
    expect((await getOrder(database.db, doomed.orderId))?.status).toBe("cancelado");
    expect((await getOrder(database.db, card.orderId))?.status).toBe("pendiente");
    expect(await p.stock()).toBe(2);
  });

  it("a voucher paid before Stripe could cancel it is not cancelled: the payment's own check decides (over the limit: cancelled, the cash to give back by hand), never destroyed", async () => {
    const p = await piece(1);
    const email = `ana.${harness.dialect}@example.mx`;
    await paidByCard(p, email);
    const voucher = await voucherFor(p, email);
    stands.fake.failingIntents.add(voucher.intent);
    const now = new Date();
    await deliver("checkout.session.completed", voucher.sessionId, now);
    // She pays it in cash before Stripe answers again.
    settleVoucher(stands.fake, voucher.sessionId, "paid");
    stands.fake.failingIntents.clear();
    await sweepExpiredHolds(database.db, payments(), new Date(now.getTime() + HOUR));
    expect(stands.fake.cancelledIntents).not.toContain(voucher.intent);
    expect(stands.fake.paymentIntents.get(voucher.intent)?.status).toBe("succeeded");
    expect(await getOrder(database.db, voucher.orderId)).toMatchObject({
      status: "esperando_pago",
      voucherCancelled: null,
    });
    // Stripe's event of the payment: over the limit at payment, cancelled with its refund recorded.
    expect(await deliver("checkout.session.async_payment_succeeded", voucher.sessionId)).toBe("cancelled");
    expect(await getOrder(database.db, voucher.orderId)).toMatchObject({
      status: "cancelado",
      paidAt: expect.any(Date),
      voucherCancelled: null,
      cancellation: expect.objectContaining({ refund: "pendiente", byHand: true }),
    });
    await sweepExpiredHolds(database.db, payments(), new Date(now.getTime() + 2 * HOUR));
    expect(stands.fake.cancelledIntents).not.toContain(voucher.intent);
    expect((await mailOf(email)).filter((m) => m.includes("Cancelamos tu ficha"))).toEqual([]);
  });

  it("with no event at all, the sweeper recording a transfer (SPEI) over the limit cancels it; so does the return page", async () => {
    const p = await piece(1);
    const email = `ines.${harness.dialect}@example.mx`;
    await paidByCard(p, email);
    const swept = await checkout(p);
    const sweptIntent = payByTransfer(stands.fake, swept.sessionId);
    Object.assign(stands.fake.sessions.get(swept.sessionId) ?? {}, shopper(email));
    await sweepExpiredHolds(database.db, payments(), new Date(Date.now() + HOUR));
    expect(cancelAsked(sweptIntent)).toHaveLength(1);
    expect(await getOrder(database.db, swept.orderId)).toMatchObject({
      status: "cancelado",
      voucher: expect.objectContaining({ method: "spei" }),
      voucherCancelled: expect.objectContaining({ reason: expect.stringContaining("por persona") }),
    });

    const back = await voucherFor(p, email);
    await catchUpWithProvider(database.db, payments(), back.orderId);
    expect(cancelAsked(back.intent)).toHaveLength(1);
    expect((await getOrder(database.db, back.orderId))?.status).toBe("cancelado");
    expect(await p.stock()).toBe(2);
  });

  it("the demo page's voucher over the limit is cancelled at once, with nothing to ask of anyone", async () => {
    const demo = createDemoPayments(database.db);
    const p = await piece(1);
    const email = `mia.${harness.dialect}@example.mx`;
    const buyer = {
      customerName: "Mía Ruiz",
      customerEmail: email,
      shipping: {
        name: "Mía Ruiz",
        phone: "9511234567",
        line1: "Calle Macedonio Alcalá 401",
        line2: "",
        city: "Oaxaca de Juárez",
        state: "Oaxaca",
        postalCode: "68000",
        country: "MX",
      },
    };
    const line = { productId: p.id, dropId: p.dropId, quantity: 1 };
    const first = await hold(database.db, { lines: [line], provider: "demo" });
    await recordVoucher(
      database.db,
      demo,
      first.id,
      demoVoucher(first.id, "oxxo", new Date(Date.now() + DAY)),
      buyer,
    );
    const second = await hold(database.db, { lines: [line], provider: "demo" });
    expect(
      await recordVoucher(
        database.db,
        demo,
        second.id,
        demoVoucher(second.id, "oxxo", new Date(Date.now() + DAY)),
        buyer,
      ),
    ).toBe("cancelada");
    expect((await getOrder(database.db, first.id))?.status).toBe("esperando_pago");
    expect((await getOrder(database.db, second.id))?.status).toBe("cancelado");
    expect(await p.stock()).toBe(2);
  });

  // Last: it moves the clock a month ahead on this suite's database.
  it("a voucher cancelled unpaid keeps no buyer a month after its hold ended, as any order never paid; a paid one keeps hers", async () => {
    const p = await piece(1);
    const email = `ofe.${harness.dialect}@example.mx`;
    const card = await paidByCard(p, email);
    const voucher = await voucherFor(p, email);
    await deliver("checkout.session.completed", voucher.sessionId);
    expect((await getOrder(database.db, voucher.orderId))?.status).toBe("cancelado");
    await forgetUnpaidBuyers(database.db, new Date(Date.now() + 40 * DAY));
    expect(await getOrder(database.db, voucher.orderId)).toMatchObject({
      status: "cancelado",
      customerEmail: "",
      shipping: null,
      voucherCancelled: expect.objectContaining({ reason: expect.stringContaining("por persona") }),
    });
    expect((await getOrder(database.db, card.orderId))?.customerEmail).toBe(email);
  });
});
