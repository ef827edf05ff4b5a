import { expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import type { Database, Db } from "~/db/database.server";
import type { OrderStatus } from "~/db/schema";
import { correctBuyer } from "~/orders/buyer-correction.server";
import type { BuyerInput } from "~/orders/buyer-input";
import { addressKey } from "~/orders/buyer-keys";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import {
  archiveOrder,
  exportOrdersCsv,
  getDeskOrder,
  listOrders,
  removeFromHistory,
  resendOrderEmail,
  shipOrder,
} from "~/orders/desk.server";
import { releaseHold } from "~/orders/holds.server";
import { findBuyerOrder, orderPageOf } from "~/orders/order-page.server";
import { packingSlip } from "~/orders/packing-slip.server";
import { confirmPayment } from "~/orders/payment.server";
import { orderTimeline } from "~/orders/timeline.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { oaxacaAddress, runningPiece } from "../support/catalogue";
import { describeEachDatabase, untilWaitingOnLocks } from "../support/databases";
import { gatedAfter, hold, writeTo } from "../support/orders";
import { paidOrder, TYPED_BUYER, typedShipping } from "../support/paid-order";

const shopDetails = loadConfig({}).shop;
const ESTAFETA = { carrier: "Estafeta", trackingNumber: "8052 1234 5678" };

/** The buyer as she paid: her street number typed wrong (401 for 410), and her e-mail's domain. */
const TYPED = TYPED_BUYER;
/** What she wrote on WhatsApp. */
const RIGHT: BuyerInput = {
  ...TYPED,
  name: "Ana Pérez",
  email: "ana.perez@gmail.com",
  line1: "Calle Macedonio Alcalá 410",
  postalCode: "68050",
};

async function shop(database: Database, maxPerOrder: number | null = null) {
  const piece = await runningPiece(database, { stock: 20, maxPerOrder });
  /** A paid order (pendiente) bought by `buyer`. */
  const paid = async (buyer: BuyerInput = TYPED): Promise<string> => {
    return (await paidOrder(database, { piece, buyer, shipping: typedShipping(buyer) })).id;
  };
  /** An order brought to `status` through the shop's own functions. */
  const orderIn = async (status: OrderStatus | "borrado"): Promise<string> => {
    if (status === "esperando_pago" || status === "expirado") {
      const held = await hold(database.db, {
        lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
        provider: "demo",
      });
      if (status === "expirado") expect(await releaseHold(database.db, held.id)).toBe(true);
      return held.id;
    }
    const id = await paid();
    if (status === "pendiente") return id;
    if (status === "cancelado") {
      expect((await cancelPaidOrder(database.db, createDemoPayments(database.db), id)).ok).toBe(true);
      return id;
    }
    expect(await shipOrder(database.db, id, ESTAFETA)).toEqual({ ok: true });
    await everyEmailSent(database.db, id);
    if (status === "enviado") return id;
    if (status === "borrado") {
      expect(await removeFromHistory(database.db, id)).toEqual({ ok: true });
      return id;
    }
    expect(await archiveOrder(database.db, id)).toEqual({ ok: true });
    return id;
  };
  return { piece, paid, orderIn };
}

/** The mail queue sent every message of the order (as the server's mail job would). */
async function everyEmailSent(db: Db, orderId: string): Promise<void> {
  await db
    .updateTable("emails")
    .set({ sent_at: new Date().toISOString() })
    .where("order_id", "=", orderId)
    .where("sent_at", "is", null)
    .execute();
}

/** Everything a correction could touch. */
async function stateOf(db: Db, orderId: string) {
  return {
    order: await db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst(),
    events: await db.selectFrom("order_events").selectAll().where("order_id", "=", orderId).execute(),
    emails: await db.selectFrom("emails").selectAll().where("order_id", "=", orderId).orderBy("id").execute(),
  };
}

async function buyerColumns(db: Db, orderId: string) {
  return db
    .selectFrom("orders")
    .select([
      "status",
      "customer_name",
      "customer_email",
      "ship_name",
      "ship_phone",
      "ship_line1",
      "ship_line2",
      "ship_postal_code",
      "ship_city",
      "ship_state",
      "ship_country",
      "email_key",
      "address_key",
      "shipping_cents",
      "total_cents",
    ])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
}

describeEachDatabase("correcting a buyer's data on the orders desk", (harness) => {
  it("a pending order takes the corrected data everywhere it is read: desk, search, CSV, packing slip, her page and her keys", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const { paid } = await shop(database);
    const id = await paid();
    const before = await buyerColumns(db, id);

    expect(await correctBuyer(db, id, RIGHT)).toEqual({
      ok: true,
      changed: ["name", "email", "line1", "postalCode"],
    });

    expect(await buyerColumns(db, id)).toEqual({
      ...before,
      customer_name: "Ana Pérez",
      customer_email: "ana.perez@gmail.com",
      ship_name: "Ana Pérez",
      ship_line1: "Calle Macedonio Alcalá 410",
      ship_postal_code: "68050",
      email_key: "ana.perez@gmail.com",
      address_key: addressKey({ line1: "Calle Macedonio Alcalá 410", postalCode: "68050", country: "MX" }),
      // The shipping charged and the total stay what she paid.
      shipping_cents: before.shipping_cents,
      total_cents: before.total_cents,
    });
    expect(before.address_key).not.toBe((await buyerColumns(db, id)).address_key);

    const order = await getDeskOrder(db, id);
    expect(order).toMatchObject({
      status: "pendiente",
      customerName: "Ana Pérez",
      customerEmail: "ana.perez@gmail.com",
      shipping: {
        name: "Ana Pérez",
        line1: "Calle Macedonio Alcalá 410",
        postalCode: "68050",
        country: "MX",
      },
    });
    // The desk finds her by the corrected name and e-mail, not by the mistyped ones.
    const found = async (search: string) =>
      (await listOrders(db, { tab: "pendiente", search })).orders.map((o) => o.id);
    expect(await found("ana perez")).toEqual([id]);
    expect(await found("gmail")).toEqual([id]);
    expect(await found("peres")).toEqual([]);
    expect(await found("gmial")).toEqual([]);
    // 'Mi pedido' by number and e-mail: her real address opens it, the mistyped one no longer does.
    // Sent to her page signed for its new link generation: the e-mail correction raised it.
    expect(await findBuyerOrder(db, id, "Ana.Perez@gmail.com")).toEqual({ id, linkVersion: 1 });
    expect(await findBuyerOrder(db, id, TYPED.email)).toBeNull();

    const csv = await exportOrdersCsv(db, { tab: "pendiente" });
    expect(csv).toContain("Calle Macedonio Alcalá 410");
    expect(csv).toContain("68050");
    expect(csv).not.toContain("Calle Macedonio Alcalá 401");
    expect(csv).not.toContain("gmial");
    expect((await packingSlip(db, id, shopDetails))?.order.shipping).toMatchObject({
      name: "Ana Pérez",
      line1: "Calle Macedonio Alcalá 410",
      postalCode: "68050",
    });
    const page = await orderPageOf(db, id, { carriers: [], deliveryDays: 7 });
    expect(page?.address).toEqual([
      "Ana Pérez",
      "Calle Macedonio Alcalá 410",
      "Centro",
      "68050 Oaxaca de Juárez, Oaxaca",
      "México",
      "Tel. 951 123 4567",
    ]);
  });

  it("the timeline says when and which fields changed, by their names, never their old values", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const { paid } = await shop(database);
    const id = await paid();
    await everyEmailSent(db, id);
    const at = new Date(Date.now() + 60_000);
    expect(await correctBuyer(db, id, { ...TYPED, line1: "Calle Macedonio Alcalá 410" }, at)).toEqual({
      ok: true,
      changed: ["line1"],
    });
    expect(await correctBuyer(db, id, RIGHT, new Date(at.getTime() + 1_000))).toMatchObject({ ok: true });

    const events = await db
      .selectFrom("order_events")
      .select(["kind", "detail", "created_at"])
      .where("order_id", "=", id)
      .orderBy("created_at")
      .execute();
    expect(events.map((e) => [e.kind, e.detail])).toEqual([
      ["datos_corregidos", "Calle y número"],
      ["datos_corregidos", "Nombre, Correo electrónico, Código postal"],
    ]);
    const order = await getDeskOrder(db, id);
    if (!order) throw new Error("order not found");
    const timeline = await orderTimeline(db, order);
    const corrections = timeline.filter((e) => e.title === "Datos del comprador corregidos");
    expect(corrections.map((e) => [e.at.getTime(), e.detail])).toEqual([
      [at.getTime(), "Calle y número"],
      [at.getTime() + 1_000, "Nombre, Correo electrónico, Código postal"],
    ]);
    // The confirmation went to the address she typed: the timeline says it was the former one.
    const confirmation = timeline.find((e) => e.title === "Confirmación de pedido");
    expect(confirmation?.detail).toBe(`Enviado a ${TYPED.email} (dirección anterior)`);
    for (const entry of corrections) {
      expect(entry.detail).not.toContain("401");
      expect(entry.detail).not.toContain("gmial");
    }
  });

  it("the same data again changes nothing and records nothing", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const { paid } = await shop(database);
    const id = await paid();
    const before = await stateOf(db, id);
    expect(await correctBuyer(db, id, { ...TYPED })).toEqual({ ok: true, changed: [] });
    expect(await stateOf(db, id)).toEqual(before);
  });

  it.each<OrderStatus | "borrado">([
    "enviado",
    "archivado",
    "borrado",
    "cancelado",
    "esperando_pago",
    "expirado",
  ])("an order %s is refused and left exactly as it was", async (status) => {
    const database = await harness.fresh();
    const db = database.db;
    const { orderIn } = await shop(database);
    const id = await orderIn(status);
    const before = await stateOf(db, id);
    const result = await correctBuyer(db, id, RIGHT);
    const unpaid = status === "esperando_pago" || status === "expirado";
    // Unpaid orders do not exist for the desk (decision 8); the others are in another state.
    expect(result).toEqual(
      unpaid
        ? { ok: false, reason: "no_encontrado", status: null }
        : { ok: false, reason: "conflicto", status: status === "borrado" ? "enviado" : status },
    );
    expect(await stateOf(db, id)).toEqual(before);
    expect(await correctBuyer(db, "OL-NOEXISTE", RIGHT)).toEqual({
      ok: false,
      reason: "no_encontrado",
      status: null,
    });
  });

  it("a correction racing a shipment that got there first is refused: the shipped order keeps the data it shipped with", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const { paid } = await shop(database);
    const id = await paid();
    const gate = gatedAfter(db, writeTo("orders", "update"));
    const shipping = shipOrder(gate.db, id, ESTAFETA);
    await gate.reached;
    const correcting = correctBuyer(db, id, RIGHT);
    await untilWaitingOnLocks(db);
    gate.open();
    const [shipped, corrected] = await Promise.all([shipping, correcting]);
    expect(shipped).toEqual({ ok: true });
    expect(corrected).toEqual({ ok: false, reason: "conflicto", status: "enviado" });
    expect(await buyerColumns(db, id)).toMatchObject({
      status: "enviado",
      customer_email: TYPED.email,
      ship_line1: TYPED.line1,
      ship_postal_code: TYPED.postalCode,
    });
    const events = await db.selectFrom("order_events").select("kind").where("order_id", "=", id).execute();
    expect(events).toEqual([{ kind: "enviado" }]);
  });

  it("a shipment racing a correction that got there first ships the corrected data, its notice to the corrected e-mail", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const { paid } = await shop(database);
    const id = await paid();
    await everyEmailSent(db, id);
    const gate = gatedAfter(db, writeTo("orders", "update"));
    const correcting = correctBuyer(gate.db, id, RIGHT);
    await gate.reached;
    const shipping = shipOrder(db, id, ESTAFETA);
    await untilWaitingOnLocks(db);
    gate.open();
    expect(await Promise.all([correcting, shipping])).toEqual([
      { ok: true, changed: ["name", "email", "line1", "postalCode"] },
      { ok: true },
    ]);
    expect(await buyerColumns(db, id)).toMatchObject({
      status: "enviado",
      customer_email: RIGHT.email,
      ship_line1: RIGHT.line1,
    });
    const notices = await db
      .selectFrom("emails")
      .select("recipient")
      .where("order_id", "=", id)
      .where("kind", "=", "envio")
      .execute();
    expect(notices).toEqual([{ recipient: RIGHT.email }]);
  });

  it("her later payment counts with this order for the per-person limit by the corrected e-mail and address", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const { paid, piece } = await shop(database, 1);
    const first = await paid();
    expect(await correctBuyer(db, first, RIGHT)).toMatchObject({ ok: true });
    // Another address, her real e-mail: one person, over the drop's 1 per person.
    const byEmail = await hold(db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    expect(
      await confirmPayment(db, {
        orderId: byEmail.id,
        customerName: "Ana Pérez",
        customerEmail: RIGHT.email,
        shipping: {
          ...oaxacaAddress("Ana Pérez", "951 000 0000"),
          line1: "Av. Juárez 12",
          postalCode: "68010",
        },
      }),
    ).toBe("cancelled_over_limit");
    // Another e-mail, her corrected street: the same person again.
    const byAddress = await hold(db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    expect(
      await confirmPayment(db, {
        orderId: byAddress.id,
        customerName: "A. Pérez",
        customerEmail: "otra@example.mx",
        shipping: {
          ...oaxacaAddress("A. Pérez", "951 000 0000"),
          line1: "Calle Macedonio Alcala #410",
          postalCode: "68050",
        },
      }),
    ).toBe("cancelled_over_limit");
  });

  it("a name corrected renames the parcel's recipient too; left alone, a recipient named apart at payment stays", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const { paid } = await shop(database);
    const id = await paid();
    // As Stripe's page can leave it: the card's holder and the parcel's recipient named apart.
    await db.updateTable("orders").set({ ship_name: "Lucía Peres" }).where("id", "=", id).execute();
    expect(await correctBuyer(db, id, { ...TYPED, phone: "951 765 4321" })).toEqual({
      ok: true,
      changed: ["phone"],
    });
    expect(await buyerColumns(db, id)).toMatchObject({
      customer_name: TYPED.name,
      ship_name: "Lucía Peres",
      ship_phone: "951 765 4321",
    });
    expect(await correctBuyer(db, id, { ...TYPED, phone: "951 765 4321", name: "Ana Pérez" })).toEqual({
      ok: true,
      changed: ["name"],
    });
    expect(await buyerColumns(db, id)).toMatchObject({ customer_name: "Ana Pérez", ship_name: "Ana Pérez" });
  });

  it("sends nothing again: a message not yet sent goes to the corrected e-mail, and 'Reenviar' sends a copy of a sent one there", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const { paid } = await shop(database);
    const sentOne = await paid();
    await everyEmailSent(db, sentOne);
    const waiting = await paid();
    const emails = (id: string) =>
      db
        .selectFrom("emails")
        .select(["kind", "recipient", "sent_at"])
        .where("order_id", "=", id)
        .orderBy("created_at")
        .execute();
    const sentBefore = await emails(sentOne);

    expect(await correctBuyer(db, sentOne, RIGHT)).toMatchObject({ ok: true });
    expect(await correctBuyer(db, waiting, RIGHT)).toMatchObject({ ok: true });
    // Nothing new queued; the sent confirmation stays as it went, the waiting one goes to her.
    expect(await emails(sentOne)).toEqual(sentBefore);
    expect(await emails(waiting)).toEqual([{ kind: "confirmacion", recipient: RIGHT.email, sent_at: null }]);

    const [confirmation] = await db
      .selectFrom("emails")
      .select("id")
      .where("order_id", "=", sentOne)
      .execute();
    expect(await resendOrderEmail(db, sentOne, confirmation?.id ?? "")).toEqual({ ok: true, queued: true });
    expect((await emails(sentOne)).map((e) => [e.recipient, e.sent_at === null])).toEqual([
      [TYPED.email, false],
      [RIGHT.email, true],
    ]);
  });
});
