import { beforeAll, expect, it } from "vitest";
import type { Database } from "~/db/database.server";
import { toDate, toTimestamp } from "~/db/database.server";
import { invoiceRequestSchema } from "~/invoices/invoice-form";
import type { InvoicingProvider } from "~/invoices/invoicing-port";
import { createLocalInvoicing } from "~/invoices/local-invoicing.server";
import {
  globalInvoiceSales,
  invoiceNote,
  invoiceRequestsOf,
  invoiceStandingOf,
  requestInvoice,
  storedRequest,
} from "~/invoices/requests.server";
import { globalInvoiceCsv, invoiceRequestsCsv } from "~/invoices/sales";
import { shopDateTimeStamp } from "~/lib/dates";
import { newId } from "~/lib/ids";
import { setPaymentSession } from "~/orders/holds.server";
import { confirmPayment } from "~/orders/payment.server";
import { catchUpWithProvider } from "~/orders/payment-return.server";
import { orderPaidByCard, stripePaymentsAt } from "../support/card-payment";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { payByCard, startFakeStripe } from "../support/fake-stripe";
import { hold } from "../support/orders";

/*
 * 'Requiero factura' (issue 27, decision 45) on SQLite and PostgreSQL: a paid order's request is
 * recorded (one per order: a second one within the month corrects it), only within the calendar
 * month of the payment (Mexico City time), only for a sale (not unpaid, not cancelled); the
 * accountant's exports hold the month's requests, and the global invoice's the month's other sales.
 */

const local = createLocalInvoicing();

const input = (overrides: Record<string, string> = {}) =>
  invoiceRequestSchema.parse({
    rfc: "CACX7605101P8",
    nombre: "Xochilt Casas Chávez",
    codigoPostal: "36257",
    regimen: "612",
    uso: "G03",
    correo: "xochilt@example.mx",
    ...overrides,
  });

