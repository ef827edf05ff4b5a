import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { loadConfig } from "~/config/env.server";
import { type Database, type Db, migrateToLatest, toTimestamp } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import type { OrderStatus } from "~/db/schema";
import { newId } from "~/lib/ids";
import { deliverPendingEmails } from "~/mail/delivery.server";
import type { Mailer } from "~/mail/mailer.server";
import { MAX_ATTEMPTS } from "~/mail/queue.server";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import {
  archiveOrder,
  correctTracking,
  countPending,
  type DeskResult,
  exportOrdersCsv,
  getDeskOrder,
  listOrders,
  PAGE_SIZE,
  removeFromHistory,
  resendOrderEmail,
  shipOrder,
  unarchiveOrder,
} from "~/orders/desk.server";
import { parseDeskQuery } from "~/orders/desk-query";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import { releaseHold } from "~/orders/holds.server";
import type { Order } from "~/orders/order";
import { confirmPayment } from "~/orders/payment.server";
import type { ShipmentInput } from "~/orders/shipment-input";
import { orderTimeline } from "~/orders/timeline.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { settingsFromEnvironment } from "~/settings/settings";
import { oaxacaAddress } from "../support/catalogue";
import { parseCsv } from "../support/csv";
import { type DatabaseHarness, describeEachDatabase } from "../support/databases";
import { migrationsFrom } from "../support/migration-names";
import { hold } from "../support/orders";

const shopSettings = loadConfig({}).shop;
const MINUTE = 60_000;
const DAY = 86_400_000;
const ESTAFETA: ShipmentInput = { carrier: "Estafeta", trackingNumber: "8052 1234 5678" };
const DHL: ShipmentInput = { carrier: "DHL Express", trackingNumber: "JD014600006281" };

/** A drop open for years, so orders can be placed at any test date through the real checkout. */
async function workshop(database: Database, pieces: { name: string; priceCents: number; stock: number }[]) {
  const dropId = await createDrop(database.db, {
    name: "Taller",
    status: "activa",
    startAt: new Date("2020-01-01T00:00:00Z"),
    endAt: new Date("2035-01-01T00:00:00Z"),
    products: pieces.map((p) => ({
      name: p.name,
      categoria: "Collar" as const,
      material: "Oro amarillo" as const,
      priceCents: p.priceCents,
      stock: p.stock,
      imageId: null,
    })),
  });
  const products = (await getDrop(database.db, dropId))?.products ?? [];
  return {
    dropId,
    stockOf: async (i: number) => (await getDrop(database.db, dropId))?.products[i]?.stock,
    line: (i: number, quantity: number) => ({ productId: products[i]?.id ?? "", dropId, quantity }),
  };
}
type Workshop = Awaited<ReturnType<typeof workshop>>;

/** A paid order (pendiente) placed at `at` and paid a minute later, shipped to Oaxaca. */
async function paidOrder(
  db: Db,
  shop: Workshop,
  customer: string,
  options: { email?: string; lines?: [number, number][]; at?: Date } = {},
): Promise<string> {
  const at = options.at ?? new Date();
  const order = await hold(db, {
    lines: (options.lines ?? [[0, 1]]).map(([i, q]) => shop.line(i, q)),
    provider: "demo",
    now: at,
  });
  const outcome = await confirmPayment(db, {
    orderId: order.id,
    customerName: customer,
    customerEmail: options.email ?? "cliente@example.mx",
    shipping: oaxacaAddress(customer, "951 123 4567"),
    now: new Date(at.getTime() + MINUTE),
  });
  expect(outcome).toBe("paid");
  return order.id;
}

/** An order brought to `status` through the shop's own functions. */
async function orderIn(db: Db, shop: Workshop, status: OrderStatus, customer = "Ana Pérez"): Promise<string> {
  if (status === "esperando_pago" || status === "expirado") {
    const order = await hold(db, { lines: [shop.line(0, 1)], provider: "demo" });
    if (status === "expirado") expect(await releaseHold(db, order.id)).toBe(true);
    return order.id;
  }
  const id = await paidOrder(db, shop, customer);
  if (status === "pendiente") return id;
  if (status === "cancelado") {
    // As the per-person limit leaves it (per-person-limit.db.test.ts): paid, then cancelled.
    await db.updateTable("orders").set({ status: "cancelado" }).where("id", "=", id).execute();
    return id;
  }
  expect(await shipOrder(db, id, ESTAFETA)).toEqual({ ok: true });
  await emailsDelivered(db, id);
  if (status === "enviado") return id;
  expect(await archiveOrder(db, id)).toEqual({ ok: true });
  return id;
}

/** Everything a desk action could touch: the order and its lines, all stock, events and e-mails. */
async function stateOf(db: Db, orderId: string) {
  return {
    order: await db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst(),
    lines: await db.selectFrom("order_lines").selectAll().where("order_id", "=", orderId).execute(),
    stock: await db.selectFrom("products").select(["id", "stock"]).orderBy("id").execute(),
    events: await db.selectFrom("order_events").selectAll().orderBy("id").execute(),
    emails: await db.selectFrom("emails").selectAll().orderBy("id").execute(),
  };
}

/** The customer has received every message about the order (as if the mail queue had sent them). */
async function emailsDelivered(db: Db, orderId: string): Promise<void> {
  await db
    .updateTable("emails")
    .set({ sent_at: new Date().toISOString() })
    .where("order_id", "=", orderId)
    .where("sent_at", "is", null)
    .execute();
}

async function statusOf(db: Db, orderId: string): Promise<OrderStatus | undefined> {
  return (await db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirst())
    ?.status;
}

async function shipmentEmails(db: Db, orderId: string) {
  return db
    .selectFrom("emails")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("kind", "=", "envio")
    .execute();
}

