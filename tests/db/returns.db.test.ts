import { Migrator } from "kysely";
import { expect, it, vi } from "vitest";
import { type Database, migrateToLatest } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { newId } from "~/lib/ids";
import { RESTOCK_EMAIL } from "~/mail/kinds";
import { markDelivered } from "~/orders/delivery.server";
import { getDeskOrder, shipOrder } from "~/orders/desk.server";
import { orderTimeline } from "~/orders/timeline.server";
import { reportCsv } from "~/reports/csv";
import { loadReport } from "~/reports/reports.server";
import { closeReturn, decideReturn } from "~/returns/decide.server";
import { getReturn } from "~/returns/queries.server";
import {
  markReturnRefundedByHand,
  receiveReturn,
  refundReturn,
  retryReturnRefunds,
} from "~/returns/refund.server";
import { requestReturn, returnChanceOf } from "~/returns/request.server";
import { askRestock, confirmRestock } from "~/waitlist/restock.server";
import { orderPaidByCard } from "../support/card-payment";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { migrationsFrom } from "../support/migration-names";
import { orderMailTo } from "../support/order-mail";
import { stripeAndMailStands } from "../support/stripe-and-mail";

/*
 * Returns (issue 27, decision 48) on both databases, through the real Stripe SDK and adapter
 * against the local stand-in for Stripe's API, and a real SMTP server: the buyer asks within her
 * window, the owner accepts, receives the pieces and refunds their price (a partial refund, the
 * amount asserted), and only the pieces she chose go back to stock.
 */

vi.setConfig({ testTimeout: 60_000 });
const SECRET = "whsec_devoluciones";
const DELIVERY_DAYS = 7;
const stands = stripeAndMailStands();

/**
 * A paid, shipped and delivered order of a plain piece ($8,025 × 1) and a ring in size 7
 * ($4,000 × 2), paid by card at Stripe; delivered on Wednesday 2026-11-11 at noon.
 */
async function deliveredOrder(database: Database) {
  const plain = await runningPiece(database, { stock: 5, priceCents: 802_500, name: "Arete Luna" });
  const ring = await runningPiece(database, {
    stock: 0,
    priceCents: 400_000,
    name: "Anillo Sol",
    sizes: { "6": 2, "7": 3 },
  });
  const email = `devuelve-${newId(6)}@example.mx`;
  const { order, paymentIntent, payments } = await orderPaidByCard(database, stands.fake, {
    lines: [
      { productId: plain.id, dropId: plain.dropId, quantity: 1 },
      { productId: ring.id, dropId: ring.dropId, quantity: 2, optionId: ring.sizes.get("7") ?? "" },
    ],
    email,
    webhookSecret: SECRET,
  });
  expect(
    (await shipOrder(database.db, order.id, { carrier: "DHL Express", trackingNumber: "DHL-7" })).ok,
  ).toBe(true);
  await markDelivered(database.db, [order.id], DELIVERY_DAYS, DELIVERED);
  const positions = await database.db
    .selectFrom("order_lines")
    .select(["position", "product_id"])
    .where("order_id", "=", order.id)
    .execute();
  const positionOf = (productId: string) => positions.find((p) => p.product_id === productId)?.position ?? -1;
  return { orderId: order.id, email, payments, paymentIntent, plain, ring, positionOf };
}

const DELIVERED = new Date("2026-11-11T18:00:00Z");
/** Two days later: well within the window (it ends Thursday 19 November, Mexico City). */
const SOON = new Date("2026-11-13T18:00:00Z");
const refundsOf = (paymentIntent: string) =>
  stands.fake.refunds.filter((r) => r.payment_intent === paymentIntent);

async function sizeStock(database: Database, optionId: string) {
  const row = await database.db
    .selectFrom("product_options")
    .select("stock")
    .where("id", "=", optionId)
    .executeTakeFirst();
  return row?.stock;
}

