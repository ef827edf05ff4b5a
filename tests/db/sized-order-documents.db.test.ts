import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { PackingSlip } from "~/components/admin/packing-slip";
import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { formatMXN } from "~/lib/money";
import { deliverPendingEmails } from "~/mail/delivery.server";
import type { Mailer, MailMessage } from "~/mail/mailer.server";
import { exportOrdersCsv, getDeskOrder, shipOrder } from "~/orders/desk.server";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import { releaseHold } from "~/orders/holds.server";
import { orderPageOf } from "~/orders/order-page.server";
import { packingSlip } from "~/orders/packing-slip.server";
import { confirmPayment } from "~/orders/payment.server";
import { getOrder } from "~/orders/queries.server";
import { settingsFromEnvironment } from "~/settings/settings";
import { oaxacaAddress, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

/*
 * A paid order of a sized ring (issue 24) says its sizes wherever the order is read: the orders
 * desk's CSV, the order the admin opens and the packing slip print (both read `getDeskOrder`), the
 * confirmation e-mail and the shipment notice; and a late payment's stock issue says which size
 * is short. The line keeps the size as chosen ('7'); the documents name it "Anillo Marea talla 7".
 */

const shop = loadConfig({}).shop;

/** A mailer that keeps what it is given. */
function keeper(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    kind: "outbox",
    sent,
    async send(message) {
      sent.push(message);
    },
  };
}

/** A running drop with 'Anillo Marea' in sizes 7 and 8 (two of each): a line of it in a size. */
async function sizedRing(database: Database) {
  const ring = await runningPiece(database, { stock: 0, name: "Anillo Marea", sizes: { "7": 2, "8": 2 } });
  return (value: string, quantity: number) => ({
    productId: ring.id,
    dropId: ring.dropId,
    quantity,
    optionId: ring.sizes.get(value) ?? "",
  });
}

async function paidSizedOrder(database: Database): Promise<string> {
  const line = await sizedRing(database);
  const order = await hold(database.db, { lines: [line("7", 2), line("8", 1)], provider: "demo" });
  const outcome = await confirmPayment(database.db, {
    orderId: order.id,
    customerName: "Ana Pérez",
    customerEmail: "ana@example.mx",
    shipping: oaxacaAddress("Ana Pérez", "951 123 4567"),
  });
  expect(outcome).toBe("paid");
  return order.id;
}