const fresh = async (harness: DatabaseHarness) => {
  const database = await harness.fresh();
  return { database, db: database.db };
};

type Expected = "ok" | "no_encontrado" | OrderStatus;
const DESK_ACTIONS: {
  name: string;
  run: (db: Db, id: string) => Promise<DeskResult | { ok: false; reason: string }>;
  outcomes: Record<OrderStatus, Expected>;
}[] = [
  {
    name: "ship",
    run: (db, id) => shipOrder(db, id, ESTAFETA),
    outcomes: {
      pendiente: "ok",
      enviado: "enviado",
      archivado: "archivado",
      esperando_pago: "no_encontrado",
      expirado: "no_encontrado",
      cancelado: "cancelado",
    },
  },
  {
    name: "correct tracking",
    run: (db, id) => correctTracking(db, id, DHL, { notify: true }),
    outcomes: {
      pendiente: "pendiente",
      enviado: "ok",
      archivado: "archivado",
      esperando_pago: "no_encontrado",
      expirado: "no_encontrado",
      cancelado: "cancelado",
    },
  },
  {
    name: "archive",
    run: (db, id) => archiveOrder(db, id),
    outcomes: {
      pendiente: "pendiente",
      enviado: "ok",
      archivado: "archivado",
      esperando_pago: "no_encontrado",
      expirado: "no_encontrado",
      cancelado: "cancelado",
    },
  },
  {
    name: "unarchive",
    run: (db, id) => unarchiveOrder(db, id),
    outcomes: {
      pendiente: "pendiente",
      enviado: "enviado",
      archivado: "ok",
      esperando_pago: "no_encontrado",
      expirado: "no_encontrado",
      cancelado: "cancelado",
    },
  },
  {
    name: "cancel with its refund",
    run: (db, id) => cancelPaidOrder(db, createDemoPayments(db), id),
    outcomes: {
      pendiente: "ok",
      enviado: "enviado",
      archivado: "archivado",
      esperando_pago: "no_encontrado",
      expirado: "no_encontrado",
      cancelado: "cancelado",
    },
  },
  {
    name: "take off the history",
    run: (db, id) => removeFromHistory(db, id),
    outcomes: {
      pendiente: "pendiente",
      enviado: "ok",
      archivado: "ok",
      esperando_pago: "no_encontrado",
      expirado: "no_encontrado",
      cancelado: "cancelado",
    },
  },
];
const STATUSES: OrderStatus[] = [
  "pendiente",
  "enviado",
  "archivado",
  "esperando_pago",
  "expirado",
  "cancelado",
];

