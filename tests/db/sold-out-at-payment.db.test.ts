import { expect, it, vi } from "vitest";
import { loadConfig } from "~/config/env.server";
import { globalInvoiceSales } from "~/invoices/requests.server";
import { shopDateTimeStamp } from "~/lib/dates";
import { newId } from "~/lib/ids";
import { formatMXN } from "~/lib/money";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import { exportOrdersCsv, removeFromHistory } from "~/orders/desk.server";
import { releaseHold } from "~/orders/holds.server";
import {
  recordMissingRefunded,
  refundMissingPieces,
  retryMissingRefunds,
} from "~/orders/missing-refund.server";
import { REFUND_IN_PROGRESS } from "~/orders/order";
import { orderPageOf } from "~/orders/order-page.server";
import { getOrder } from "~/orders/queries.server";
import { receiptOf } from "~/orders/receipt.server";
import { orderTimeline } from "~/orders/timeline.server";
import { loadReport } from "~/reports/reports.server";
import { settingsFromEnvironment } from "~/settings/settings";
import { orderPaidByCard } from "../support/card-payment";
import { runningPiece } from "../support/catalogue";
import { parseCsv } from "../support/csv";
import { describeEachDatabase } from "../support/databases";
import { orderMailTo } from "../support/order-mail";
import { hold } from "../support/orders";
import { stripeAndMailStands } from "../support/stripe-and-mail";

/*
 * A card payment the shop hears of only after its hold expired, when its only piece was sold to
 * someone else meanwhile: nothing can be sent, so the order is cancelled and the whole payment is
 * refunded through the provider at once (the real Stripe SDK against the local stand-in), with an
 * e-mail over real SMTP; before, it waited for the owner with a promise to write to the buyer.
 */

vi.setConfig({ testTimeout: 60_000 });
const SECRET = "whsec_agotado_al_pagar";
const shop = loadConfig({}).shop;
const stands = stripeAndMailStands();

describeEachDatabase("paid after the hold expired, every piece sold meanwhile", (harness) => {
  it("is cancelled and its whole payment refunded through the provider, the buyer told why; the other buyer keeps the piece", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 1, priceCents: 980_000, name: "Collar Marea" });
    const email = `tarde-${newId(6)}@example.mx`;
    let other = "";
    const { order, paymentIntent } = await orderPaidByCard(database, stands.fake, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      email,
      webhookSecret: SECRET,
      // Her hold runs out before the shop hears of the payment, and another shopper takes the piece.
      beforeWebhook: async (late) => {
        expect(await releaseHold(database.db, late.id)).toBe(true);
        other = (
          await hold(database.db, {
            lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
            provider: "demo",
          })
        ).id;
      },
    });

    // The whole payment back at Stripe, keyed by the order: once.
    const refunds = stands.fake.refunds.filter((r) => r.payment_intent === paymentIntent);
    expect(refunds).toEqual([expect.objectContaining({ amount: order.totalCents, status: "succeeded" })]);
    expect(await getOrder(database.db, order.id)).toMatchObject({
      status: "cancelado",
      stockIssue: null,
      cancellation: expect.objectContaining({ soldOut: true, byShop: false, refund: "hecho" }),
    });
    // The other shopper's hold keeps the piece; nothing went below zero.
    expect(await piece.stock()).toBe(0);
    expect((await getOrder(database.db, other))?.status).toBe("esperando_pago");

    // Her e-mail says why and that the money is back; no confirmation promising pieces.
    const mails = await orderMailTo(database, stands.smtp, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`Cancelamos tu pedido ${order.id} y te devolvimos tu dinero`);
    expect(mails[0]).toContain("llegó después de que venció tu apartado");
    expect(mails[0]).toContain(`Ya hicimos el reembolso de ${formatMXN(order.totalCents)} MXN`);

    // Back on the payment's return page she is told why, not that she went over a limit.
    expect(await receiptOf(database.db, order.id)).toMatchObject({
      cancelledSoldOut: true,
      cancelled: null,
      cancelledByShop: false,
    });

    // 'Mi pedido' shows it cancelled and refunded, with why, and no promise to write.
    const page = await orderPageOf(database.db, order.id, settingsFromEnvironment(shop));
    expect(page?.missing).toBeNull();
    expect(page?.steps.at(-1)).toMatchObject({
      label: "Cancelado y reembolsado",
      detail: "Pagado después de vencer el apartado: sus piezas ya no estaban",
    });
    expect(page?.next).toBe(
      "Te devolvimos el total al mismo medio con que pagaste. Si tienes dudas, escríbenos.",
    );
  });
});