describeEachDatabase("'Requiero factura'", (harness) => {
  let database: Database;
  beforeAll(async () => {
    database = await harness.fresh();
  });

  /** A paid order of one piece at `priceCents`, paid at `paidAt` (now by default); its number. */
  async function paidOrder(paidAt?: Date, priceCents = 116_000): Promise<string> {
    const piece = await runningPiece(database, { stock: 1, priceCents });
    const held = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    await confirmPayment(database.db, {
      orderId: held.id,
      customerName: "Xochilt Casas",
      customerEmail: "xochilt@example.mx",
    });
    if (paidAt) {
      await database.db
        .updateTable("orders")
        .set({ paid_at: toTimestamp(paidAt) })
        .where("id", "=", held.id)
        .execute();
    }
    return held.id;
  }

  it("records a paid order's request; a second one within the month corrects the same request", async () => {
    const orderId = await paidOrder();
    const before = await invoiceStandingOf(database.db, orderId);
    expect(before?.standing).toMatchObject({ kind: "abierta", request: null });
    expect(before && invoiceNote(before.standing)?.link).toBe("Requiero factura");

    const first = await requestInvoice(database.db, local, orderId, input());
    expect(first).toMatchObject({ ok: true, updated: false });
    const stored = await storedRequest(database.db, orderId);
    expect(stored).toMatchObject({
      orderId,
      rfc: "CACX7605101P8",
      name: "XOCHILT CASAS CHÁVEZ",
      postalCode: "36257",
      regimen: "612",
      uso: "G03",
      email: "xochilt@example.mx",
      status: "recibida",
      reference: null,
    });
    expect(stored?.notes).toContain("Por timbrar");

    const correction = input({
      rfc: "EKU9003173C9",
      nombre: "Escuela Kemper Urgate, S.A. de C.V.",
      regimen: "601",
      codigoPostal: "42501",
      // The factura to her accountant: the acknowledgement still goes to the order's own address.
      correo: "contabilidad@kemper.mx",
    });
    // Each submission asks the provider and sends an e-mail: not again within the minute.
    const soon = await requestInvoice(database.db, local, orderId, correction, new Date(Date.now() + 1000));
    expect(soon).toMatchObject({
      ok: false,
      reason: "muy_pronto",
      message: expect.stringContaining("Espera un minuto"),
    });
    expect((await storedRequest(database.db, orderId))?.rfc).toBe("CACX7605101P8");
    const later = new Date(Date.now() + 61_000);
    const second = await requestInvoice(database.db, local, orderId, correction, later);
    expect(second).toMatchObject({ ok: true, updated: true });
    const rows = await database.db
      .selectFrom("invoice_requests")
      .selectAll()
      .where("order_id", "=", orderId)
      .execute();
    expect(rows).toHaveLength(1);
    const corrected = await storedRequest(database.db, orderId);
    expect(corrected).toMatchObject({ rfc: "EKU9003173C9", name: "ESCUELA KEMPER URGATE", regimen: "601" });
    // The request keeps the day it was first made.
    expect(corrected?.requestedAt.getTime()).toBe(stored?.requestedAt.getTime());
    const after = await invoiceStandingOf(database.db, orderId);
    expect(after && invoiceNote(after.standing)?.text).toContain("RFC EKU9003173C9");
    // Each submission is acknowledged to the order's own address (the factura's may be anyone's).
    const mails = await database.db
      .selectFrom("emails")
      .select(["kind", "recipient", "payload"])
      .where("order_id", "=", orderId)
      .where("kind", "=", "factura_solicitada")
      .orderBy("created_at")
      .execute();
    expect(mails.map((m) => [m.recipient, JSON.parse(m.payload).corrected])).toEqual([
      ["xochilt@example.mx", false],
      ["xochilt@example.mx", true],
    ]);
  });

  it("two submissions at once (two taps, two tabs): one is taken, the other is told to wait; one e-mail", async () => {
    const orderId = await paidOrder();
    const now = new Date();
    const answers = await Promise.all([
      requestInvoice(database.db, local, orderId, input(), now),
      requestInvoice(database.db, local, orderId, input({ nombre: "Otra Persona" }), now),
    ]);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok)).toEqual([expect.objectContaining({ reason: "muy_pronto" })]);
    const mails = await database.db
      .selectFrom("emails")
      .select("id")
      .where("order_id", "=", orderId)
      .where("kind", "=", "factura_solicitada")
      .execute();
    expect(mails).toHaveLength(1);
  });

  it("takes a request only within the calendar month of the payment, Mexico City time", async () => {
    // Paid 31 Oct 2026 at 23:30 in Mexico City (already 1 Nov in UTC): October's sale.
    const paidAt = new Date("2026-11-01T05:30:00Z");
    const inTime = await paidOrder(paidAt);
    const late = await paidOrder(paidAt);
    const lastMinute = new Date("2026-11-01T05:59:00Z");
    expect((await requestInvoice(database.db, local, inTime, input(), lastMinute)).ok).toBe(true);
    const november = new Date("2026-11-01T06:00:00Z");
    const refused = await requestInvoice(database.db, local, late, input(), november);
    expect(refused).toMatchObject({ ok: false, reason: "cerrada" });
    if (!refused.ok) {
      expect(refused.message).toContain("octubre de 2026");
      expect(refused.message).toContain("factura global");
    }
    expect(await storedRequest(database.db, late)).toBeNull();
    // Nor may the one in time be corrected after its month.
    expect(await requestInvoice(database.db, local, inTime, input({ uso: "S01" }), november)).toMatchObject({
      ok: false,
      reason: "cerrada",
    });
    expect((await storedRequest(database.db, inTime))?.uso).toBe("G03");
    const standing = await invoiceStandingOf(database.db, late, november);
    expect(standing?.standing.kind).toBe("cerrada");
    // Once closed, one made in time is no longer correctable, and the page does not say it was refused.
    const closedWithRequest = await invoiceStandingOf(database.db, inTime, november);
    expect(closedWithRequest?.standing).toMatchObject({
      kind: "cerrada",
      message: expect.stringContaining("El plazo para corregir los datos de tu factura terminó"),
    });
    expect(standing && invoiceNote(standing.standing)).toEqual({
      text: expect.stringContaining("factura global"),
      link: null,
    });
  });

  it("only for a sale: an unpaid order has no page, a cancelled one is refused", async () => {
    const piece = await runningPiece(database, { stock: 2 });
    const unpaid = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    expect(await invoiceStandingOf(database.db, unpaid.id)).toBeNull();
    expect(await requestInvoice(database.db, local, unpaid.id, input())).toMatchObject({
      ok: false,
      reason: "no_encontrado",
    });
    const cancelled = await paidOrder();
    await database.db
      .updateTable("orders")
      .set({ status: "cancelado" })
      .where("id", "=", cancelled)
      .execute();
    const refused = await requestInvoice(database.db, local, cancelled, input());
    expect(refused).toMatchObject({ ok: false, reason: "sin_pago" });
    if (!refused.ok) expect(refused.message).toContain("se canceló");
    expect(await storedRequest(database.db, cancelled)).toBeNull();
    expect(
      await database.db
        .selectFrom("invoice_requests")
        .select("order_id")
        .where("order_id", "in", [unpaid.id, cancelled])
        .execute(),
    ).toEqual([]);
  });

  it("a card's forma de pago is its kind as Stripe told it: credit 04, debit 28; both when not told", async () => {
    const fake = await startFakeStripe();
    try {
      const byCard = async (funding: "credit" | "debit") => {
        const piece = await runningPiece(database, { stock: 1, priceCents: 116_000 });
        const { order } = await orderPaidByCard(database, fake, {
          lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
          email: `tarjeta-${funding}-${newId(4)}@example.mx`,
          webhookSecret: "whsec_factura",
          funding,
        });
        return order.id;
      };
      const credit = await byCard("credit");
      const debit = await byCard("debit");
      const demo = await paidOrder();
      const row = async (orderId: string) =>
        (
          await database.db
            .selectFrom("orders")
            .select("card_funding")
            .where("id", "=", orderId)
            .executeTakeFirst()
        )?.card_funding;
      expect([await row(credit), await row(debit), await row(demo)]).toEqual(["credit", "debit", null]);
      expect((await requestInvoice(database.db, local, credit, input())).ok).toBe(true);
      const month = shopDateTimeStamp(new Date()).slice(0, 7);
      const requests = invoiceRequestsCsv(
        (await invoiceRequestsOf(database.db, month)).filter((r) => r.orderId === credit),
      );
      expect(requests).toContain('"04 · Tarjeta de crédito"');
      const sales = (await globalInvoiceSales(database.db, month)).filter((s) =>
        [debit, demo].includes(s.orderId),
      );
      const global = globalInvoiceCsv(sales);
      expect(global).toMatch(new RegExp(`"${debit}","[^"]+","28 · Tarjeta de débito"`));
      expect(global).toMatch(
        new RegExp(`"${demo}","[^"]+","04 · Tarjeta de crédito o 28 · Tarjeta de débito"`),
      );
    } finally {
      await fake.close();
    }
  });

  it("a sale is dated when the buyer paid, as Stripe dates it, not when the shop heard of it: paid 31 Oct 23:59:50, settled 1 Nov 00:00:05 (Mexico City), October's", async () => {
    const paidAt = new Date("2026-11-01T05:59:50Z");
    const settledAt = new Date("2026-11-01T06:00:05Z");
    // A database of its own: the stand-in numbers its sessions from 1 again.
    const own = await harness.fresh();
    const fake = await startFakeStripe();
    try {
      const piece = async () => {
        const p = await runningPiece(own, { stock: 1, priceCents: 116_000 });
        return [{ productId: p.id, dropId: p.dropId, quantity: 1 }];
      };
      const paidAtOf = async (orderId: string) => {
        const row = await own.db
          .selectFrom("orders")
          .select("paid_at")
          .where("id", "=", orderId)
          .executeTakeFirstOrThrow();
        return row.paid_at ? toDate(row.paid_at) : null;
      };
      const webhookSecret = "whsec_fecha_de_pago";
      // The webhook: Stripe's event dated when she paid, applied 15 seconds later.
      const { order: byEvent } = await orderPaidByCard(own, fake, {
        lines: await piece(),
        email: `fecha-${newId(4)}@example.mx`,
        webhookSecret,
        eventCreated: paidAt,
        now: settledAt,
      });
      // The return page asking Stripe half an hour later: the charge's own time.
      const payments = stripePaymentsAt(fake, webhookSecret);
      const held = await hold(own.db, { lines: await piece(), provider: "stripe" });
      const session = await payments.createSession(held, {
        success: "https://t.example/s",
        cancel: "https://t.example/c",
      });
      await setPaymentSession(own.db, held.id, session);
      payByCard(fake, session.id, { amount: held.totalCents, fingerprint: "fp_fecha", paidAt });
      expect(await catchUpWithProvider(own.db, payments, held.id, new Date("2026-11-01T06:30:00Z"))).toBe(
        "pagado",
      );
      for (const id of [byEvent.id, held.id]) expect(await paidAtOf(id)).toEqual(paidAt);
      const october = (await globalInvoiceSales(own.db, "2026-10")).map((s) => s.orderId);
      expect(october).toEqual(expect.arrayContaining([byEvent.id, held.id]));
      const november = (await globalInvoiceSales(own.db, "2026-11")).map((s) => s.orderId);
      expect(november).not.toContain(byEvent.id);
      expect(november).not.toContain(held.id);
      // Her factura window is October's too.
      expect(await requestInvoice(own.db, local, byEvent.id, input(), settledAt)).toMatchObject({
        ok: false,
        reason: "cerrada",
      });

      // An event dated after the shop's clock is never a sale in the future: settled now.
      const { order: ahead } = await orderPaidByCard(own, fake, {
        lines: await piece(),
        email: `futuro-${newId(4)}@example.mx`,
        webhookSecret,
        eventCreated: new Date(settledAt.getTime() + 3_600_000),
        now: settledAt,
      });
      expect(await paidAtOf(ahead.id)).toEqual(settledAt);

      // Settled two days late (an outage): dated when the shop learnt of it, in a month still open,
      // not in October's, whose report and global invoice may already be out.
      const lateAt = new Date("2026-11-03T06:00:00Z");
      const { order: late } = await orderPaidByCard(own, fake, {
        lines: await piece(),
        email: `tarde-${newId(4)}@example.mx`,
        webhookSecret,
        eventCreated: paidAt,
        now: lateAt,
      });
      expect(await paidAtOf(late.id)).toEqual(lateAt);
    } finally {
      await fake.close();
    }
  });

  it("exports the month's requests, and its other paid sales for the global invoice", async () => {
    const march = (day: number) => new Date(`2025-03-${String(day).padStart(2, "0")}T18:00:00Z`);
    const requested = await paidOrder(march(3), 232_000);
    const unasked = await paidOrder(march(10), 116_000);
    const cancelled = await paidOrder(march(12));
    const april = await paidOrder(new Date("2025-04-01T07:00:00Z"));
    // 31 March 23:00 in Mexico City is 1 April in UTC: March's.
    const lastEvening = await paidOrder(new Date("2025-04-01T05:00:00Z"), 58_000);
    await database.db
      .updateTable("orders")
      .set({ status: "cancelado" })
      .where("id", "=", cancelled)
      .execute();
    expect(
      (await requestInvoice(database.db, local, requested, input(), new Date("2025-03-04T12:00:00Z"))).ok,
    ).toBe(true);

    const requests = await invoiceRequestsOf(database.db, "2025-03");
    expect(requests.map((r) => r.orderId)).toEqual([requested]);
    expect(requests[0]).toMatchObject({ rfc: "CACX7605101P8", totalCents: 232_000, regimen: "612" });
    const requestsCsv = invoiceRequestsCsv(requests);
    expect(requestsCsv).toContain(
      `"${requested}","2025-03-03 12:00","2025-03-04 06:00","CACX7605101P8","XOCHILT CASAS CHÁVEZ","36257"`,
    );
    expect(requestsCsv).toContain('"2000.00","320.00","2320.00","Por timbrar"');

    const sales = await globalInvoiceSales(database.db, "2025-03");
    expect(sales.map((s) => s.orderId)).toEqual([unasked, lastEvening]);
    const globalCsv = globalInvoiceCsv(sales);
    expect(globalCsv).toContain(`"${unasked}","2025-03-10 12:00"`);
    expect(globalCsv).not.toContain(requested);
    expect(globalCsv).not.toContain(cancelled);
    expect(globalCsv).not.toContain(april);
    expect(globalCsv).toContain('"Total del mes","","2 ventas","","1500.00","240.00","1740.00",""');
    // A return's refund made is shown beside its sale in both exports (a pending one is not).
    const refund = (order: string, id: string, cents: number, done: boolean) =>
      database.db
        .insertInto("returns")
        .values({
          id,
          order_id: order,
          status: done ? "reembolsada" : "recibida",
          reason: "gusto",
          requested_at: "2025-03-20T18:00:00.000Z",
          refund_cents: cents,
          currency: "mxn",
          refund_status: done ? "hecho" : "pendiente",
          updated_at: "2025-03-20T18:00:00.000Z",
        })
        .execute();
    await refund(unasked, "DV-AAAAAAAA", 58_000, true);
    await refund(lastEvening, "DV-BBBBBBBB", 58_000, false);
    await refund(requested, "DV-CCCCCCCC", 116_000, true);
    const withRefunds = globalInvoiceCsv(await globalInvoiceSales(database.db, "2025-03"));
    expect(withRefunds).toContain('"1160.00","580.00"');
    expect(withRefunds).toContain('"Total del mes","","2 ventas","","1500.00","240.00","1740.00","580.00"');
    expect(invoiceRequestsCsv(await invoiceRequestsOf(database.db, "2025-03"))).toContain(
      '"2320.00","Por timbrar","","1160.00"',
    );
    expect((await globalInvoiceSales(database.db, "2025-04")).map((s) => s.orderId)).toEqual([april]);
    expect(await invoiceRequestsOf(database.db, "2025-04")).toEqual([]);
    // A sale cancelled after its request stays in the list, marked not to be invoiced.
    await database.db
      .updateTable("orders")
      .set({ status: "cancelado" })
      .where("id", "=", requested)
      .execute();
    expect(invoiceRequestsCsv(await invoiceRequestsOf(database.db, "2025-03"))).toContain(
      '"Pedido cancelado y reembolsado: no facturar"',
    );
  });

  it("a provider that gives no answer leaves the request recorded, with why", async () => {
    const orderId = await paidOrder();
    const failing: InvoicingProvider = {
      name: "local",
      submit: async () => {
        throw new Error("tiempo de espera agotado");
      },
    };
    expect((await requestInvoice(database.db, failing, orderId, input())).ok).toBe(true);
    expect(await storedRequest(database.db, orderId)).toMatchObject({
      status: "recibida",
      notes: "El proveedor no respondió: tiempo de espera agotado",
    });
  });
});