describeEachDatabase("orders desk: moves of an order", (harness) => {
  describe.each(DESK_ACTIONS)("$name", ({ name, run, outcomes }) => {
    it("is applied only from the statuses the spec allows; a refused one changes nothing", async () => {
      const { database, db } = await fresh(harness);
      const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 20 }]);
      for (const status of STATUSES) {
        const id = await orderIn(db, shop, status);
        const before = await stateOf(db, id);
        const result = await run(db, id);
        const expected = outcomes[status];
        if (expected === "ok") {
          expect(result, `${name} from ${status}`).toMatchObject({ ok: true });
          continue;
        }
        expect(result, `${name} from ${status}`).toEqual(
          expected === "no_encontrado"
            ? { ok: false, reason: "no_encontrado", status: null }
            : { ok: false, reason: "conflicto", status: expected },
        );
        expect(await stateOf(db, id), `${name} from ${status} changed something`).toEqual(before);
      }
      // An order number that was never issued.
      expect(await run(db, "OL-ZZZZZZZZ")).toEqual({ ok: false, reason: "no_encontrado", status: null });
    });
  });

  it("shipping records carrier, tracking number and time, and queues exactly one notice to the customer", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 3 }]);
    const id = await paidOrder(db, shop, "Renata Quiroga", { email: "renata@example.mx" });
    const at = new Date("2026-11-24T17:30:00Z");
    expect(await shipOrder(db, id, ESTAFETA, at)).toEqual({ ok: true });

    const order = await getDeskOrder(db, id);
    expect(order).toMatchObject({
      status: "enviado",
      carrier: "Estafeta",
      trackingNumber: "8052 1234 5678",
      trackingUrl: "https://www.estafeta.com/rastrear-envio?guias=8052%201234%205678",
      shippedAt: at,
    });
    const notices = await shipmentEmails(db, id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ recipient: "renata@example.mx", sent_at: null, attempts: 0 });
    // Shipping sells nothing more: the piece was taken at checkout.
    expect(await shop.stockOf(0)).toBe(2);
  });

  it("the shipment notice is queued in the same transaction: if it cannot be queued, nothing ships", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 3 }]);
    const id = await paidOrder(db, shop, "Renata Quiroga");
    const before = await stateOf(db, id);
    // Make the e-mail queue refuse shipment notices, as a full disk or a broken table would.
    if (harness.dialect === "sqlite") {
      await sql`create trigger no_notice before insert on emails when new.kind = 'envio'
        begin select raise(abort, 'cola de correo caída'); end`.execute(db);
    } else {
      await sql`create function no_notice() returns trigger language plpgsql as
        $$ begin raise exception 'cola de correo caída'; end $$`.execute(db);
      await sql`create trigger no_notice before insert on emails for each row
        when (new.kind = 'envio') execute function no_notice()`.execute(db);
    }
    await expect(shipOrder(db, id, ESTAFETA)).rejects.toThrow(/cola de correo caída/);
    expect(await stateOf(db, id)).toEqual(before);
  });

  it("correcting the tracking notifies the customer again only when asked", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 3 }]);
    const id = await paidOrder(db, shop, "Renata Quiroga", {
      email: "renata@example.mx",
      at: new Date(Date.now() - 2 * DAY),
    });
    const shippedAt = new Date(Date.now() - DAY);
    await shipOrder(db, id, ESTAFETA, shippedAt);

    expect(
      await correctTracking(db, id, DHL, { notify: false, now: new Date(Date.now() - DAY / 2) }),
    ).toEqual({ ok: true, queued: false });
    expect(await getDeskOrder(db, id)).toMatchObject({
      status: "enviado",
      carrier: "DHL Express",
      trackingNumber: "JD014600006281",
      // The parcel left when it left: a corrected number does not move the shipping date.
      shippedAt,
    });
    expect(await shipmentEmails(db, id)).toHaveLength(1);
    // While the first notice has not gone out, a correction does not queue a second one: the
    // waiting notice is written when it is sent, with the tracking then current.
    expect(await correctTracking(db, id, DHL, { notify: true, now: new Date(Date.now() - DAY / 3) })).toEqual(
      { ok: true, queued: false },
    );
    expect(await shipmentEmails(db, id)).toHaveLength(1);
    await emailsDelivered(db, id);

    const fixed: ShipmentInput = { carrier: "FedEx", trackingNumber: "7777 8888" };
    expect(
      await correctTracking(db, id, fixed, { notify: true, now: new Date(Date.now() - DAY / 4) }),
    ).toEqual({ ok: true, queued: true });
    const notices = await shipmentEmails(db, id);
    expect(notices).toHaveLength(2);
    expect(notices.map((n) => n.recipient)).toEqual(["renata@example.mx", "renata@example.mx"]);
    expect((await getDeskOrder(db, id))?.trackingUrl).toBe(
      "https://www.fedex.com/fedextrack/?trknbr=7777%208888",
    );
    const events = await db
      .selectFrom("order_events")
      .select(["kind", "detail"])
      .where("order_id", "=", id)
      .orderBy("created_at")
      .execute();
    expect(events).toEqual([
      { kind: "enviado", detail: "Estafeta · guía 8052 1234 5678" },
      { kind: "guia_corregida", detail: "DHL Express · guía JD014600006281" },
      { kind: "guia_corregida", detail: "DHL Express · guía JD014600006281" },
      { kind: "guia_corregida", detail: "FedEx · guía 7777 8888" },
    ]);
  });

  it("two tabs shipping one order at once: exactly one wins, the other is told it is already shipped", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 50 }]);
    for (let round = 0; round < 8; round++) {
      const id = await paidOrder(db, shop, "Renata Quiroga");
      const results = await Promise.all([shipOrder(db, id, ESTAFETA), shipOrder(db, id, DHL)]);
      const winners = results.filter((r) => r.ok);
      expect(winners, `round ${round}`).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "conflicto", status: "enviado" }]);
      const won = results[0]?.ok ? ESTAFETA : DHL;
      expect(await getDeskOrder(db, id)).toMatchObject({ status: "enviado", carrier: won.carrier });
      expect(await shipmentEmails(db, id)).toHaveLength(1);
      const events = await db.selectFrom("order_events").select("kind").where("order_id", "=", id).execute();
      expect(events).toEqual([{ kind: "enviado" }]);
    }
  });

  it("shipping racing a cancellation: one wins, and stock, refund and e-mails match whichever did", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 50 }]);
    const payments = createDemoPayments(db);
    for (let round = 0; round < 8; round++) {
      const id = await paidOrder(db, shop, "Renata Quiroga", { lines: [[0, 2]] });
      const stockBefore = (await shop.stockOf(0)) ?? 0;
      const [shipped, cancelled] = await Promise.all([
        shipOrder(db, id, ESTAFETA),
        cancelPaidOrder(db, payments, id),
      ]);
      expect([shipped.ok, cancelled.ok].filter(Boolean), `round ${round}`).toHaveLength(1);
      const refunds = await db.selectFrom("refunds").select("status").where("order_id", "=", id).execute();
      if (shipped.ok) {
        expect(cancelled).toEqual({ ok: false, reason: "conflicto", status: "enviado" });
        expect(await statusOf(db, id)).toBe("enviado");
        expect(await shop.stockOf(0)).toBe(stockBefore);
        expect(await shipmentEmails(db, id)).toHaveLength(1);
        expect(refunds).toEqual([]);
      } else {
        expect(shipped).toEqual({ ok: false, reason: "conflicto", status: "cancelado" });
        expect(await statusOf(db, id)).toBe("cancelado");
        expect(await shop.stockOf(0)).toBe(stockBefore + 2);
        expect(await shipmentEmails(db, id)).toEqual([]);
        expect(refunds).toEqual([{ status: "hecho" }]);
      }
    }
  });

  it("two tabs cancelling one paid order at once: one success, one refund, its pieces back once", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 50 }]);
    const payments = createDemoPayments(db);
    for (let round = 0; round < 5; round++) {
      const id = await paidOrder(db, shop, "Renata Quiroga", { lines: [[0, 3]] });
      const stockBefore = (await shop.stockOf(0)) ?? 0;
      const results = await Promise.all([
        cancelPaidOrder(db, payments, id),
        cancelPaidOrder(db, payments, id),
      ]);
      expect(
        results.filter((r) => r.ok),
        `round ${round}`,
      ).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "conflicto", status: "cancelado" }]);
      expect(await shop.stockOf(0)).toBe(stockBefore + 3);
      expect(
        await db.selectFrom("refunds").select("amount_cents").where("order_id", "=", id).execute(),
      ).toEqual([{ amount_cents: 3 * 625_000 }]);
    }
  });
});

