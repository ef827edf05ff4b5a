import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { log } from "~/config/log.server";
import type { Database } from "~/db/database.server";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import { startCheckout } from "~/orders/checkout.server";
import { HOLD_MINUTES, setPaymentSession } from "~/orders/holds.server";
import { catchUpWithProvider } from "~/orders/payment-return.server";
import { getOrder } from "~/orders/queries.server";
import { cancelFromPaymentPage, sweepExpiredHolds } from "~/orders/sweeper.server";
import { createStripeClient, createStripePayments } from "~/payments/stripe-payments.server";
import { orderPaidByCard } from "../support/card-payment";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type FakeStripe, payByCard, payByVoucher, startFakeStripe } from "../support/fake-stripe";
import { hold } from "../support/orders";

/*
 * The sweeper and /cancel with the real Stripe adapter and SDK, against a local stand-in for
 * Stripe's API: what they do when Stripe does not know a session, or does not answer.
 */

vi.setConfig({ testTimeout: 60_000 });
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  fake.outage = null;
  fake.failingSessions.clear();
  vi.restoreAllMocks();
});

const later = () => new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000);

function stripePayments() {
  const secret = "whsec_pruebas123";
  return createStripePayments(
    createStripeClient({ secretKey: "sk_test_123", webhookSecret: secret, apiBase: fake.url }),
    { webhookSecret: secret },
  );
}

/** A held piece whose order has a session: a real one at the fake Stripe, or an id it never saw. */
async function heldAtStripe(database: Database, session: "real" | string) {
  const payments = stripePayments();
  const piece = await runningPiece(database, { stock: 2 });
  const order = await hold(database.db, {
    lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 2 }],
    provider: "stripe",
  });
  const opened =
    session === "real"
      ? await payments.createSession(order, { success: "https://t.example/s", cancel: "https://t.example/c" })
      : { id: session, expiresAt: order.expiresAt };
  await setPaymentSession(database.db, order.id, opened);
  const status = async () => (await getOrder(database.db, order.id))?.status;
  return { orderId: order.id, sessionId: opened.id, stock: piece.stock, status, payments };
}