describeEachDatabase("a sized order's documents", (harness) => {
  it("the desk's CSV, the admin's order (and slip), the confirmation and the shipment e-mails name each size", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const id = await paidSizedOrder(database);

    const csv = await exportOrdersCsv(db, { tab: "pendiente" });
    const row = csv.split("\r\n").find((r) => r.startsWith(`"${id}"`));
    expect(row).toContain('"Anillo Marea talla 7 x 2; Anillo Marea talla 8 x 1"');

    const order = await getDeskOrder(db, id);
    expect(order?.lines.map((l) => [l.name, l.quantity])).toEqual([
      ["Anillo Marea talla 7", 2],
      ["Anillo Marea talla 8", 1],
    ]);

    const templates = orderEmailTemplates(db, () => settingsFromEnvironment(shop));
    const mailer = keeper();
    expect(await deliverPendingEmails(db, mailer, templates)).toEqual({ sent: 1, failed: 0 });
    expect(await shipOrder(db, id, { carrier: "Estafeta", trackingNumber: "805212345678MX" })).toEqual({
      ok: true,
    });
    expect(await deliverPendingEmails(db, mailer, templates)).toEqual({ sent: 1, failed: 0 });
    const [confirmation, shipment] = mailer.sent;
    expect(confirmation?.subject).toBe(`Tu pedido ${id} está confirmado`);
    expect(shipment?.subject).toBe(`Tu pedido ${id} va en camino`);
    for (const message of [confirmation, shipment]) {
      expect(message?.text).toContain("Anillo Marea talla 7 × 2");
      expect(message?.text).toContain("Anillo Marea talla 8 × 1");
      expect(message?.html).toContain("Anillo Marea talla 7 × 2");
    }
  });

  it("paid after its hold ran out, with its size gone meanwhile: the stock issue names the size to refund", async () => {
    const database = await harness.fresh();
    const line = await sizedRing(database);
    const late = await hold(database.db, { lines: [line("7", 1), line("8", 2)], provider: "demo" });
    expect(await releaseHold(database.db, late.id)).toBe(true);
    await hold(database.db, { lines: [line("8", 1)], provider: "demo" });
    const outcome = await confirmPayment(database.db, {
      orderId: late.id,
      customerName: "Ana Pérez",
      customerEmail: "ana@example.mx",
    });
    expect(outcome).toBe("paid_after_expiry_short");
    const order = await getDeskOrder(database.db, late.id);
    expect(order?.stockIssue).toBe(
      "Pagado después de vencer el apartado, sin stock para: Anillo Marea talla 8 × 2",
    );

    // The buyer is told what is not coming and that it is refunded (through the provider, asked by
    // the payment's caller): in her confirmation (no longer a plain "está confirmado" listing it as
    // coming) and on 'Mi pedido'.
    const price = (await getOrder(database.db, late.id))?.lines[1]?.unitPriceCents ?? 0;
    const notice = `Tu pago llegó después de que venció tu apartado, y estas piezas ya no estaban disponibles: Anillo Marea talla 8 × 2. No las incluiremos en tu envío; te devolvemos ${formatMXN(2 * price)} MXN al mismo medio con que pagaste.`;
    const mailer = keeper();
    const templates = orderEmailTemplates(database.db, () => settingsFromEnvironment(shop));
    expect(await deliverPendingEmails(database.db, mailer, templates)).toEqual({ sent: 1, failed: 0 });
    expect(mailer.sent[0]?.text).toContain(notice);
    expect(mailer.sent[0]?.html).toContain(notice);
    const settings = settingsFromEnvironment(shop);
    const page = await orderPageOf(database.db, late.id, settings);
    expect(page?.missing).toBe(notice);
    expect(page?.status).toBe("Pagado: lo estamos preparando");
    // Its packing slip packs the size 7 and says not to pack the size 8 that was gone.
    const slip = await packingSlip(database.db, late.id, shop);
    const printed = renderToStaticMarkup(
      createElement(PackingSlip, { slip: slip as NonNullable<typeof slip> }),
    );
    expect(printed).toContain("Sin stock al pagarse: no empacar 2 (se le reembolsa)");
    expect(printed.replace(/<!-- -->/g, "")).toMatch(/talla 8.*?<td class="py-2 text-right">0<\/td>/s);
    // Shipped: its package holds the size 7 only; the size 8 that was gone is not listed in it.
    expect(
      await shipOrder(database.db, late.id, { carrier: "Estafeta", trackingNumber: "805212345678MX" }),
    ).toEqual({
      ok: true,
    });
    expect(await deliverPendingEmails(database.db, mailer, templates)).toEqual({ sent: 1, failed: 0 });
    const shipment = mailer.sent[1]?.text ?? "";
    expect(shipment).toContain("Anillo Marea talla 7 × 1");
    expect(shipment).not.toContain("talla 8 × 2:");
    // Its total is what she paid, named so, with the missing pieces and their refund beside it.
    const paidTotal = (await getOrder(database.db, late.id))?.total ?? "";
    expect(shipment).toContain(`Pagado: ${paidTotal} MXN`);
    expect(shipment).toContain(notice);
  });

  it("paid after its hold ran out with every piece gone: cancelled, its whole payment to refund, no pieces promised", async () => {
    const database = await harness.fresh();
    const line = await sizedRing(database);
    const late = await hold(database.db, { lines: [line("8", 1)], provider: "demo" });
    expect(await releaseHold(database.db, late.id)).toBe(true);
    await hold(database.db, { lines: [line("8", 2)], provider: "demo" });
    expect(
      await confirmPayment(database.db, {
        orderId: late.id,
        customerName: "Ana",
        customerEmail: "ana@example.mx",
        shipping: oaxacaAddress("Ana", "951 123 4567"),
      }),
    ).toBe("cancelled_sold_out");
    // No confirmation listing pieces that will never come: her e-mail waits for the refund.
    const mailer = keeper();
    const templates = orderEmailTemplates(database.db, () => settingsFromEnvironment(shop));
    expect(await deliverPendingEmails(database.db, mailer, templates)).toEqual({ sent: 0, failed: 0 });
    const order = await getOrder(database.db, late.id);
    expect(order).toMatchObject({
      status: "cancelado",
      stockIssue: null,
      cancellation: expect.objectContaining({
        soldOut: true,
        refund: "pendiente",
        amountCents: order?.totalCents,
      }),
    });
    const page = await orderPageOf(database.db, late.id, settingsFromEnvironment(shop));
    expect(page?.missing).toBeNull();
    expect(page?.steps.at(-1)?.label).toBe("Cancelado; estamos haciendo tu reembolso");
  });
});