describeEachDatabase("orders desk: cancelling, taking off and stock", (harness) => {
  it("a paid order is never destroyed: cancelled, it is refunded, its pieces return and its record stays; taken off the history, its record stays too", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [
      { name: "Collar Caracola", priceCents: 625_000, stock: 10 },
      { name: "Arete Luna", priceCents: 150_000, stock: 10 },
    ]);
    const pending = await paidOrder(db, shop, "Renata Quiroga", {
      lines: [
        [0, 2],
        [1, 3],
      ],
    });
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([8, 7]);
    expect(await cancelPaidOrder(db, createDemoPayments(db), pending)).toEqual({
      ok: true,
      refund: "hecho",
      amountCents: 1_700_000,
    });
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([10, 10]);
    // Kept, with its lines, its refund, its timeline and the buyer's e-mail: in 'Cancelados', not the tabs.
    const cancelled = await getDeskOrder(db, pending);
    expect(cancelled?.status).toBe("cancelado");
    expect(cancelled?.lines).toHaveLength(2);
    expect(cancelled?.cancellation).toMatchObject({
      reason: "Cancelado por la tienda",
      amountCents: 1_700_000,
      refund: "hecho",
    });
    expect((await orderTimeline(db, cancelled as Order)).map((e) => e.title)).toContain(
      "Cancelado por la tienda",
    );
    expect(
      await db
        .selectFrom("emails")
        .select("kind")
        .where("order_id", "=", pending)
        .where("kind", "=", "cancelacion")
        .execute(),
    ).toHaveLength(1);
    expect((await listOrders(db, { tab: "cancelado" })).orders.map((o) => o.id)).toEqual([pending]);
    expect((await listOrders(db, { tab: "pendiente" })).orders).toEqual([]);
    expect(await exportOrdersCsv(db, { tab: "cancelado" })).toContain(pending);

    const shipped = await paidOrder(db, shop, "José Núñez", { lines: [[0, 1]] });
    await shipOrder(db, shipped, ESTAFETA);
    const archived = await paidOrder(db, shop, "Lucía Ramírez", { lines: [[1, 2]] });
    await shipOrder(db, archived, DHL);
    await archiveOrder(db, archived);
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([9, 8]);
    // A shipment notice that has not reached the customer would be lost with the order: refused.
    const before = await stateOf(db, shipped);
    expect(await removeFromHistory(db, shipped)).toEqual({
      ok: false,
      reason: "correo_pendiente",
      status: null,
    });
    expect(await stateOf(db, shipped)).toEqual(before);
    await emailsDelivered(db, shipped);
    await emailsDelivered(db, archived);
    // 'Desarchivar' brings an archived one back to 'Enviado'.
    expect(await unarchiveOrder(db, archived)).toEqual({ ok: true });
    expect(await statusOf(db, archived)).toBe("enviado");
    expect(await removeFromHistory(db, shipped)).toEqual({ ok: true });
    expect(await removeFromHistory(db, archived)).toEqual({ ok: true });
    expect(await removeFromHistory(db, archived)).toEqual({
      ok: false,
      reason: "conflicto",
      status: "enviado",
    });
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([9, 8]);
    // Off the tabs for good, its record kept: 'Borrados del historial' and the CSV, read-only.
    expect((await listOrders(db, { tab: "enviado" })).orders).toEqual([]);
    expect((await listOrders(db, { tab: "borrado" })).orders.map((o) => o.id).sort()).toEqual(
      [shipped, archived].sort(),
    );
    expect(await archiveOrder(db, shipped)).toMatchObject({ ok: false });
    const csv = await exportOrdersCsv(db, { tab: "borrado" });
    expect(csv).toContain(shipped);
    expect(csv).toContain(archived);
    expect((await getDeskOrder(db, shipped))?.removedAt).toBeInstanceOf(Date);
  });

  it("a late-paid order short of stock gives back only the pieces it really took", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [
      { name: "Collar Caracola", priceCents: 625_000, stock: 1 },
      { name: "Arete Luna", priceCents: 150_000, stock: 2 },
    ]);
    const order = await hold(db, {
      lines: [shop.line(0, 1), shop.line(1, 2)],
      provider: "demo",
    });
    await releaseHold(db, order.id);
    await hold(db, { lines: [shop.line(1, 1)], provider: "demo" }); // another shopper takes one earring
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([1, 1]);
    const late = await confirmPayment(db, {
      orderId: order.id,
      customerName: "Renata Quiroga",
      customerEmail: "renata@example.mx",
    });
    expect(late).toBe("paid_after_expiry_short");
    // The necklace was taken again; the earrings could not be.
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([0, 1]);
    expect((await getDeskOrder(db, order.id))?.stockIssue).toContain("Arete Luna × 2");

    expect(await cancelPaidOrder(db, createDemoPayments(db), order.id)).toMatchObject({
      ok: true,
      refund: "hecho",
    });
    expect([await shop.stockOf(0), await shop.stockOf(1)]).toEqual([1, 1]);
  });
});

