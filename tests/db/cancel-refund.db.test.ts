import { expect, it, vi } from "vitest";
import { type Database, toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import { exportOrdersCsv, getDeskOrder, listOrders, shipOrder } from "~/orders/desk.server";
import { refundedByHand, retryPendingRefunds } from "~/orders/refunds.server";
import { orderTimeline } from "~/orders/timeline.server";
import { orderPaidByCard, stripePaymentsAt } from "../support/card-payment";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { orderMailTo } from "../support/order-mail";
import { stripeAndMailStands } from "../support/stripe-and-mail";

/*
 * 'Eliminar pedido' on a paid order (issue 25, decision 37), through the real Stripe SDK and
 * adapter against the local stand-in for Stripe's API, and a real SMTP server: the order is
 * cancelled and refunded for its total, its pieces go back, the buyer is told, and the record
 * stays in 'Cancelados' and the CSV; a refund Stripe refuses leaves the order as it was.
 */

vi.setConfig({ testTimeout: 60_000 });
const SECRET = "whsec_cancelar";
const stands = stripeAndMailStands();

/** A paid order of `quantity` pieces: paid by card at Stripe, its signed webhook applied. */
async function paidByCard(
  database: Database,
  piece: { id: string; dropId: string },
  quantity: number,
  email: string,
) {
  const { order, paymentIntent, payments } = await orderPaidByCard(database, stands.fake, {
    lines: [{ productId: piece.id, dropId: piece.dropId, quantity }],
    email,
    webhookSecret: SECRET,
  });
  expect((await getDeskOrder(database.db, order.id))?.status).toBe("pendiente");
  return { orderId: order.id, totalCents: order.totalCents, paymentIntent, payments };
}

const refundsOf = (paymentIntent: string) =>
  stands.fake.refunds.filter((r) => r.payment_intent === paymentIntent);

const mailTo = (database: Database, to: string) => orderMailTo(database, stands.smtp, to);

describeEachDatabase("cancelling a paid order with its refund", (harness) => {
  it("Stripe refunds its total; the pieces return; the buyer is told; the record stays in 'Cancelados' and the CSV, not in the tabs", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 5, priceCents: 802_500 });
    const email = `cancelada-${newId(6)}@example.mx`;
    const paid = await paidByCard(database, piece, 2, email);
    expect(await piece.stock()).toBe(3);

    const result = await cancelPaidOrder(database.db, paid.payments, paid.orderId);
    expect(result).toEqual({ ok: true, refund: "hecho", amountCents: 1_605_000 });
    // The request Stripe got: the payment, the whole amount, keyed by the order.
    expect(refundsOf(paid.paymentIntent)).toEqual([
      expect.objectContaining({
        amount: 1_605_000,
        idempotencyKey: expect.stringMatching(new RegExp(`^cancelacion-${paid.orderId}-\\d+$`)),
        status: "succeeded",
      }),
    ]);
    expect(await piece.stock()).toBe(5);
    const order = await getDeskOrder(database.db, paid.orderId);
    expect(order).toMatchObject({
      status: "cancelado",
      cancellation: { reason: "Cancelado por la tienda", amountCents: 1_605_000, refund: "hecho" },
    });
    const titles = (await orderTimeline(database.db, order as NonNullable<typeof order>)).map((e) => e.title);
    expect(titles).toContain("Cancelado por la tienda");
    expect(titles).toContain("Reembolsado por el proveedor de pagos");
    // The shop's own cancellation has its event; it is not told twice.
    expect(titles).not.toContain("Cancelado al confirmar el pago");
    for (const tab of ["pendiente", "enviado", "archivado"] as const) {
      expect((await listOrders(database.db, { tab })).orders).toEqual([]);
    }
    expect((await listOrders(database.db, { tab: "cancelado" })).orders.map((o) => o.id)).toEqual([
      paid.orderId,
    ]);
    const csv = await exportOrdersCsv(database.db, { tab: "cancelado" });
    expect(csv).toContain(paid.orderId);
    expect(csv).toContain("16050.00");
    // The buyer's e-mail, in Spanish, with the amount.
    const mails = await mailTo(database, email);
    const cancelled = mails.filter((m) => m.includes("Subject: Cancelamos tu pedido"));
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toContain(`Cancelamos tu pedido ${paid.orderId}: no podremos enviártelo.`);
    expect(cancelled[0]).toContain("Ya hicimos el reembolso de $16,050.00 MXN");
    expect(cancelled[0]).not.toContain("máximo de piezas por persona");
    // Done is done: a second try changes nothing and asks Stripe for nothing.
    expect(await cancelPaidOrder(database.db, paid.payments, paid.orderId)).toEqual({
      ok: false,
      reason: "conflicto",
      status: "cancelado",
    });
    expect(refundsOf(paid.paymentIntent)).toHaveLength(1);
  });

  it("a refund Stripe refuses leaves the order as it was, with a Spanish message; one it never answers is asked again", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 4, priceCents: 300_000 });
    const paid = await paidByCard(database, piece, 1, `rechazo-${newId(6)}@example.mx`);
    const before = await getDeskOrder(database.db, paid.orderId);

    stands.fake.refundStatus = "failed";
    const refused = await cancelPaidOrder(database.db, paid.payments, paid.orderId);
    expect(refused).toMatchObject({ ok: false, reason: "reembolso_rechazado", status: "pendiente" });
    expect(refused.ok ? "" : (refused as { message: string }).message).toMatch(
      /^no se pudo reembolsar, así que el pedido no se canceló y sigue pendiente\. El proveedor de pagos respondió: Stripe no hizo el reembolso re_\w+: expired_or_canceled_card$/,
    );
    const after = await getDeskOrder(database.db, paid.orderId);
    expect(after?.status).toBe("pendiente");
    expect(after?.cancellation).toBeNull();
    expect({ ...after, updatedAt: undefined }).toEqual({ ...before, updatedAt: undefined });
    expect(await piece.stock()).toBe(3);
    expect(await database.db.selectFrom("refunds").select("order_id").execute()).toEqual([]);
    // It can still be shipped as usual.
    expect(
      await shipOrder(database.db, paid.orderId, { carrier: "Estafeta", trackingNumber: "123" }),
    ).toEqual({ ok: true });

    // Stripe down: the order stays cancelled, its refund pending; the sweep asks again with the same key.
    const other = await paidByCard(database, piece, 1, `caida-${newId(6)}@example.mx`);
    stands.fake.refundStatus = "succeeded";
    stands.fake.outage = "error";
    expect(await cancelPaidOrder(database.db, other.payments, other.orderId)).toEqual({
      ok: true,
      refund: "pendiente",
      amountCents: 300_000,
    });
    expect(await piece.stock()).toBe(2); // not back until the refund is made
    stands.fake.outage = null;
    const later = new Date(Date.now() + 60 * 60_000);
    expect(await retryPendingRefunds(database.db, other.payments, later)).toMatchObject({ refunded: 1 });
    expect(refundsOf(other.paymentIntent)).toEqual([
      expect.objectContaining({
        idempotencyKey: expect.stringMatching(new RegExp(`^cancelacion-${other.orderId}-\\d+$`)),
      }),
    ]);
    expect(await piece.stock()).toBe(3);
    expect((await getDeskOrder(database.db, other.orderId))?.cancellation?.refund).toBe("hecho");
  });

  it("two tabs cancelling at once: one success, one refund request, the pieces back once", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 6, priceCents: 150_000 });
    const paid = await paidByCard(database, piece, 3, `carrera-${newId(6)}@example.mx`);
    const results = await Promise.all([
      cancelPaidOrder(database.db, paid.payments, paid.orderId),
      cancelPaidOrder(database.db, stripePaymentsAt(stands.fake, SECRET), paid.orderId),
    ]);
    expect(results.filter((r) => r.ok)).toEqual([{ ok: true, refund: "hecho", amountCents: 450_000 }]);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "conflicto", status: "cancelado" }]);
    expect(refundsOf(paid.paymentIntent)).toHaveLength(1);
    expect(await piece.stock()).toBe(6);
  });

  it("a refused refund can be asked again: the next 'Eliminar pedido' is a new request, not the refusal replayed", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 3, priceCents: 200_000 });
    const paid = await paidByCard(database, piece, 1, `otra-vez-${newId(6)}@example.com`);
    stands.fake.refundStatus = "failed";
    expect(await cancelPaidOrder(database.db, paid.payments, paid.orderId, new Date())).toMatchObject({
      ok: false,
      reason: "reembolso_rechazado",
    });
    stands.fake.refundStatus = "succeeded";
    const later = new Date(Date.now() + 1_000);
    expect(await cancelPaidOrder(database.db, paid.payments, paid.orderId, later)).toEqual({
      ok: true,
      refund: "hecho",
      amountCents: 200_000,
    });
    expect(refundsOf(paid.paymentIntent).map((r) => r.status)).toEqual(["failed", "succeeded"]);
    expect(await piece.stock()).toBe(3);
  });

  it("a refund first left without an answer and refused at a later sweep puts the order back as it was", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 3, priceCents: 250_000 });
    const paid = await paidByCard(database, piece, 1, `barrido-${newId(6)}@example.com`);
    stands.fake.outage = "error";
    expect(await cancelPaidOrder(database.db, paid.payments, paid.orderId)).toMatchObject({
      ok: true,
      refund: "pendiente",
    });
    stands.fake.outage = null;
    stands.fake.refundStatus = "failed";
    const later = new Date(Date.now() + 60 * 60_000);
    expect(await retryPendingRefunds(database.db, paid.payments, later)).toMatchObject({ failed: 1 });
    const order = await getDeskOrder(database.db, paid.orderId);
    expect(order?.status).toBe("pendiente");
    expect(order?.cancellation).toBeNull();
    expect(await piece.stock()).toBe(2);
    expect(
      (await orderTimeline(database.db, order as NonNullable<typeof order>)).map((e) => e.title),
    ).toContain("Reembolso rechazado");
    // Nothing left for the sweep to retry, and no cancellation e-mail.
    expect(await database.db.selectFrom("refunds").select("order_id").execute()).toEqual([]);
    expect(
      await database.db.selectFrom("emails").select("kind").where("kind", "=", "cancelacion").execute(),
    ).toEqual([]);
  });

  it("a refund under way at Stripe is made at a later sweep: then the pieces return and the buyer is told, once", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 2, priceCents: 180_000 });
    const email = `en-curso-${newId(6)}@example.com`;
    const paid = await paidByCard(database, piece, 1, email);
    stands.fake.refundStatus = "pending";
    expect(await cancelPaidOrder(database.db, paid.payments, paid.orderId)).toMatchObject({
      ok: true,
      refund: "en_curso",
    });
    expect(await piece.stock()).toBe(1);
    const [refund] = refundsOf(paid.paymentIntent);
    stands.fake.settleRefund(refund?.id ?? "", "succeeded");
    const later = new Date(Date.now() + 60 * 60_000);
    expect(await retryPendingRefunds(database.db, paid.payments, later)).toMatchObject({ refunded: 1 });
    expect(await retryPendingRefunds(database.db, paid.payments, later)).toMatchObject({ refunded: 0 });
    expect(await piece.stock()).toBe(2);
    const mails = (await mailTo(database, email)).filter((m) => m.includes("Subject: Cancelamos tu pedido"));
    expect(mails).toHaveLength(1);
  });

  it("a refund the provider does not make, which the owner made herself: recorded as made, pieces back, the buyer told once (not 'al mismo medio')", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 3, priceCents: 250_000 });
    const email = `a-mano-${newId(6)}@example.com`;
    const paid = await paidByCard(database, piece, 1, email);
    // Stripe does not answer: the order is cancelled, its refund pending and asked again later.
    stands.fake.outage = "error";
    expect(await cancelPaidOrder(database.db, paid.payments, paid.orderId)).toMatchObject({
      refund: "pendiente",
    });
    stands.fake.outage = null;
    const nextAttempt = (at: Date, lastError?: string) =>
      database.db
        .updateTable("refunds")
        .set({ next_attempt_at: toTimestamp(at), ...(lastError ? { last_error: lastError } : {}) })
        .where("order_id", "=", paid.orderId)
        .execute();
    // No answer: Stripe may have made it all the same (a timeout after it did), so not by hand, even
    // with its next attempt far off; the desk says why and offers no button.
    await nextAttempt(new Date(Date.now() + 10 * 60_000));
    expect(await refundedByHand(database.db, paid.orderId)).toEqual({ ok: false, reason: "sin_respuesta" });
    expect((await getDeskOrder(database.db, paid.orderId))?.cancellation).toMatchObject({ noAnswer: true });
    // Once the provider has answered that it did not make it (as a refused refund's record reads):
    await nextAttempt(new Date(Date.now() + 10 * 60_000), "Stripe: la tarjeta ya no acepta reembolsos");
    // While the sweep would be asking for it (its next attempt due), she cannot: the money could go twice.
    const due = new Date(Date.now() + 60 * 60_000);
    expect(await refundedByHand(database.db, paid.orderId, due)).toEqual({
      ok: false,
      reason: "se_pide_ahora",
    });
    // Nor while a sweep holds it for its call (its next attempt moved a minute or two ahead).
    await nextAttempt(new Date(Date.now() + 60_000));
    expect(await refundedByHand(database.db, paid.orderId)).toEqual({ ok: false, reason: "se_pide_ahora" });
    await nextAttempt(new Date(Date.now() + 10 * 60_000));
    expect(await refundedByHand(database.db, paid.orderId)).toEqual({ ok: true });
    expect(await refundedByHand(database.db, paid.orderId)).toEqual({ ok: false, reason: "sin_reembolso" });
    // Nothing asked of Stripe since; the sweep leaves it.
    expect(await retryPendingRefunds(database.db, paid.payments, due)).toMatchObject({
      refunded: 0,
      failed: 0,
    });
    expect(refundsOf(paid.paymentIntent)).toEqual([]);
    const order = await getDeskOrder(database.db, paid.orderId);
    expect(order?.cancellation).toMatchObject({ refund: "hecho", refundId: "a-mano" });
    expect(await piece.stock()).toBe(3);
    expect(
      (await orderTimeline(database.db, order as NonNullable<typeof order>)).map((e) => e.title),
    ).toContain("Reembolsado a mano por la tienda");
    const mails = (await mailTo(database, email)).filter((m) => m.includes("Subject: Cancelamos tu pedido"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("Ya te devolvimos $2,500.00 MXN.");
    expect(mails[0]).not.toContain("al mismo medio");

    // One under way at Stripe is Stripe's to finish.
    const other = await paidByCard(database, piece, 1, `en-curso-${newId(6)}@example.com`);
    stands.fake.refundStatus = "pending";
    expect(await cancelPaidOrder(database.db, other.payments, other.orderId)).toMatchObject({
      refund: "en_curso",
    });
    expect(await refundedByHand(database.db, other.orderId)).toEqual({ ok: false, reason: "en_curso" });
  });
});