describeEachDatabase("paid after the hold expired, some pieces sold meanwhile", (harness) => {
  /** A ring ($8,000) and an earring ($4,000) paid by card after her hold ran out, the earring taken meanwhile. */
  async function partlyShort(database: Awaited<ReturnType<typeof harness.fresh>>) {
    const kept = await runningPiece(database, { stock: 1, priceCents: 800_000, name: "Anillo Ola" });
    const gone = await runningPiece(database, { stock: 1, priceCents: 400_000, name: "Arete Espuma" });
    return orderPaidByCard(database, stands.fake, {
      lines: [
        { productId: kept.id, dropId: kept.dropId, quantity: 1 },
        { productId: gone.id, dropId: gone.dropId, quantity: 1 },
      ],
      email: `parcial-${newId(6)}@example.mx`,
      webhookSecret: SECRET,
      // Her hold runs out, and another shopper takes the earring before the shop hears of her payment.
      beforeWebhook: async (late) => {
        expect(await releaseHold(database.db, late.id)).toBe(true);
        await hold(database.db, {
          lines: [{ productId: gone.id, dropId: gone.dropId, quantity: 1 }],
          provider: "demo",
        });
      },
    });
  }

  it("sends the pieces still there; the missing ones' price goes back through the provider at payment, once, and the buyer's page and Reportes say so", async () => {
    const database = await harness.fresh();
    const { order, paymentIntent, payments } = await partlyShort(database);
    const paid = await getOrder(database.db, order.id);
    expect(paid).toMatchObject({ status: "pendiente", missingRefund: { status: "hecho", byHand: false } });
    expect(paid?.stockIssue).toContain("Arete Espuma × 1");
    expect(paid?.missingRefundedAt).toBeInstanceOf(Date);
    // A partial refund of her card payment: the earring's price, at the Stripe stand-in.
    expect(stands.fake.refunds.filter((r) => r.payment_intent === paymentIntent)).toEqual([
      expect.objectContaining({ amount: 400_000 }),
    ]);
    const settings = settingsFromEnvironment(shop);
    expect((await orderPageOf(database.db, order.id, settings))?.missing).toMatch(
      /te devolvimos \$4,000\.00 MXN el \d{1,2} de [a-z]+ de \d{4}\.$/,
    );
    const titles = (await orderTimeline(database.db, paid as NonNullable<typeof paid>)).map(
      (e) => `${e.title}: ${e.detail}`,
    );
    expect(titles).toContain("Piezas faltantes reembolsadas: $4,000.00, por el proveedor de pagos");
    // Not owed; the ring sent is still a sale.
    const report = await loadReport(database.db, { kind: "all" });
    expect(report.ok && report.report.refunds).toEqual({ orders: 0, cents: 0, pieces: 0 });
    expect(report.ok && report.report.figures).toMatchObject({ netCents: 800_000, pieces: 1 });
    // Once: the refunds job and the owner's button find it made.
    expect(await retryMissingRefunds(database.db, payments, new Date(Date.now() + 3_600_000))).toMatchObject({
      refunded: 0,
      failed: 0,
    });
    expect(await recordMissingRefunded(database.db, order.id)).toEqual({
      ok: false,
      reason: "ya_registrado",
    });
    expect(stands.fake.refunds.filter((r) => r.payment_intent === paymentIntent)).toHaveLength(1);

    // Cancelled later by the shop: the missing pieces' price, already given back, is not paid twice.
    expect(await cancelPaidOrder(database.db, payments, order.id)).toMatchObject({
      ok: true,
      amountCents: order.totalCents - 400_000,
    });
    expect(stands.fake.refunds.filter((r) => r.payment_intent === paymentIntent)).toEqual([
      expect.objectContaining({ amount: 400_000 }),
      expect.objectContaining({ amount: order.totalCents - 400_000 }),
    ]);
  });

  it("refused by the provider: the refunds job asks again until it is made; meanwhile it is owed, and the order stays on the history", async () => {
    const database = await harness.fresh();
    stands.fake.refundStatus = "failed";
    const { order, paymentIntent, payments } = await partlyShort(database).finally(() => {
      stands.fake.refundStatus = "succeeded";
    });
    const owed = await getOrder(database.db, order.id);
    expect(owed).toMatchObject({
      missingRefundedAt: null,
      missingRefund: { status: "pendiente", inProgress: false },
    });
    expect(owed?.missingRefund?.error).toBeTruthy();
    const settings = settingsFromEnvironment(shop);
    expect((await orderPageOf(database.db, order.id, settings))?.missing).toContain(
      "te devolvemos $4,000.00 MXN al mismo medio con que pagaste",
    );
    const report = await loadReport(database.db, { kind: "all" });
    // Owed. Refused by the provider, it is the owner's to give back by hand (the order offers it;
    // the job also asks again): listed as hers.
    expect(report.ok && report.report.refunds).toEqual({ orders: 1, cents: 400_000, pieces: 1 });
    expect(report.ok && report.report.refundsAtProvider).toEqual({ orders: 0, cents: 0, pieces: 0 });
    // In the provider's hands, it is not hers: listed apart, where she will not pay it twice.
    const stored = await database.db
      .selectFrom("orders")
      .select("missing_refund_error")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    const storeError = (value: string | null) =>
      database.db
        .updateTable("orders")
        .set({ missing_refund_error: value })
        .where("id", "=", order.id)
        .execute();
    await storeError(REFUND_IN_PROGRESS);
    const inHand = await loadReport(database.db, { kind: "all" });
    expect(inHand.ok && inHand.report.refunds).toEqual({ orders: 0, cents: 0, pieces: 0 });
    expect(inHand.ok && inHand.report.refundsAtProvider).toEqual({ orders: 1, cents: 400_000, pieces: 1 });
    await storeError(stored.missing_refund_error);
    await database.db.updateTable("orders").set({ status: "enviado" }).where("id", "=", order.id).execute();
    expect(await removeFromHistory(database.db, order.id)).toEqual({
      ok: false,
      reason: "faltantes_por_devolver",
      status: null,
    });
    // Not yet due: the job leaves it.
    expect(await retryMissingRefunds(database.db, payments)).toMatchObject({ refunded: 0 });
    // Due, and the provider makes it this time: a new refund after the failed one.
    const month = shopDateTimeStamp(new Date()).slice(0, 7);
    expect(
      (await globalInvoiceSales(database.db, month)).find((r) => r.orderId === order.id)?.refundedCents ?? 0,
    ).toBe(0);
    expect(await retryMissingRefunds(database.db, payments, new Date(Date.now() + 3_600_000))).toMatchObject({
      refunded: 1,
    });
    expect(
      stands.fake.refunds.filter((r) => r.payment_intent === paymentIntent).map((r) => [r.amount, r.status]),
    ).toEqual([
      [400_000, "failed"],
      [400_000, "succeeded"],
    ]);
    expect((await getOrder(database.db, order.id))?.missingRefundedAt).toBeInstanceOf(Date);
    // The month's sales for the global invoice: the money given back beside the sale, for the accountant.
    expect(
      (await globalInvoiceSales(database.db, month)).find((r) => r.orderId === order.id)?.refundedCents,
    ).toBe(400_000);
    // And the orders' sheet, beside the sale's full total.
    const sheet = parseCsv((await exportOrdersCsv(database.db, { tab: "enviado" })).slice(1));
    const column = sheet[0]?.indexOf("Piezas faltantes reembolsadas (MXN)") ?? -1;
    expect(sheet.find((r) => r[0] === order.id)?.[column]).toBe("4000.00");
    expect(await removeFromHistory(database.db, order.id)).toEqual({ ok: true });
  });

  it("refused by the provider, the owner may give it back by hand (then the job asks no more); cash paid at OXXO is hers from the start", async () => {
    const database = await harness.fresh();
    stands.fake.refundStatus = "failed";
    const { order, paymentIntent, payments } = await partlyShort(database).finally(() => {
      stands.fake.refundStatus = "succeeded";
    });
    expect(await recordMissingRefunded(database.db, order.id)).toEqual({ ok: true, amountCents: 400_000 });
    const recorded = await getOrder(database.db, order.id);
    expect(recorded).toMatchObject({ missingRefund: { status: "hecho", byHand: true } });
    const titles = (await orderTimeline(database.db, recorded as NonNullable<typeof recorded>)).map(
      (e) => `${e.title}: ${e.detail}`,
    );
    expect(titles).toContain("Piezas faltantes reembolsadas: $4,000.00, a mano");
    expect(await retryMissingRefunds(database.db, payments, new Date(Date.now() + 3_600_000))).toMatchObject({
      refunded: 0,
    });
    expect(stands.fake.refunds.filter((r) => r.payment_intent === paymentIntent)).toHaveLength(1);

    // Paid in cash at OXXO: no provider is asked; it is the owner's, with why.
    const cash = await partlyShort(database);
    await database.db
      .updateTable("orders")
      .set({ payment_method: "oxxo", missing_refund_status: "pendiente", missing_refunded_at: null })
      .where("id", "=", cash.order.id)
      .execute();
    const before = stands.fake.refunds.length;
    expect(await refundMissingPieces(database.db, payments, cash.order.id)).toBe("a_mano");
    expect(stands.fake.refunds).toHaveLength(before);
    const byHand = await getOrder(database.db, cash.order.id);
    expect(byHand?.missingRefund).toMatchObject({ status: "a_mano", error: expect.stringContaining("OXXO") });
    expect(await recordMissingRefunded(database.db, cash.order.id)).toMatchObject({ ok: true });
  });

  it("a cancellation after the missing pieces went back refunds the rest; the button finds it recorded", async () => {
    const database = await harness.fresh();
    const { order, payments } = await partlyShort(database);
    expect(await cancelPaidOrder(database.db, payments, order.id)).toMatchObject({
      ok: true,
      amountCents: order.totalCents - 400_000,
    });
    expect(await recordMissingRefunded(database.db, order.id)).toEqual({
      ok: false,
      reason: "ya_registrado",
    });
  });

  it("an order with nothing missing has nothing to record", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 1, priceCents: 100_000, name: "Collar Sol" });
    const { order } = await orderPaidByCard(database, stands.fake, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      email: `entero-${newId(6)}@example.mx`,
      webhookSecret: SECRET,
    });
    expect(await recordMissingRefunded(database.db, order.id)).toEqual({
      ok: false,
      reason: "sin_faltantes",
    });
    expect(await recordMissingRefunded(database.db, "OL-NOEXISTE")).toEqual({
      ok: false,
      reason: "no_encontrado",
    });
  });
});