describeEachDatabase("orders desk: tabs, search and pages", (harness) => {
  it("unpaid orders are in no tab, no search and no export; the badge counts only orders to ship", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 50 }]);
    const waiting = await orderIn(db, shop, "esperando_pago");
    const expired = await orderIn(db, shop, "expirado");
    const pending = [await orderIn(db, shop, "pendiente"), await orderIn(db, shop, "pendiente")];
    const shipped = await orderIn(db, shop, "enviado");
    const archived = await orderIn(db, shop, "archivado");

    const ids = async (tab: "pendiente" | "enviado" | "archivado", search = "") =>
      (await listOrders(db, { tab, search })).orders.map((o) => o.id);
    expect((await ids("pendiente")).sort()).toEqual([...pending].sort());
    expect(await ids("enviado")).toEqual([shipped]);
    expect(await ids("archivado")).toEqual([archived]);
    for (const tab of ["pendiente", "enviado", "archivado"] as const) {
      for (const unpaid of [waiting, expired]) {
        expect(await ids(tab, unpaid), `${tab} search ${unpaid}`).toEqual([]);
        expect(await ids(tab, unpaid.toLowerCase())).toEqual([]);
      }
      const csv = await exportOrdersCsv(db, { tab });
      expect(csv).not.toContain(waiting);
      expect(csv).not.toContain(expired);
    }
    expect(await getDeskOrder(db, waiting)).toBeNull();
    expect(await getDeskOrder(db, expired)).toBeNull();
    expect(await getDeskOrder(db, pending[0] ?? "")).not.toBeNull();
    expect(await countPending(db)).toBe(2);

    await shipOrder(db, pending[0] ?? "", ESTAFETA);
    expect(await countPending(db)).toBe(1);
  });

  it("search finds by name or order number, ignoring case and accents", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 50 }]);
    const renata = await paidOrder(db, shop, "Renata Quiroga", { email: "Renata.Q@Correo.mx" });
    const jose = await paidOrder(db, shop, "José Núñez Olmos");
    const lucia = await paidOrder(db, shop, "Lucía Ramírez Olmos");
    const found = async (search: string) =>
      (await listOrders(db, { tab: "pendiente", search })).orders.map((o) => o.id).sort();

    expect(await found("renata")).toEqual([renata]);
    expect(await found("QUIROGA")).toEqual([renata]);
    expect(await found("  renata   quiroga ")).toEqual([renata]);
    expect(await found("jose")).toEqual([jose]);
    expect(await found("NUÑEZ")).toEqual([jose]);
    expect(await found("josé núñez")).toEqual([jose]);
    expect(await found("lucia")).toEqual([lucia]);
    expect(await found("Ramirez")).toEqual([lucia]);
    // A fragment shared by two names; with an "l" and an "o" no order number can hold it.
    expect(await found("lmo")).toEqual([jose, lucia].sort());
    expect(await found("")).toEqual([renata, jose, lucia].sort());
    expect(await found("Marisol")).toEqual([]);

    // Part of the order number, as read out on the phone in either case.
    const middle = jose.slice(3, 9);
    expect(await found(middle.toLowerCase())).toEqual([jose]);
    expect(await found(middle.toUpperCase())).toEqual([jose]);
    expect(await found(jose.toLowerCase())).toEqual([jose]);

    // By the buyer's e-mail, whole or in part, in any case.
    expect(await found("renata.q@correo.mx")).toEqual([renata]);
    expect(await found("CORREO.MX")).toEqual([renata]);

    // Another tab does not show a pending order, whatever the search.
    expect((await listOrders(db, { tab: "enviado", search: "renata" })).orders).toEqual([]);
  });

  it("migration 0022 makes the orders paid before it findable by e-mail", async () => {
    const database = await harness.fresh({ migrate: true });
    // Sold with today's checkout (which reads columns of later migrations), then taken back to 0021.
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 5 }]);
    const before = await paidOrder(database.db, shop, "Inés Ortega", { email: "ines.ortega@correo.mx" });
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0021_sizes")).error).toBeUndefined();
    // As the payment wrote it then: the number and the name only.
    await database.db
      .updateTable("orders")
      .set({ search_text: `${before.toLowerCase()} ines ortega` })
      .where("id", "=", before)
      .execute();
    const found = async (search: string) =>
      (await listOrders(database.db, { tab: "pendiente", search })).orders.map((o) => o.id);
    // The search text as it stood (the desk of today needs the later migrations too).
    expect(
      await database.db
        .selectFrom("orders")
        .select("id")
        .where("search_text", "like", "%ines.ortega@%")
        .execute(),
    ).toEqual([]);
    expect(await migrateToLatest(database)).toEqual(migrationsFrom("0022_search_by_email"));
    expect(await found("ines.ortega@")).toEqual([before]);
    expect(await found("ortega")).toEqual([before]);
  });

  it("'%' and '_' in a search are plain characters, not wildcards", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 50 }]);
    await paidOrder(db, shop, "Renata Quiroga");
    await paidOrder(db, shop, "José Núñez");
    const found = async (search: string) =>
      (await listOrders(db, { tab: "pendiente", search })).orders.map((o) => o.customerName);
    expect(await found("%")).toEqual([]);
    expect(await found("_")).toEqual([]);
    expect(await found("r_nata")).toEqual([]);
    expect(await found("ren%ga")).toEqual([]);
    expect(await found("\\")).toEqual([]);

    await paidOrder(db, shop, "Joyería 100% Oro");
    await paidOrder(db, shop, "ana_maria");
    expect(await found("%")).toEqual(["Joyería 100% Oro"]);
    expect(await found("100%")).toEqual(["Joyería 100% Oro"]);
    expect(await found("_")).toEqual(["ana_maria"]);
  });

  it("lists newest first, a page at a time, with how many there are", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 100 }]);
    const count = 2 * PAGE_SIZE + 3;
    const start = new Date("2026-10-01T18:00:00Z").getTime();
    // Placed in a shuffled order, so newest-first cannot come from insertion order.
    const slots = Array.from({ length: count }, (_, i) => (i * 17) % count);
    const byTime = new Map<number, string>();
    for (const slot of slots) {
      byTime.set(
        slot,
        await paidOrder(db, shop, `Cliente ${slot}`, { at: new Date(start + slot * 3_600_000) }),
      );
    }
    const newestFirst = [...byTime.keys()].sort((a, b) => b - a).map((slot) => byTime.get(slot));

    const pages = [];
    for (const page of [1, 2, 3]) {
      const result = await listOrders(db, { tab: "pendiente", page });
      expect(result).toMatchObject({ total: count, pages: 3, page });
      pages.push(...result.orders.map((o) => o.id));
      if (page < 3) expect(result.orders).toHaveLength(PAGE_SIZE);
      else expect(result.orders).toHaveLength(3);
    }
    expect(pages).toEqual(newestFirst);
    const first = await listOrders(db, { tab: "pendiente" });
    expect(first.orders[0]).toMatchObject({ customerName: `Cliente ${count - 1}`, lines: [{ quantity: 1 }] });

    // A page past the end shows the last one; page 0 shows the first.
    expect(await listOrders(db, { tab: "pendiente", page: 9 })).toMatchObject({ page: 3, pages: 3 });
    expect(await listOrders(db, { tab: "pendiente", page: 0 })).toMatchObject({ page: 1 });
    // An empty tab is one empty page.
    expect(await listOrders(db, { tab: "archivado" })).toEqual({ orders: [], total: 0, page: 1, pages: 1 });
    // Search and paging together: the total counts what matches.
    expect(await listOrders(db, { tab: "pendiente", search: "Cliente 4" })).toMatchObject({
      total: 4, // 'Cliente 4' and 'Cliente 40' to 'Cliente 42'
      pages: 1,
    });
    // The export takes every page, not only the one on screen.
    const csv = await exportOrdersCsv(db, { tab: "pendiente" });
    expect(
      parseCsv(csv.slice(1))
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(newestFirst);
  });

  it("a date range takes Mexico City days: 'desde' from its midnight, 'hasta' through its last minute", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 50 }]);
    const at = (iso: string) => paidOrder(db, shop, `Cliente ${iso}`, { at: new Date(iso) });
    const lateOn22nd = await at("2026-11-23T05:59:00Z"); // 22 Nov 23:59 in Mexico City
    const midnight23rd = await at("2026-11-23T06:00:00Z"); // 23 Nov 00:00
    const lateOn24th = await at("2026-11-25T05:59:00Z"); // 24 Nov 23:59
    const on25th = await at("2026-11-25T06:00:00Z"); // 25 Nov 00:00

    const ids = async (query: string) =>
      (await listOrders(db, parseDeskQuery(new URLSearchParams(query)).query)).orders.map((o) => o.id);
    expect(await ids("desde=2026-11-23&hasta=2026-11-24")).toEqual([lateOn24th, midnight23rd]);
    expect(await ids("desde=2026-11-23")).toEqual([on25th, lateOn24th, midnight23rd]);
    expect(await ids("hasta=2026-11-22")).toEqual([lateOn22nd]);
    expect(await ids("desde=2026-11-24&hasta=2026-11-24")).toEqual([lateOn24th]);
    expect(await ids("desde=2026-11-26")).toEqual([]);
    // A date that is not a real one is ignored, not applied as something else.
    expect((await ids("desde=2026-02-30")).length).toBe(4);

    // Straight to the query: 'from' is inclusive, 'until' exclusive, to the instant.
    const exact = await listOrders(db, {
      tab: "pendiente",
      from: new Date("2026-11-23T06:00:00Z"),
      until: new Date("2026-11-25T06:00:00Z"),
    });
    expect(exact.orders.map((o) => o.id)).toEqual([lateOn24th, midnight23rd]);
    expect(exact.total).toBe(2);
  });
});

