import { type Kysely, Migrator } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import { startCheckout } from "~/orders/checkout.server";
import { exportOrdersCsv } from "~/orders/desk.server";
import { HOLD_MINUTES } from "~/orders/holds.server";
import { applyPaymentEvent } from "~/orders/payment-events.server";
import { getOrder } from "~/orders/queries.server";
import { sweepExpiredHolds } from "~/orders/sweeper.server";
import { createStripeClient, createStripePayments } from "~/payments/stripe-payments.server";
import { loadReport } from "~/reports/reports.server";
import type { ShippingRates } from "~/settings/shipping-rates";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type FakeStripe, payByCard, startFakeStripe } from "../support/fake-stripe";
import { signedSessionEvent } from "../support/stripe-events";

/*
 * Shipping charged as the owner sets it (issue 26, decision 43), through the real Stripe SDK and
 * adapter against the local stand-in for Stripe's API: the rates go to Stripe Checkout as
 * shipping_options; the one the buyer chose comes back with the signed webhook and the order
 * records it apart from its pieces, its total being what the buyer paid; the CSV, the report and
 * the refund of a cancelled order follow.
 */

vi.setConfig({ testTimeout: 60_000 });
const SECRET = "whsec_envios";
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
const RATES: ShippingRates = {
  standard: { label: "Envío estándar", cents: 15_000, minDays: 3, maxDays: 7 },
  express: { label: "Envío express", cents: 35_000, minDays: 1, maxDays: 2 },
  freeFromCents: 300_000,
};
const option = (i: number, field: string) => `shipping_options[${i}][shipping_rate_data]${field}`;