describeEachDatabase("holds against Stripe's API", (harness) => {
  it("200 sessions that keep failing at Stripe do not delay another expired hold past one sweep interval", async () => {
    const database = await harness.fresh();
    const payments = stripePayments();
    const piece = await runningPiece(database, { stock: 201 });
    const sessions: string[] = [];
    for (let i = 0; i < 201; i++) {
      const order = await hold(database.db, {
        lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
        provider: "stripe",
      });
      // The first 200 to expire (the sweep's first pages) fail at every request: the stand-in
      // answers them 500 before looking them up, so they need no session made there. The last one
      // is a real session, and does not fail.
      const opened =
        i < 200
          ? { id: `cs_test_falla_${harness.dialect}_${i}`, expiresAt: order.expiresAt }
          : await payments.createSession(order, {
              success: "https://t.example/s",
              cancel: "https://t.example/c",
            });
      await setPaymentSession(database.db, order.id, opened);
      sessions.push(opened.id);
    }
    const normal = sessions.pop() ?? "";
    for (const id of sessions) fake.failingSessions.add(id);
    vi.spyOn(log, "error").mockImplementation(() => {});
    const started = Date.now();
    const swept = await sweepExpiredHolds(database.db, payments, later());
    const took = Date.now() - started;
    console.log(`200 sesiones que fallan y una normal: barrido en ${took} ms`);
    expect(swept).toMatchObject({ released: 1, failed: 200 });
    expect(fake.sessions.get(normal)?.status).toBe("expired");
    expect(await piece.stock()).toBe(1);
    // The shop sweeps every minute: the normal hold is back well within one interval.
    expect(took).toBeLessThan(60_000);
  });

  it("a sweep starts no hold past its time budget; the next one settles first the holds that did not fail before", async () => {
    const database = await harness.fresh();
    const payments = stripePayments();
    const piece = await runningPiece(database, { stock: 40 });
    /** A held piece with a real session at the fake Stripe. */
    const held = async () => {
      const order = await hold(database.db, {
        lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
        provider: "stripe",
      });
      const opened = await payments.createSession(order, {
        success: "https://t.example/s",
        cancel: "https://t.example/c",
      });
      await setPaymentSession(database.db, order.id, opened);
      return opened.id;
    };
    const failing: string[] = [];
    for (let i = 0; i < 30; i++) failing.push(await held());
    for (const id of failing) fake.failingSessions.add(id);
    vi.spyOn(log, "error").mockImplementation(() => {});
    const warnings = vi.spyOn(log, "warn").mockImplementation(() => {});
    // First sweep: the 30 fail (each after the SDK's retries).
    expect(await sweepExpiredHolds(database.db, payments, later())).toMatchObject({ failed: 30 });
    // A hold that expires after them, and a sweep with a short budget: it is settled first, and
    // the sweep starts none of the failing ones past its budget.
    const normal = await held();
    const started = Date.now();
    const swept = await sweepExpiredHolds(database.db, payments, later(), { budgetMs: 300 });
    const took = Date.now() - started;
    expect(swept.released).toBe(1);
    expect(fake.sessions.get(normal)?.status).toBe("expired");
    expect(swept.failed).toBeLessThan(30);
    // Lanes started within the budget finish the session they were on (its retries), no more.
    expect(took).toBeLessThan(10_000);
    expect(warnings).toHaveBeenCalledWith(
      { postponed: 30 - swept.failed },
      "Barrido de apartados: tiempo agotado, el resto queda para el siguiente",
    );
  });

  it("a session Stripe no longer knows (404 resource_missing) is unpaid: the sweeper releases its hold", async () => {
    const database = await harness.fresh();
    const gone = await heldAtStripe(database, "cs_test_de_otra_cuenta");
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    expect(await sweepExpiredHolds(database.db, gone.payments, later())).toEqual({
      released: 1,
      paid: 0,
      waiting: 0,
      failed: 0,
    });
    expect(errors).not.toHaveBeenCalled();
    expect(await gone.stock()).toBe(2);
    expect(await gone.status()).toBe("expirado");
  });

  it("a session paid for another amount than its order, found by the sweeper or on the return page, is cancelled and what was charged refunded; the order's own amount is paid", async () => {
    const database = await harness.fresh();
    const totalOf = async (orderId: string) => (await getOrder(database.db, orderId))?.totalCents ?? 0;
    // The sweeper finds it paid: $1.00 more than the order.
    const swept = await heldAtStripe(database, "real");
    const sweptTotal = await totalOf(swept.orderId);
    const sweptIntent = payByCard(fake, swept.sessionId, { amount: sweptTotal + 100, fingerprint: "fp_mas" });
    // The buyer back on the return page first: $1.00 less.
    const returned = await heldAtStripe(database, "real");
    const returnedTotal = await totalOf(returned.orderId);
    const returnedIntent = payByCard(fake, returned.sessionId, {
      amount: returnedTotal - 100,
      fingerprint: "fp_menos",
    });
    await catchUpWithProvider(database.db, returned.payments, returned.orderId);
    expect(await sweepExpiredHolds(database.db, swept.payments, later())).toMatchObject({ released: 0 });
    for (const [held, intent, charged] of [
      [swept, sweptIntent, sweptTotal + 100],
      [returned, returnedIntent, returnedTotal - 100],
    ] as const) {
      expect(await held.status()).toBe("cancelado");
      expect(await held.stock()).toBe(2);
      expect(fake.refunds.filter((r) => r.payment_intent === intent).map((r) => r.amount)).toEqual([charged]);
      expect((await getOrder(database.db, held.orderId))?.cancellation).toMatchObject({
        mismatch: true,
        amountCents: charged,
        refund: "hecho",
      });
    }
    // What the order asks: paid, as before.
    const right = await heldAtStripe(database, "real");
    payByCard(fake, right.sessionId, { amount: await totalOf(right.orderId), fingerprint: "fp_justo" });
    expect(await sweepExpiredHolds(database.db, right.payments, later())).toMatchObject({ paid: 1 });
    expect(await right.status()).toBe("pendiente");
    expect(await right.stock()).toBe(0);
  });

  it("a session Stripe no longer knows: /cancel releases its hold at once", async () => {
    const database = await harness.fresh();
    const gone = await heldAtStripe(database, "cs_test_borrada");
    expect(await cancelFromPaymentPage(database.db, gone.payments, gone.orderId)).toBe("liberado");
    expect(await gone.stock()).toBe(2);
    expect(await gone.status()).toBe("expirado");
  });

  it("Stripe down (500s): the sweeper keeps the hold and releases it in the first sweep after Stripe is back", async () => {
    const database = await harness.fresh();
    const held = await heldAtStripe(database, "real");
    vi.spyOn(log, "error").mockImplementation(() => {});
    fake.outage = "error";
    expect(await sweepExpiredHolds(database.db, held.payments, later())).toMatchObject({
      released: 0,
      failed: 1,
    });
    expect(await held.stock()).toBe(0);
    expect(await held.status()).toBe("esperando_pago");
    fake.outage = null;
    expect(await sweepExpiredHolds(database.db, held.payments, later())).toMatchObject({
      released: 1,
      failed: 0,
    });
    expect(fake.sessions.get(held.sessionId)?.status).toBe("expired");
    expect(await held.stock()).toBe(2);
  });

  it("a drop with a 10-minute hold: Stripe's session (30 minutes at least) is closed when the hold ends, then the pieces go back", async () => {
    const database = await harness.fresh();
    const payments = stripePayments();
    const piece = await runningPiece(database, { stock: 1, holdMinutes: 10 });
    const started = Date.now();
    const result = await startCheckout(
      database.db,
      payments,
      [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      { success: "https://t.example/s", cancel: (id) => `https://t.example/c?pedido=${id}` },
      "navegador_de_ana_00001",
    );
    if (!result.ok) throw new Error(result.message);
    if (!("orderId" in result)) throw new Error("en la fila");
    const [sessionId, session] = [...fake.sessions.entries()].at(-1) ?? [];
    // Stripe keeps a session open for 30 minutes at least: asked for that much, never less.
    expect(Number(session?.expires_at) * 1000 - started).toBeGreaterThanOrEqual(30 * 60_000);
    const order = await database.db
      .selectFrom("orders")
      .select("expires_at")
      .where("id", "=", result.orderId)
      .executeTakeFirstOrThrow();
    const holdEnds = new Date(order.expires_at).getTime() - started;
    expect(holdEnds).toBeGreaterThanOrEqual(10 * 60_000 - 1_000);
    expect(holdEnds).toBeLessThanOrEqual(10 * 60_000 + 5_000);

    // Minute 9: nothing happens. Minute 11: the session is closed at Stripe, then the piece is back.
    expect(await sweepExpiredHolds(database.db, payments, new Date(started + 9 * 60_000))).toMatchObject({
      released: 0,
    });
    expect(fake.sessions.get(sessionId ?? "")?.status).toBe("open");
    expect(await sweepExpiredHolds(database.db, payments, new Date(started + 11 * 60_000))).toMatchObject({
      released: 1,
    });
    expect(fake.sessions.get(sessionId ?? "")?.status).toBe("expired");
    expect(await piece.stock()).toBe(1);
  });

  it("Stripe unreachable at /cancel: the hold stays (it may have been paid); a retry once Stripe is back releases it", async () => {
    const database = await harness.fresh();
    const held = await heldAtStripe(database, "real");
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    for (const outage of ["hangup", "error"] as const) {
      fake.outage = outage;
      expect(await cancelFromPaymentPage(database.db, held.payments, held.orderId)).toBe("sin_respuesta");
      expect(await held.stock()).toBe(0);
      expect(await held.status()).toBe("esperando_pago");
    }
    // One line per failure, naming the order.
    expect(logged).toHaveBeenCalledTimes(2);
    for (const args of logged.mock.calls) {
      expect(args).toEqual([
        { orderId: held.orderId, error: expect.any(String) },
        "No se pudo cancelar el pago del pedido",
      ]);
      expect((args[0] as unknown as { error: string }).error).not.toContain("\n");
    }
    fake.outage = null;
    expect(await cancelFromPaymentPage(database.db, held.payments, held.orderId)).toBe("liberado");
    expect(await held.stock()).toBe(2);
    expect(await held.status()).toBe("expirado");
    // Again (a reload of /cancel): nothing left to release.
    expect(await cancelFromPaymentPage(database.db, held.payments, held.orderId)).toBe("sin_apartado");
    expect(await held.stock()).toBe(2);
  });

  it("/cancel for an order already paid (another tab paid it) changes nothing and never says 'no charge'", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 1, priceCents: 250_000, name: "Collar Pagado" });
    const { order, payments } = await orderPaidByCard(database, fake, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      email: "pagado@example.mx",
      webhookSecret: "whsec_pagado_en_otra_pestana",
    });
    expect(await cancelFromPaymentPage(database.db, payments, order.id)).toBe("ya_pagado");
    expect((await getOrder(database.db, order.id))?.status).toBe("pendiente");
    expect(await piece.stock()).toBe(0);
    // Paid and then cancelled: said so, not "paid and confirmed".
    expect((await cancelPaidOrder(database.db, payments, order.id)).ok).toBe(true);
    expect(await cancelFromPaymentPage(database.db, payments, order.id)).toBe("ya_cancelado");
  });

  it("a cash voucher (OXXO) keeps its hold no longer than the voucher itself: then the pieces go back", async () => {
    const database = await harness.fresh();
    const held = await heldAtStripe(database, "real");
    const sweepAt = later();
    // Stripe's voucher can be paid for 20 more minutes when the hold's time is up.
    const voucherEnds = new Date(sweepAt.getTime() + 20 * 60_000);
    payByVoucher(fake, held.sessionId, voucherEnds);
    expect(await sweepExpiredHolds(database.db, held.payments, sweepAt)).toMatchObject({
      waiting: 1,
      released: 0,
    });
    const order = await database.db
      .selectFrom("orders")
      .select("expires_at")
      .where("id", "=", held.orderId)
      .executeTakeFirstOrThrow();
    // Extended to the voucher's end, not the hour it used to be.
    expect(new Date(order.expires_at).getTime()).toBe(Math.floor(voucherEnds.getTime() / 1000) * 1000);
    expect(await held.stock()).toBe(0);
    // Nothing to do before then; once the voucher is over, the hold is released, not extended again.
    expect(
      await sweepExpiredHolds(database.db, held.payments, new Date(voucherEnds.getTime() - 60_000)),
    ).toMatchObject({
      waiting: 0,
      released: 0,
    });
    expect(
      await sweepExpiredHolds(database.db, held.payments, new Date(voucherEnds.getTime() + 60_000)),
    ).toEqual({
      released: 1,
      paid: 0,
      waiting: 0,
      failed: 0,
    });
    expect(await held.status()).toBe("expirado");
    expect(await held.stock()).toBe(2);
  });

  it("a cash voucher during its drop's opening period is not waited for: the hold ends on time like any other", async () => {
    const database = await harness.fresh();
    const held = await heldAtStripe(database, "real");
    // The drop opened an hour ago and its opening lasts a day.
    const drop = await database.db
      .selectFrom("order_lines")
      .select("drop_id")
      .where("order_id", "=", held.orderId)
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable("drops")
      .set({ opening_minutes: 24 * 60 })
      .where("id", "=", drop.drop_id)
      .execute();
    const sweepAt = later();
    payByVoucher(fake, held.sessionId, new Date(sweepAt.getTime() + 3 * 24 * 60 * 60_000));
    expect(await sweepExpiredHolds(database.db, held.payments, sweepAt)).toEqual({
      released: 1,
      paid: 0,
      waiting: 0,
      failed: 0,
    });
    expect(await held.status()).toBe("expirado");
    expect(await held.stock()).toBe(2);

    // After the opening, the same voucher holds its piece until it expires (decision 42).
    const after = await heldAtStripe(database, "real");
    await database.db
      .updateTable("drops")
      .set({ opening_minutes: 30 })
      .where("id", "in", (eb) =>
        eb.selectFrom("order_lines").select("drop_id").where("order_id", "=", after.orderId),
      )
      .execute();
    const voucherEnds = new Date(sweepAt.getTime() + 3 * 24 * 60 * 60_000);
    payByVoucher(fake, after.sessionId, voucherEnds);
    expect(await sweepExpiredHolds(database.db, after.payments, sweepAt)).toMatchObject({
      waiting: 1,
      released: 0,
    });
    const extended = await database.db
      .selectFrom("orders")
      .select("expires_at")
      .where("id", "=", after.orderId)
      .executeTakeFirstOrThrow();
    // Stripe tells the voucher's end in whole seconds.
    expect(new Date(extended.expires_at).getTime()).toBe(Math.floor(voucherEnds.getTime() / 1000) * 1000);
  });
});