describeEachDatabase("orders desk: timeline and e-mails", (harness) => {
  const working = (log: string[]): Mailer => ({
    kind: "smtp",
    async send(m) {
      log.push(m.subject);
    },
  });
  const broken: Mailer = {
    kind: "smtp",
    async send() {
      throw new Error("SMTP 421 servicio no disponible");
    },
  };
  const templates = (db: Db) => orderEmailTemplates(db, () => settingsFromEnvironment(shopSettings));

  it("the timeline tells the order's life in time order", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 5 }]);
    const placed = new Date(Date.now() - 3 * DAY);
    const id = await paidOrder(db, shop, "Renata Quiroga", { email: "renata@example.mx", at: placed });
    // Done out of time order on purpose: the timeline sorts by when things happened.
    await shipOrder(db, id, ESTAFETA, new Date(placed.getTime() + DAY));
    await archiveOrder(db, id, new Date(placed.getTime() + 2 * DAY));

    const order = await getDeskOrder(db, id);
    if (!order) throw new Error("paid order not found");
    const timeline = await orderTimeline(db, order);
    expect(timeline.map((e) => e.title)).toEqual([
      "Pedido creado",
      "Pago confirmado",
      "Confirmación de pedido",
      "Enviado",
      "Aviso de envío",
      "Archivado",
    ]);
    const times = timeline.map((e) => e.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(timeline[0]).toMatchObject({ at: placed, detail: "$6,250.00" });
    expect(timeline[1]).toMatchObject({
      at: new Date(placed.getTime() + MINUTE),
      detail: "renata@example.mx",
    });
    expect(timeline[3]).toMatchObject({ detail: "Estafeta · guía 8052 1234 5678" });
    expect(timeline[4]).toMatchObject({
      detail: "En cola para renata@example.mx",
      email: { state: "en_cola" },
    });
  });

  it("'Reenviar' a failed e-mail starts its retries over; it then goes out", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 5 }]);
    const id = await paidOrder(db, shop, "Renata Quiroga", { email: "renata@example.mx" });
    expect(await deliverPendingEmails(db, broken, templates(db))).toEqual({ sent: 0, failed: 1 });
    // Three days of retries used up.
    await db.updateTable("emails").set({ attempts: MAX_ATTEMPTS }).where("order_id", "=", id).execute();
    const order = await getDeskOrder(db, id);
    if (!order) throw new Error("paid order not found");
    const failed = (await orderTimeline(db, order)).find((e) => e.email);
    expect(failed).toMatchObject({
      title: "Confirmación de pedido",
      detail: "Falló: SMTP 421 servicio no disponible",
      email: { state: "fallo" },
    });
    const emailId = failed?.email?.id ?? "";

    expect(await resendOrderEmail(db, id, emailId)).toEqual({ ok: true, queued: true });
    const row = await db.selectFrom("emails").selectAll().where("id", "=", emailId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 0, last_error: null, next_attempt_at: null, sent_at: null });
    expect(await db.selectFrom("emails").select("id").where("order_id", "=", id).execute()).toHaveLength(1);

    const sent: string[] = [];
    expect(await deliverPendingEmails(db, working(sent), templates(db))).toEqual({ sent: 1, failed: 0 });
    expect(sent).toEqual([`Tu pedido ${id} está confirmado`]);
    const timeline = await orderTimeline(db, order);
    expect(timeline.filter((e) => e.title === "Correo reenviado")).toMatchObject([
      { detail: "Confirmación de pedido" },
    ]);
    expect(timeline.find((e) => e.email)?.email?.state).toBe("enviado");
  });

  it("'Reenviar' a message still waiting for its first try queues nothing more", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 5 }]);
    const id = await paidOrder(db, shop, "Renata Quiroga");
    const [waiting] = await db.selectFrom("emails").selectAll().where("order_id", "=", id).execute();
    expect(await resendOrderEmail(db, id, waiting?.id ?? "")).toEqual({ ok: true, queued: false });
    expect(await db.selectFrom("emails").selectAll().where("order_id", "=", id).execute()).toEqual([waiting]);
    expect(await db.selectFrom("order_events").select("id").where("order_id", "=", id).execute()).toEqual([]);
  });

  it("'Reenviar' a sent e-mail sends a copy and keeps the original as sent", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 5 }]);
    const id = await paidOrder(db, shop, "Renata Quiroga", { email: "renata@example.mx" });
    await shipOrder(db, id, ESTAFETA);
    const sent: string[] = [];
    expect(await deliverPendingEmails(db, working(sent), templates(db))).toEqual({ sent: 2, failed: 0 });
    const [notice] = await shipmentEmails(db, id);
    if (!notice) throw new Error("no shipment notice");

    expect(await resendOrderEmail(db, id, notice.id)).toEqual({ ok: true, queued: true });
    const notices = await shipmentEmails(db, id);
    expect(notices).toHaveLength(2);
    expect(notices.find((n) => n.id === notice.id)?.sent_at).not.toBeNull();
    expect(notices.find((n) => n.id !== notice.id)).toMatchObject({
      recipient: "renata@example.mx",
      sent_at: null,
      attempts: 0,
    });
    expect(await deliverPendingEmails(db, working(sent), templates(db))).toEqual({ sent: 1, failed: 0 });
    expect(sent.filter((s) => s === `Tu pedido ${id} va en camino`)).toHaveLength(2);
  });

  it("a confirmation not yet sent when the order is cancelled never says 'está confirmado', nor does 'Reenviar' after", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 5 }]);
    const id = await paidOrder(db, shop, "Renata Quiroga", { email: "renata@example.mx" });
    // The mail server was down; the owner cancels meanwhile.
    expect(await deliverPendingEmails(db, broken, templates(db))).toEqual({ sent: 0, failed: 1 });
    expect(await cancelPaidOrder(db, createDemoPayments(db), id)).toMatchObject({ ok: true });
    const later = new Date(Date.now() + 7 * 60 * MINUTE);
    const sent: string[] = [];
    await deliverPendingEmails(db, working(sent), templates(db), later);
    expect(sent).toEqual([`Cancelamos tu pedido ${id} y te devolvimos tu dinero`]);
    const confirmation = await db
      .selectFrom("emails")
      .selectAll()
      .where("order_id", "=", id)
      .where("kind", "=", "confirmacion")
      .executeTakeFirstOrThrow();
    expect(confirmation.last_error).toBe("no se envió: ya no hacía falta");
    expect(await resendOrderEmail(db, id, confirmation.id)).toMatchObject({ ok: true });
    await deliverPendingEmails(db, working(sent), templates(db), later);
    expect(sent).toEqual([`Cancelamos tu pedido ${id} y te devolvimos tu dinero`]);
  });

  it("'Reenviar' only works on an e-mail of that same order", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 625_000, stock: 5 }]);
    const mine = await paidOrder(db, shop, "Renata Quiroga");
    const other = await paidOrder(db, shop, "José Núñez");
    const othersEmail = await db
      .selectFrom("emails")
      .select("id")
      .where("order_id", "=", other)
      .executeTakeFirstOrThrow();
    const before = await stateOf(db, mine);
    expect(await resendOrderEmail(db, mine, othersEmail.id)).toEqual({
      ok: false,
      reason: "no_encontrado",
      status: null,
    });
    expect(await resendOrderEmail(db, mine, "no-such-email")).toMatchObject({ reason: "no_encontrado" });
    expect(await stateOf(db, mine)).toEqual(before);
  });
});