describeEachDatabase("returns", (harness) => {
  it("a return accepted and refunded through Stripe gives back the pieces' price, and restocks only what the owner chose", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const seven = o.ring.sizes.get("7") ?? "";
    expect(await o.plain.stock()).toBe(4);
    expect(await sizeStock(database, seven)).toBe(1);

    const asked = await requestReturn(
      database.db,
      o.orderId,
      {
        lines: [
          { position: o.positionOf(o.plain.id), quantity: 1 },
          { position: o.positionOf(o.ring.id), quantity: 1 },
        ],
        reason: "talla",
        comment: "El anillo me quedó grande",
      },
      DELIVERY_DAYS,
      SOON,
    );
    expect(asked).toMatchObject({ ok: true, refundCents: 802_500 + 400_000 });
    if (!asked.ok) return;
    // One open return at a time: the form is not offered again until it is settled.
    expect(await returnChanceOf(database.db, o.orderId, DELIVERY_DAYS, SOON)).toMatchObject({
      open: false,
      reason: "en_curso",
    });

    expect(
      await decideReturn(
        database.db,
        asked.returnId,
        "accept",
        "Envía las piezas a Calle Taller 12, CDMX.",
        SOON,
      ),
    ).toEqual({ ok: true });
    // A second click (another tab) answers nothing twice.
    expect(await decideReturn(database.db, asked.returnId, "decline", "No", SOON)).toEqual({
      ok: false,
      reason: "ya_respondida",
    });

    // The pieces arrive: the earring goes back to stock, the ring (scratched) does not.
    const received = await receiveReturn(
      database.db,
      o.payments,
      asked.returnId,
      { restock: [o.positionOf(o.plain.id)] },
      SOON,
    );
    expect(received).toEqual({ ok: true, outcome: "reembolsado" });
    expect(refundsOf(o.paymentIntent)).toEqual([
      expect.objectContaining({
        amount: 1_202_500,
        idempotencyKey: `devolucion-${asked.returnId}`,
        status: "succeeded",
      }),
    ]);
    expect(await o.plain.stock()).toBe(5);
    expect(await sizeStock(database, seven)).toBe(1);
    expect(await getReturn(database.db, asked.returnId)).toMatchObject({
      status: "reembolsada",
      refundStatus: "hecho",
      refund: "$12,025.00",
      lines: [expect.objectContaining({ restock: true }), expect.objectContaining({ restock: false })],
    });

    // Repeats change nothing: no second refund at Stripe, no second restock.
    expect(
      await receiveReturn(
        database.db,
        o.payments,
        asked.returnId,
        { restock: [o.positionOf(o.plain.id)] },
        SOON,
      ),
    ).toEqual({
      ok: false,
      reason: "no_aceptada",
    });
    expect(await refundReturn(database.db, o.payments, asked.returnId, SOON)).toBe("reembolsado");
    expect(refundsOf(o.paymentIntent)).toHaveLength(1);
    expect(await o.plain.stock()).toBe(5);

    // Reports count what went back: one return, two pieces, their price.
    const report = await loadReport(database.db, { kind: "all" });
    expect(report.ok && report.report.returned).toEqual({
      returns: 1,
      pieces: 2,
      cents: 1_202_500,
      pending: 0,
    });
    expect(report.ok && reportCsv(report.report)).toContain(
      '"Monto de devoluciones reembolsado o en curso (MXN)","12025.00"',
    );
    // The earring back on the shelf is offered once, not again as its sale's (5 in all, as bought).
    expect(report.ok && report.report.products.find((p) => p.id === o.plain.id)?.offered).toBe(5);

    // The order stays a sale, its timeline tells the return's steps.
    const order = await getDeskOrder(database.db, o.orderId);
    expect(order?.status).toBe("enviado");
    const titles = (await orderTimeline(database.db, order as NonNullable<typeof order>)).map((e) => e.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        "Devolución solicitada",
        "Devolución aceptada",
        "Devolución recibida",
        "Devolución reembolsada",
      ]),
    );

    // The buyer's e-mails, over real SMTP: her request, the acceptance with where to send, the refund.
    const mails = await orderMailTo(database, stands.smtp, o.email);
    const returnsMail = mails.filter((m) => m.includes(asked.returnId));
    // (Queued at the same test instant, so found by what they say, not by their order.)
    const saying = (words: string) => returnsMail.find((m) => m.includes(words));
    expect(returnsMail).toHaveLength(3);
    expect(saying("Recibimos tu solicitud de devolución")).toBeDefined();
    expect(saying("Aceptamos tu devolución")).toContain("Envía las piezas a Calle Taller 12, CDMX.");
    expect(saying("te reembolsamos $12,025.00 MXN")).toBeDefined();
    // What is left to return: one ring; a new request may ask for it while the window lasts.
    expect(await returnChanceOf(database.db, o.orderId, DELIVERY_DAYS, SOON)).toMatchObject({
      open: true,
      pieces: [
        expect.objectContaining({ name: "Arete Luna", returnable: 0 }),
        expect.objectContaining({ name: "Anillo Sol talla 7", size: "7", returnable: 1 }),
      ],
    });
  });

  it("pieces sent back no longer count toward 'Máximo N por persona': a new size of the same ring is hers", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    // Two rings per person in the ring's drop: she has her two, in size 7.
    await database.db
      .updateTable("drops")
      .set({ max_per_order: 2 })
      .where("id", "=", o.ring.dropId)
      .execute();
    const asked = await requestReturn(
      database.db,
      o.orderId,
      { lines: [{ position: o.positionOf(o.ring.id), quantity: 1 }], reason: "talla", comment: "" },
      DELIVERY_DAYS,
      SOON,
    );
    if (!asked.ok) throw new Error(asked.reason);
    expect((await decideReturn(database.db, asked.returnId, "accept", "", SOON)).ok).toBe(true);
    expect(await receiveReturn(database.db, o.payments, asked.returnId, { restock: [] }, SOON)).toEqual({
      ok: true,
      outcome: "reembolsado",
    });

    // One ring kept, one sent back: a size 6 ring with the same e-mail is within her two.
    const again = await orderPaidByCard(database, stands.fake, {
      lines: [
        { productId: o.ring.id, dropId: o.ring.dropId, quantity: 1, optionId: o.ring.sizes.get("6") ?? "" },
      ],
      email: o.email,
      webhookSecret: SECRET,
    });
    expect((await getDeskOrder(database.db, again.order.id))?.status).toBe("pendiente");
    expect(refundsOf(again.paymentIntent)).toEqual([]);
    // A third ring would be one too many: that order is cancelled and refunded as before.
    const third = await orderPaidByCard(database, stands.fake, {
      lines: [
        { productId: o.ring.id, dropId: o.ring.dropId, quantity: 1, optionId: o.ring.sizes.get("6") ?? "" },
      ],
      email: o.email,
      webhookSecret: SECRET,
    });
    expect((await getDeskOrder(database.db, third.order.id))?.status).toBe("cancelado");
    expect(refundsOf(third.paymentIntent)).toEqual([
      expect.objectContaining({ amount: third.order.totalCents }),
    ]);
  });

  it("one of two numbered pieces comes back: the owner says which certificate came, and only that number goes to the next buyer", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 5, priceCents: 600_000, name: "Collar Luna" });
    await database.db.updateTable("products").set({ edition_size: 30 }).where("id", "=", piece.id).execute();
    const email = `numerada-${newId(6)}@example.mx`;
    const { order, payments } = await orderPaidByCard(database, stands.fake, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 2 }],
      email,
      webhookSecret: SECRET,
    });
    const numbersOf = async (orderId: string) =>
      (
        await database.db
          .selectFrom("edition_numbers")
          .select("number")
          .where("order_id", "=", orderId)
          .orderBy("number")
          .execute()
      ).map((r) => r.number);
    expect(await numbersOf(order.id)).toEqual([1, 2]);
    expect(
      (await shipOrder(database.db, order.id, { carrier: "DHL Express", trackingNumber: "DHL-9" })).ok,
    ).toBe(true);
    await markDelivered(database.db, [order.id], DELIVERY_DAYS, DELIVERED);
    const asked = await requestReturn(
      database.db,
      order.id,
      { lines: [{ position: 0, quantity: 1 }], reason: "gusto", comment: "" },
      DELIVERY_DAYS,
      SOON,
    );
    if (!asked.ok) throw new Error(asked.reason);
    expect((await getReturn(database.db, asked.returnId))?.lines[0]?.numbers).toEqual([1, 2]);
    expect((await decideReturn(database.db, asked.returnId, "accept", "", SOON)).ok).toBe(true);
    // Which certificate came back must be said: she keeps one of the two.
    for (const numbers of [undefined, [], [1, 2], [7]])
      expect(
        await receiveReturn(
          database.db,
          payments,
          asked.returnId,
          { restock: [0], ...(numbers ? { numbers: new Map([[0, numbers]]) } : {}) },
          SOON,
        ),
        JSON.stringify(numbers),
      ).toEqual({ ok: false, reason: "numeros", position: 0 });
    // Number 1 came back (not the highest): it goes to the next buyer, she keeps 2.
    expect(
      await receiveReturn(
        database.db,
        payments,
        asked.returnId,
        { restock: [0], numbers: new Map([[0, [1]]]) },
        SOON,
      ),
    ).toEqual({ ok: true, outcome: "reembolsado" });
    expect(await numbersOf(order.id)).toEqual([2]);
    const next = await orderPaidByCard(database, stands.fake, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      email: `siguiente-${newId(6)}@example.mx`,
      webhookSecret: SECRET,
    });
    expect(await numbersOf(next.order.id)).toEqual([1]);
  });

  it("fewer pieces than asked arrive: only those are refunded and restocked; the rest stays hers to ask again", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const seven = o.ring.sizes.get("7") ?? "";
    const ring = o.positionOf(o.ring.id);
    const plain = o.positionOf(o.plain.id);
    const asked = await requestReturn(
      database.db,
      o.orderId,
      {
        lines: [
          { position: plain, quantity: 1 },
          { position: ring, quantity: 2 },
        ],
        reason: "gusto",
        comment: "",
      },
      DELIVERY_DAYS,
      SOON,
    );
    if (!asked.ok) throw new Error("not asked");
    expect(asked.refundCents).toBe(802_500 + 2 * 400_000);
    await decideReturn(database.db, asked.returnId, "accept", "Envíalas a Calle Taller 12.", SOON);
    const receive = (received: [number, number][]) =>
      receiveReturn(
        database.db,
        o.payments,
        asked.returnId,
        { received: new Map(received), restock: [plain, ring] },
        SOON,
      );

    // More than she sent back, a count that is no number, or nothing at all: refused, nothing moves.
    expect(await receive([[ring, 3]])).toEqual({ ok: false, reason: "cantidad_invalida", position: ring });
    expect(await receive([[ring, Number.NaN]])).toEqual({
      ok: false,
      reason: "cantidad_invalida",
      position: ring,
    });
    expect(await receive([[ring, -1]])).toEqual({ ok: false, reason: "cantidad_invalida", position: ring });
    expect(
      await receive([
        [plain, 0],
        [ring, 0],
      ]),
    ).toEqual({ ok: false, reason: "nada_recibido" });
    expect(await getReturn(database.db, asked.returnId)).toMatchObject({ status: "aceptada" });
    expect(refundsOf(o.paymentIntent)).toHaveLength(0);

    // One ring of two arrives, the earring not: the ring's price alone is refunded at Stripe.
    expect(
      await receive([
        [plain, 0],
        [ring, 1],
      ]),
    ).toEqual({ ok: true, outcome: "reembolsado" });
    expect(refundsOf(o.paymentIntent)).toEqual([
      expect.objectContaining({ amount: 400_000, idempotencyKey: `devolucion-${asked.returnId}` }),
    ]);
    // Only what arrived is back on the shelf (the earring's box was ticked, none came).
    expect(await sizeStock(database, seven)).toBe(2);
    expect(await o.plain.stock()).toBe(4);
    expect(await getReturn(database.db, asked.returnId)).toMatchObject({
      status: "reembolsada",
      refund: "$4,000.00",
      lines: [
        expect.objectContaining({ name: "Arete Luna", asked: 1, received: 0, quantity: 0, amount: "$0.00" }),
        expect.objectContaining({
          name: "Anillo Sol talla 7",
          asked: 2,
          received: 1,
          quantity: 1,
          amount: "$4,000.00",
        }),
      ],
    });
    const order = await getDeskOrder(database.db, o.orderId);
    const timeline = await orderTimeline(database.db, order as NonNullable<typeof order>);
    expect(timeline.map((e) => e.detail).join("\n")).toContain(
      "llegó 1 de 3 piezas; vuelve al inventario al hacerse el reembolso",
    );

    // Reports count the piece that came back, at its price.
    const report = await loadReport(database.db, { kind: "all" });
    expect(report.ok && report.report.returned).toEqual({
      returns: 1,
      pieces: 1,
      cents: 400_000,
      pending: 0,
    });
    // Her e-mail names what did not arrive; what never came may be asked for again.
    const mails = (await orderMailTo(database, stands.smtp, o.email)).filter((m) =>
      m.includes(asked.returnId),
    );
    const refunded = mails.find((m) => m.includes("Tu reembolso está hecho"));
    expect(refunded).toContain("te reembolsamos $4,000.00 MXN");
    expect(refunded).toContain("No nos llegaron todas las piezas: Arete Luna × 1, Anillo Sol talla 7 × 1.");
    expect(await returnChanceOf(database.db, o.orderId, DELIVERY_DAYS, SOON)).toMatchObject({
      open: true,
      pieces: [
        expect.objectContaining({ name: "Arete Luna", returnable: 1 }),
        expect.objectContaining({ name: "Anillo Sol talla 7", returnable: 1 }),
      ],
    });
  });

  it("migration 0037: returns received before it count every piece they asked as arrived; open ones none yet", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const ring = o.positionOf(o.ring.id);
    const plain = o.positionOf(o.plain.id);
    const ask = (position: number) =>
      requestReturn(
        database.db,
        o.orderId,
        { lines: [{ position, quantity: 1 }], reason: "gusto", comment: "" },
        DELIVERY_DAYS,
        SOON,
      );
    const received = await ask(ring);
    if (!received.ok) throw new Error("not asked");
    await decideReturn(database.db, received.returnId, "accept", "Envíala a Calle Taller 12.", SOON);
    await receiveReturn(database.db, o.payments, received.returnId, { restock: [] }, SOON);
    const open = await ask(plain);
    if (!open.ok) throw new Error("not asked");

    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0036_jpeg_copies")).error).toBeUndefined();
    // A run stopped after its change and before Kysely recorded it (SQLite runs it outside a
    // transaction): the next start runs it again, and it finds its work done.
    await migrations["0037_return_received"]?.up(database.db);
    expect(await migrateToLatest(database)).toEqual(migrationsFrom("0037_return_received"));
    const lines = await database.db
      .selectFrom("return_lines")
      .select(["return_id", "quantity", "received"])
      .orderBy("return_id")
      .execute();
    expect(lines.find((l) => l.return_id === received.returnId)).toMatchObject({ quantity: 1, received: 1 });
    expect(lines.find((l) => l.return_id === open.returnId)).toMatchObject({ quantity: 1, received: null });
    expect(await getReturn(database.db, received.returnId)).toMatchObject({ refund: "$4,000.00" });
  });

  it("an accepted return whose pieces never come is closed without a refund; she is told, and may ask again", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const ring = o.positionOf(o.ring.id);
    const ask = () =>
      requestReturn(
        database.db,
        o.orderId,
        { lines: [{ position: ring, quantity: 1 }], reason: "gusto", comment: "" },
        DELIVERY_DAYS,
        SOON,
      );
    const asked = await ask();
    if (!asked.ok) throw new Error("not asked");
    // Not before it is accepted: a request is answered by accepting or declining it.
    expect(await closeReturn(database.db, asked.returnId, "No llegaron.", SOON)).toEqual({
      ok: false,
      reason: "no_aceptada",
    });
    await decideReturn(database.db, asked.returnId, "accept", "Envíala a Calle Taller 12.", SOON);
    expect(
      await closeReturn(database.db, asked.returnId, "Nos dijiste que te quedas el anillo.", SOON),
    ).toEqual({
      ok: true,
    });
    // Once: a second tab, or receiving it after, changes nothing.
    expect(await closeReturn(database.db, asked.returnId, "Otra vez.", SOON)).toEqual({
      ok: false,
      reason: "no_aceptada",
    });
    expect(await receiveReturn(database.db, o.payments, asked.returnId, { restock: [ring] }, SOON)).toEqual({
      ok: false,
      reason: "no_aceptada",
    });
    expect(refundsOf(o.paymentIntent)).toHaveLength(0);
    expect(await getReturn(database.db, asked.returnId)).toMatchObject({
      status: "cerrada",
      statusLabel: "Cerrada sin reembolso",
      ownerMessage: "Nos dijiste que te quedas el anillo.",
    });
    const order = await getDeskOrder(database.db, o.orderId);
    const titles = (await orderTimeline(database.db, order as NonNullable<typeof order>)).map((e) => e.title);
    expect(titles).toContain("Devolución cerrada sin reembolso");
    const mails = (await orderMailTo(database, stands.smtp, o.email)).filter((m) =>
      m.includes(asked.returnId),
    );
    expect(mails.find((m) => m.includes("Cerramos tu devolución"))).toContain(
      "Nos dijiste que te quedas el anillo.",
    );
    // Its pieces never came back: hers to ask for again while her window lasts, in a new return.
    expect(await returnChanceOf(database.db, o.orderId, DELIVERY_DAYS, SOON)).toMatchObject({
      open: true,
      pieces: expect.arrayContaining([
        expect.objectContaining({ name: "Anillo Sol talla 7", returnable: 2 }),
      ]),
    });
    expect(await ask()).toMatchObject({ ok: true });
  });

  it("migration 0038 keeps every return and its lines, and lets a return be closed; undone, a closed one reads as declined", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const asked = await requestReturn(
      database.db,
      o.orderId,
      {
        lines: [{ position: o.positionOf(o.ring.id), quantity: 2 }],
        reason: "gusto",
        comment: "Me quedan grandes",
      },
      DELIVERY_DAYS,
      SOON,
    );
    if (!asked.ok) throw new Error("not asked");
    await decideReturn(database.db, asked.returnId, "accept", "Envíalas a Calle Taller 12.", SOON);
    const before = await getReturn(database.db, asked.returnId);
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0037_return_received")).error).toBeUndefined();
    // Stopped before its record, as above: run again at the next start, it finds the table made.
    await migrations["0038_return_closed"]?.up(database.db);
    expect(await migrateToLatest(database)).toEqual(migrationsFrom("0038_return_closed"));
    // The table made again (SQLite) keeps the return, its lines and what points at it.
    expect(await getReturn(database.db, asked.returnId)).toEqual(before);
    expect(await closeReturn(database.db, asked.returnId, "No llegaron.", SOON)).toEqual({ ok: true });
    const lines = () => database.db.selectFrom("return_lines").select("return_id").execute();
    expect(await lines()).toHaveLength(1);
    expect((await migrator.migrateTo("0037_return_received")).error).toBeUndefined();
    expect((await getReturn(database.db, asked.returnId))?.status).toBe("rechazada");
    expect(await migrateToLatest(database)).toEqual(migrationsFrom("0038_return_closed"));
    // Deleting the order still takes its returns and their lines with it: the keys hold.
    await database.db.deleteFrom("orders").where("id", "=", o.orderId).execute();
    expect(await lines()).toHaveLength(0);
  });

  it("is asked only after delivery, within five business days, for pieces of the order not returned yet", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const ring = o.positionOf(o.ring.id);
    const ask = (lines: { position: number; quantity: number }[], now: Date) =>
      requestReturn(database.db, o.orderId, { lines, reason: "gusto", comment: "" }, DELIVERY_DAYS, now);
    // Delivered Wednesday 11; its five business days: 12, 13, (Monday 16 is Revolución, closed) 17, 18, 19.
    expect((await returnChanceOf(database.db, o.orderId, DELIVERY_DAYS, SOON))?.open).toBe(true);
    expect(await ask([{ position: ring, quantity: 1 }], new Date("2026-11-20T07:00:00Z"))).toEqual({
      ok: false,
      reason: "fuera_de_plazo",
    });
    // More than she bought, a line not hers, or nothing: refused.
    expect(await ask([{ position: ring, quantity: 3 }], SOON)).toEqual({ ok: false, reason: "piezas" });
    expect(await ask([{ position: 99, quantity: 1 }], SOON)).toEqual({ ok: false, reason: "piezas" });
    expect(await ask([], SOON)).toEqual({ ok: false, reason: "piezas" });
    // Two requests at once (two tabs): one is recorded.
    const both = await Promise.all([
      ask([{ position: ring, quantity: 1 }], SOON),
      ask([{ position: ring, quantity: 1 }], SOON),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "en_curso" }]);
    // Declined: nothing refunded, and she may ask again.
    const first = both.find((r) => r.ok);
    if (!first?.ok) return;
    expect(await decideReturn(database.db, first.returnId, "decline", "La pieza muestra uso.", SOON)).toEqual(
      { ok: true },
    );
    expect(await receiveReturn(database.db, o.payments, first.returnId, { restock: [] }, SOON)).toEqual({
      ok: false,
      reason: "no_aceptada",
    });
    expect(refundsOf(o.paymentIntent)).toHaveLength(0);
    expect((await ask([{ position: ring, quantity: 2 }], SOON)).ok).toBe(true);
  });

  it("not before delivery: a paid order not shipped, or shipped and not yet delivered, has no return yet", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    await database.db
      .updateTable("orders")
      .set({ delivered_at: null, shipped_at: SOON.toISOString() })
      .where("id", "=", o.orderId)
      .execute();
    expect(await returnChanceOf(database.db, o.orderId, DELIVERY_DAYS, SOON)).toMatchObject({
      open: false,
      reason: "no_entregado",
    });
  });

  it("a refund Stripe holds as pending or cannot make now is asked again until made; the pieces and the e-mail wait for it", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const asked = await requestReturn(
      database.db,
      o.orderId,
      { lines: [{ position: o.positionOf(o.plain.id), quantity: 1 }], reason: "danada", comment: "" },
      DELIVERY_DAYS,
      SOON,
    );
    if (!asked.ok) throw new Error("not asked");
    await decideReturn(database.db, asked.returnId, "accept", "Envíala a Calle Taller 12.", SOON);
    stands.fake.outage = "error";
    expect(
      await receiveReturn(
        database.db,
        o.payments,
        asked.returnId,
        { restock: [o.positionOf(o.plain.id)] },
        SOON,
      ),
    ).toEqual({
      ok: true,
      outcome: "fallido",
    });
    expect(await o.plain.stock()).toBe(4);
    // No answer: the provider may have made it all the same, so the owner cannot record it as
    // refunded by hand until it answers (her money and its refund would both go).
    expect(await markReturnRefundedByHand(database.db, asked.returnId, SOON)).toBe("sin_respuesta");
    stands.fake.outage = null;
    stands.fake.refundStatus = "pending";
    const later = new Date(SOON.getTime() + 60 * 60_000);
    expect(await retryReturnRefunds(database.db, o.payments, later)).toEqual({
      refunded: 0,
      failed: 0,
      inProgress: 1,
    });
    expect(await o.plain.stock()).toBe(4);
    // In the provider's hands: not by hand either, however long it takes.
    expect(await markReturnRefundedByHand(database.db, asked.returnId, later)).toBe("en_curso");
    expect(await getReturn(database.db, asked.returnId)).toMatchObject({
      status: "recibida",
      refundStatus: "pendiente",
    });
    const [pending] = refundsOf(o.paymentIntent);
    stands.fake.settleRefund(pending?.id ?? "", "succeeded");
    // Meanwhile the earring sold out, and two addresses asked 'Avísame si vuelve' for it.
    await database.db.updateTable("products").set({ stock: 0 }).where("id", "=", o.plain.id).execute();
    // (Its drop on sale all month: these tests' clock is mid-November.)
    await database.db
      .updateTable("drops")
      .set({ start_at: "2026-11-01T06:00:00.000Z", end_at: "2026-12-31T06:00:00.000Z" })
      .where("id", "=", o.plain.dropId)
      .execute();
    const waiting: string[] = [];
    for (const email of ["primera@example.mx", "segunda@example.mx"]) {
      const asked = await askRestock(database.db, {
        productId: o.plain.id,
        email,
        consent: "si",
        siteUrl: "http://tienda.test",
        from: { address: `10.8.0.${waiting.length + 1}`, proven: true },
        // One minute apart: the line's order.
        now: new Date(later.getTime() + waiting.length * 60_000),
      });
      if (!asked.ok || asked.outcome === "limitada") throw new Error("not asked");
      await confirmRestock(database.db, asked.subscriptionId, later);
      waiting.push(email);
    }
    const evenLater = new Date(later.getTime() + 60 * 60_000);
    expect(await retryReturnRefunds(database.db, o.payments, evenLater)).toEqual({
      refunded: 1,
      failed: 0,
      inProgress: 0,
    });
    expect(refundsOf(o.paymentIntent)).toHaveLength(1);
    expect(await o.plain.stock()).toBe(1);
    // The one piece that came back tells one address: the first who asked.
    const told = await database.db
      .selectFrom("emails")
      .select("recipient")
      .where("kind", "=", RESTOCK_EMAIL)
      .execute();
    expect(told.map((t) => t.recipient)).toEqual(["primera@example.mx"]);
    expect((await getReturn(database.db, asked.returnId))?.status).toBe("reembolsada");
  });

  it("a refund Stripe will not make stays pending with its reason; the owner who refunds it herself closes it", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const ring = o.positionOf(o.ring.id);
    const seven = o.ring.sizes.get("7") ?? "";
    const asked = await requestReturn(
      database.db,
      o.orderId,
      { lines: [{ position: ring, quantity: 2 }], reason: "sin_motivo", comment: "" },
      DELIVERY_DAYS,
      SOON,
    );
    if (!asked.ok) throw new Error("not asked");
    await decideReturn(database.db, asked.returnId, "accept", "Envíalas a Calle Taller 12.", SOON);
    stands.fake.refundStatus = "failed";
    expect(await receiveReturn(database.db, o.payments, asked.returnId, { restock: [ring] }, SOON)).toEqual({
      ok: true,
      outcome: "rechazado",
    });
    expect(await getReturn(database.db, asked.returnId)).toMatchObject({
      status: "recibida",
      refundStatus: "pendiente",
      refundError: expect.stringContaining("Stripe no hizo el reembolso"),
    });
    expect(await sizeStock(database, seven)).toBe(1);
    // The sweep leaves the owner's own click alone for a while: no second request at once.
    expect(await retryReturnRefunds(database.db, o.payments, SOON)).toEqual({
      refunded: 0,
      failed: 0,
      inProgress: 0,
    });

    expect(await markReturnRefundedByHand(database.db, asked.returnId, SOON)).toBe("reembolsado");
    expect(await markReturnRefundedByHand(database.db, asked.returnId, SOON)).toBe("reembolsado");
    // Both rings back in size 7, once; the buyer told once.
    expect(await sizeStock(database, seven)).toBe(3);
    expect(await getReturn(database.db, asked.returnId)).toMatchObject({
      status: "reembolsada",
      refundStatus: "hecho",
    });
    expect(await retryReturnRefunds(database.db, o.payments, new Date(SOON.getTime() + 3_600_000))).toEqual({
      refunded: 0,
      failed: 0,
      inProgress: 0,
    });
    const mails = (await orderMailTo(database, stands.smtp, o.email)).filter((m) =>
      m.includes(asked.returnId),
    );
    expect(mails.filter((m) => m.includes("Tu reembolso está hecho"))).toHaveLength(1);
  });

  it("a declined return tells the buyer why, and promises no refund", async () => {
    const database = await harness.fresh();
    const o = await deliveredOrder(database);
    const asked = await requestReturn(
      database.db,
      o.orderId,
      { lines: [{ position: o.positionOf(o.plain.id), quantity: 1 }], reason: "gusto", comment: "" },
      DELIVERY_DAYS,
      SOON,
    );
    if (!asked.ok) throw new Error("not asked");
    await decideReturn(database.db, asked.returnId, "decline", "La pieza llegó a nosotros con uso.", SOON);
    const declined = (await orderMailTo(database, stands.smtp, o.email)).filter((m) =>
      m.includes(asked.returnId),
    );
    expect(declined).toHaveLength(2);
    const why = declined.find((m) => m.includes("La pieza llegó a nosotros con uso."));
    expect(why).toBeDefined();
    expect(why).not.toContain("Reembolso:");
  });
});