/** The export's rows (every cell quoted, rows ended by CRLF, after a byte-order mark). */
function parseCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  for (const m of csv.replace(/^\uFEFF/, "").matchAll(/"((?:[^"]|"")*)"(,|\r\n)/g)) {
    row.push((m[1] ?? "").replace(/""/g, '"'));
    if (m[2] === "\r\n") {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

describeEachDatabase("shipping at Stripe", (harness) => {
  let database: Database;
  beforeAll(async () => {
    database = await harness.fresh();
  });

  /** A checkout of one piece with the shop's rates; what the shop asked of Stripe for its page. */
  async function checkout(priceCents: number, rates: ShippingRates | null = RATES) {
    const piece = await runningPiece(database, { stock: 3, priceCents });
    const started = fake.requests.length;
    const result = await startCheckout(
      database.db,
      payments(),
      [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      URLS,
      null,
      undefined,
      { shippingRates: rates ?? undefined },
    );
    if (!result.ok || !("orderId" in result)) throw new Error("checkout refused");
    const asked = fake.requests
      .slice(started)
      .find((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
    const sessionId = [...fake.sessions.entries()].find(
      ([, s]) => (s.metadata as { order_id: string }).order_id === result.orderId,
    )?.[0];
    return { orderId: result.orderId, form: asked?.form, sessionId: sessionId ?? "", priceCents, piece };
  }

  /** Stripe's signed checkout.session.completed for a session as it stands, applied by the shop. */
  async function deliver(sessionId: string, change: Record<string, unknown> = {}) {
    const provider = payments();
    const parsed = signedSessionEvent(fake, provider, SECRET, "checkout.session.completed", sessionId, {
      change,
    });
    return { outcome: await applyPaymentEvent(database.db, parsed, new Date(), provider), parsed, provider };
  }

  it("the rates go to Stripe Checkout as shipping_options in MXN, with their days; standard is free from the threshold", async () => {
    const { form } = await checkout(125_000);
    expect(form?.get(option(0, "[type]"))).toBe("fixed_amount");
    expect(form?.get(option(0, "[display_name]"))).toBe("Envío estándar");
    expect(form?.get(option(0, "[fixed_amount][amount]"))).toBe("15000");
    expect(form?.get(option(0, "[fixed_amount][currency]"))).toBe("mxn");
    expect(form?.get(option(0, "[delivery_estimate][minimum][unit]"))).toBe("business_day");
    expect(form?.get(option(0, "[delivery_estimate][minimum][value]"))).toBe("3");
    expect(form?.get(option(0, "[delivery_estimate][maximum][value]"))).toBe("7");
    expect(form?.get(option(0, "[metadata][method]"))).toBe("estandar");
    expect(form?.get(option(1, "[display_name]"))).toBe("Envío express");
    expect(form?.get(option(1, "[fixed_amount][amount]"))).toBe("35000");
    expect(form?.get(option(1, "[delivery_estimate][maximum][value]"))).toBe("2");
    expect(form?.has(option(2, "[display_name]"))).toBe(false);
    // The pieces are the line items; shipping is not one of them.
    expect(form?.get("line_items[0][price_data][unit_amount]")).toBe("125000");
    expect(form?.has("line_items[1][quantity]")).toBe(false);

    // From the owner's total of pieces, standard is free; express still costs.
    const free = (await checkout(300_000)).form;
    expect(free?.get(option(0, "[fixed_amount][amount]"))).toBe("0");
    expect(free?.get(option(1, "[fixed_amount][amount]"))).toBe("35000");
    // No rates given: no shipping options at all.
    expect((await checkout(125_000, null)).form?.has(option(0, "[display_name]"))).toBe(false);
  });

  it("a paid order with express records it apart from the pieces; its total is what the buyer paid", async () => {
    const bought = await checkout(125_000);
    payByCard(fake, bought.sessionId, {
      amount: bought.priceCents,
      fingerprint: "fp_envio",
      shippingOption: 1,
    });
    expect(fake.sessions.get(bought.sessionId)?.amount_total).toBe(160_000);

    const paid = await deliver(bought.sessionId);
    expect(paid.outcome).toBe("paid");
    const order = await getOrder(database.db, bought.orderId);
    expect(order?.status).toBe("pendiente");
    expect(order?.shippingRate).toEqual({
      method: "express",
      label: "Envío express (1 a 2 días hábiles)",
      cents: 35_000,
    });
    expect(order?.piecesCents).toBe(125_000);
    expect(order?.totalCents).toBe(160_000);

    // The same payment told again (another event id, as Stripe may) changes nothing more.
    expect((await deliver(bought.sessionId)).outcome).toBe("paid");
    expect((await getOrder(database.db, bought.orderId))?.totalCents).toBe(160_000);

    // Cancelled by the shop: the buyer gets back all she paid, shipping included.
    const cancelled = await cancelPaidOrder(database.db, paid.provider, bought.orderId);
    expect(cancelled).toMatchObject({ ok: true, amountCents: 160_000 });
    const intent = fake.sessions.get(bought.sessionId)?.payment_intent;
    expect(fake.refunds.filter((r) => r.payment_intent === intent).map((r) => r.amount)).toEqual([160_000]);
  });

  it("a session that charged the pieces alone while naming express is not this order's payment: cancelled, and what it charged refunded", async () => {
    const bought = await checkout(125_000);
    const intent = payByCard(fake, bought.sessionId, {
      amount: bought.priceCents,
      fingerprint: "fp_sin_envio",
      shippingOption: 1,
    });
    Object.assign(fake.sessions.get(bought.sessionId) ?? {}, { amount_total: 125_000 });
    expect((await deliver(bought.sessionId)).outcome).toBe("cancelled");
    expect(await getOrder(database.db, bought.orderId)).toMatchObject({
      status: "cancelado",
      cancellation: expect.objectContaining({ mismatch: true, amountCents: 125_000, refund: "hecho" }),
    });
    expect(fake.refunds.filter((r) => r.payment_intent === intent).map((r) => r.amount)).toEqual([125_000]);
    expect(await bought.piece.stock()).toBe(3);
  });

  it("a payment no event ever told: the sweeper confirms it with the shipping Stripe's session names", async () => {
    const bought = await checkout(125_000);
    payByCard(fake, bought.sessionId, {
      amount: bought.priceCents,
      fingerprint: "fp_barrido",
      shippingOption: 1,
    });
    const swept = await sweepExpiredHolds(
      database.db,
      payments(),
      new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000),
    );
    expect(swept).toMatchObject({ paid: 1 });
    const order = await getOrder(database.db, bought.orderId);
    expect(order?.status).toBe("pendiente");
    expect(order?.shippingRate).toEqual({
      method: "express",
      label: "Envío express (1 a 2 días hábiles)",
      cents: 35_000,
    });
    expect(order?.totalCents).toBe(160_000);
  });

  it("standard shipping is free above the threshold: recorded as free, the total is the pieces", async () => {
    const bought = await checkout(450_000);
    // Stripe's page starts with the first option: standard, free here.
    payByCard(fake, bought.sessionId, { amount: bought.priceCents, fingerprint: "fp_gratis" });
    expect((await deliver(bought.sessionId)).outcome).toBe("paid");
    const order = await getOrder(database.db, bought.orderId);
    expect(order?.shippingRate).toEqual({
      method: "estandar",
      label: "Envío estándar (3 a 7 días hábiles)",
      cents: 0,
    });
    expect(order?.totalCents).toBe(450_000);
  });

  it("the CSV and the report show shipping apart from the pieces", async () => {
    // A shop of its own: these three orders are all it sold.
    const fresh = await harness.fresh();
    database = fresh;
    const standard = await checkout(125_000);
    payByCard(fake, standard.sessionId, { amount: 125_000, fingerprint: "fp_csv1" });
    expect((await deliver(standard.sessionId)).outcome).toBe("paid");
    const express = await checkout(450_000);
    payByCard(fake, express.sessionId, { amount: 450_000, fingerprint: "fp_csv2", shippingOption: 1 });
    expect((await deliver(express.sessionId)).outcome).toBe("paid");
    const free = await checkout(300_000);
    payByCard(fake, free.sessionId, { amount: 300_000, fingerprint: "fp_csv3" });
    expect((await deliver(free.sessionId)).outcome).toBe("paid");

    const rows = parseCsv(await exportOrdersCsv(fresh.db, { tab: "pendiente" }));
    const [header, ...body] = rows;
    const cells = (orderId: string) => {
      const row = body.find((r) => r[0] === orderId) ?? [];
      const cell = (name: string) => row[header?.indexOf(name) ?? -1];
      return [cell("Piezas (MXN)"), cell("Envío"), cell("Envío (MXN)"), cell("Total (MXN)")];
    };
    expect(cells(standard.orderId)).toEqual([
      "1250.00",
      "Envío estándar (3 a 7 días hábiles)",
      "150.00",
      "1400.00",
    ]);
    expect(cells(express.orderId)).toEqual([
      "4500.00",
      "Envío express (1 a 2 días hábiles)",
      "350.00",
      "4850.00",
    ]);
    expect(cells(free.orderId)).toEqual([
      "3000.00",
      "Envío estándar (3 a 7 días hábiles)",
      "0.00",
      "3000.00",
    ]);

    const result = await loadReport(fresh.db, { kind: "all" });
    if (!result.ok) throw new Error("no report");
    // Sales are of pieces; shipping collected is apart (the free one is not counted).
    expect(result.report.figures.netCents).toBe(875_000);
    expect(result.report.shipping).toEqual({ orders: 2, cents: 50_000 });
    const month = result.months[0];
    if (!month) throw new Error("no month");
    const monthly = await loadReport(fresh.db, { kind: "month", month });
    expect(monthly.ok && monthly.report.shipping).toEqual({ orders: 2, cents: 50_000 });
    // A drop's report has no shipping of its own: an order's shipping is not one drop's.
    const drop = await loadReport(fresh.db, { kind: "drop", dropId: standard.piece.dropId });
    expect(drop.ok && drop.report.shipping).toBeNull();
  });
});

describeEachDatabase("migration 0028 on a shop that already has orders", (harness) => {
  it("gives every existing order no shipping, its total unchanged", async () => {
    const database = await harness.fresh({ migrate: true });
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0026_installments")).error).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were at 0026, not today's types
    const old = database.db as unknown as Kysely<any>;
    await old
      .insertInto("orders")
      .values({
        id: "OL-ENVIO001",
        status: "pendiente",
        total_cents: 1_250_000,
        currency: "mxn",
        customer_name: "Ana Pérez",
        customer_email: "ana@example.mx",
        payment_provider: "demo",
        expires_at: "2026-05-01T12:30:00.000Z",
        paid_at: "2026-05-01T12:10:00.000Z",
        created_at: "2026-05-01T12:00:00.000Z",
        updated_at: "2026-05-01T12:10:00.000Z",
      })
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const row = await database.db
      .selectFrom("orders")
      .select(["total_cents", "shipping_cents", "shipping_method", "shipping_label"])
      .where("id", "=", "OL-ENVIO001")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      total_cents: 1_250_000,
      shipping_cents: 0,
      shipping_method: null,
      shipping_label: null,
    });
    const order = await getOrder(database.db, "OL-ENVIO001");
    expect(order?.shippingRate).toBeNull();
    expect(order?.piecesCents).toBe(1_250_000);
    // No negative shipping, on either database.
    await expect(
      database.db.updateTable("orders").set({ shipping_cents: -1 }).where("id", "=", "OL-ENVIO001").execute(),
    ).rejects.toThrow();
  });
});