describeEachDatabase("orders desk: CSV export", (harness) => {
  it("a spreadsheet gets one row per order with the address in columns, pieces, total and tracking", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [
      { name: "Collar Caracola", priceCents: 500_000, stock: 10 },
      { name: "Arete Luna", priceCents: 250_000, stock: 10 },
    ]);
    const id = await paidOrder(db, shop, "Renata Quiroga", {
      email: "renata@example.mx",
      lines: [
        [0, 2],
        [1, 1],
      ],
      at: new Date("2026-11-23T20:05:00Z"),
    });
    await shipOrder(db, id, ESTAFETA);

    const csv = await exportOrdersCsv(db, { tab: "enviado" });
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(csv.slice(1));
    expect(rows[0]).toEqual([
      "Pedido",
      "Fecha",
      "Estatus",
      "Cliente",
      "Correo",
      "Teléfono",
      "Calle y número",
      "Colonia",
      "Ciudad",
      "Estado",
      "Código postal",
      "País",
      "Piezas",
      "Piezas (MXN)",
      "Envío",
      "Envío (MXN)",
      "Total (MXN)",
      "Paquetería",
      "Guía",
      "Problema de stock",
      "Reembolso (MXN)",
      "Piezas faltantes reembolsadas (MXN)",
      "Devoluciones reembolsadas (MXN)",
      "Borrado del historial",
    ]);
    expect(rows.slice(1)).toEqual([
      [
        id,
        "2026-11-23 14:05",
        "Enviado",
        "Renata Quiroga",
        "renata@example.mx",
        "951 123 4567",
        "Calle Macedonio Alcalá 401",
        "Centro",
        "Oaxaca de Juárez",
        "Oaxaca",
        "68000",
        "MX",
        "Collar Caracola x 2; Arete Luna x 1",
        "12500.00",
        "",
        "0.00",
        "12500.00",
        "Estafeta",
        "8052 1234 5678",
        "",
        "",
        "",
        "",
        "",
      ],
    ]);
  });

  it("a sheet cut at its limit says so in its last row, not as if it were whole", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 500_000, stock: 10 }]);
    for (const name of ["Renata Quiroga", "José Núñez", "Lucía Ramírez"]) await paidOrder(db, shop, name);
    const cut = parseCsv((await exportOrdersCsv(db, { tab: "pendiente" }, 2)).slice(1));
    expect(cut).toHaveLength(4);
    expect(cut.at(-1)).toEqual([
      "Solo los 2 pedidos más recientes de esta vista: elige fechas (Desde y Hasta) para exportar los anteriores.",
    ]);
    const whole = parseCsv((await exportOrdersCsv(db, { tab: "pendiente" }, 3)).slice(1));
    expect(whole).toHaveLength(4);
    expect(whole.at(-1)?.[0]).toMatch(/^OL-/);
  });

  it("a column sums what each order's returns gave back, counting only refunds recorded as made", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 500_000, stock: 10 }]);
    const twice = await paidOrder(db, shop, "Renata Quiroga", { lines: [[0, 3]] });
    const waiting = await paidOrder(db, shop, "José Núñez", { lines: [[0, 1]] });
    const none = await paidOrder(db, shop, "Lucía Ramírez", { lines: [[0, 1]] });
    const now = new Date();
    const aReturn = (orderId: string, cents: number, refund: "hecho" | "pendiente" | null) => ({
      id: newId(),
      order_id: orderId,
      status: refund === "hecho" ? ("reembolsada" as const) : ("aceptada" as const),
      reason: "talla",
      requested_at: toTimestamp(now),
      refund_cents: cents,
      currency: "mxn",
      refund_status: refund,
      updated_at: toTimestamp(now),
    });
    await db
      .insertInto("returns")
      .values([aReturn(twice, 500_000, "hecho"), aReturn(waiting, 500_000, "pendiente")])
      .execute();
    await db
      .insertInto("returns")
      .values(aReturn(twice, 250_000, "hecho"))
      .execute();

    const rows = parseCsv((await exportOrdersCsv(db, { tab: "pendiente" })).slice(1));
    const column = rows[0]?.indexOf("Devoluciones reembolsadas (MXN)") ?? -1;
    const refundedOf = (id: string) => rows.find((r) => r[0] === id)?.[column];
    expect(refundedOf(twice)).toBe("7500.00");
    expect(refundedOf(waiting)).toBe("");
    expect(refundedOf(none)).toBe("");
  });

  it("follows the tab, the search and the dates on screen, and defuses formulas in names", async () => {
    const { database, db } = await fresh(harness);
    const shop = await workshop(database, [{ name: "Collar Caracola", priceCents: 100_000, stock: 20 }]);
    const renata = await paidOrder(db, shop, "Renata Quiroga", { at: new Date("2026-11-10T18:00:00Z") });
    const jose = await paidOrder(db, shop, "José Núñez", { at: new Date("2026-11-20T18:00:00Z") });
    const trap = await paidOrder(db, shop, '=HYPERLINK("http://malo.example","Ver")', {
      at: new Date("2026-11-21T18:00:00Z"),
    });
    const shipped = await paidOrder(db, shop, "Renata Ortiz", { at: new Date("2026-11-21T19:00:00Z") });
    await shipOrder(db, shipped, DHL);

    const idsIn = async (query: Parameters<typeof exportOrdersCsv>[1]) =>
      parseCsv((await exportOrdersCsv(db, query)).slice(1))
        .slice(1)
        .map((r) => r[0]);
    expect(await idsIn({ tab: "pendiente" })).toEqual([trap, jose, renata]);
    expect(await idsIn({ tab: "pendiente", search: "renata" })).toEqual([renata]);
    expect(await idsIn({ tab: "enviado", search: "renata" })).toEqual([shipped]);
    expect(await idsIn({ tab: "pendiente", search: "jose" })).toEqual([jose]);
    const { from, until } = parseDeskQuery(new URLSearchParams("desde=2026-11-15&hasta=2026-11-20")).query;
    expect(await idsIn({ tab: "pendiente", from, until })).toEqual([jose]);
    expect(await idsIn({ tab: "archivado" })).toEqual([]);

    const trapRow = parseCsv(
      (await exportOrdersCsv(db, { tab: "pendiente", search: "hyperlink" })).slice(1),
    )[1];
    expect(trapRow?.[3]).toBe('\'=HYPERLINK("http://malo.example","Ver")');
  });
});
