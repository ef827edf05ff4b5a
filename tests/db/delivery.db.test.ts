import { Migrator } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { type Database, migrateToLatest, toDate } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { parseBulkCsv } from "~/orders/bulk-ship";
import { shipOrders } from "~/orders/bulk-ship.server";
import { markDelivered, markDeliveredOn } from "~/orders/delivery.server";
import { getDeskOrder, shipOrder } from "~/orders/desk.server";
import { orderPageOf } from "~/orders/order-page.server";
import { confirmPayment } from "~/orders/payment.server";
import { orderTimeline } from "~/orders/timeline.server";
import { returnChanceOf } from "~/returns/request.server";
import { DEFAULT_CARRIERS } from "~/settings/carriers";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase, untilWaitingOnLocks } from "../support/databases";
import { migrationsFrom } from "../support/migration-names";
import { hold } from "../support/orders";

/*
 * Delivery and the return window on 'Mi pedido' (issue 27): the owner marks shipped orders
 * 'Entregado' once; until then an order counts as delivered the owner's days after shipping; the
 * buyer's window is 5 business days from the delivery, Mexican holidays skipped.
 */

const DAY = 86_400_000;
const shop = { carriers: DEFAULT_CARRIERS, deliveryDays: 7 };

describeEachDatabase("delivery and the return window", (harness) => {
  let database: Database;
  beforeAll(async () => {
    database = await harness.fresh();
  });

  /** A paid order shipped at `shippedAt` (or only paid, without it), with the days then in force. */
  async function order(shippedAt: Date | null, deliveryDays?: number, on: Database = database) {
    const piece = await runningPiece(on, { stock: 1 });
    const held = await hold(on.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    await confirmPayment(on.db, {
      orderId: held.id,
      customerName: "Eva Ruiz",
      customerEmail: "eva@example.mx",
    });
    if (shippedAt) {
      const shipped = await shipOrder(
        on.db,
        held.id,
        { carrier: "DHL Express", trackingNumber: "DHL-77", deliveryDays },
        shippedAt,
      );
      expect(shipped.ok).toBe(true);
    }
    return held.id;
  }

  it("the owner marks shipped orders 'Entregado', once each; an order not shipped is not marked", async () => {
    const [a, b, paidOnly] = [await order(new Date()), await order(new Date()), await order(null)];
    const at = new Date("2026-11-13T20:00:00Z");
    expect(await markDelivered(database.db, [a, b, paidOnly], 7, at)).toBe(2);
    expect(await markDelivered(database.db, [a], 7, new Date())).toBe(0);
    const page = await orderPageOf(database.db, a, shop, new Date("2026-11-17T12:00:00Z"));
    expect(page?.steps.find((s) => s.label === "Entregado")?.at).toBe("13 nov 2026, 14:00");
    // Friday 13 Nov: Monday 16 is a holiday, so the fifth business day is Monday 23.
    expect(page?.returns).toContain("Tienes hasta el 23 nov 2026, 23:59 para pedir una devolución");
    expect((await orderPageOf(database.db, paidOnly, shop))?.returns).toBeNull();
  });

  it("not marked: delivered the owner's days after shipping; the window closes after its fifth business day", async () => {
    const shippedAt = new Date("2026-11-02T18:00:00Z");
    const id = await order(shippedAt);
    // Three days after shipping: on its way, no window yet.
    const early = await orderPageOf(database.db, id, shop, new Date(shippedAt.getTime() + 3 * DAY));
    expect(early?.steps.find((s) => s.label === "Entregado")?.at).toBeNull();
    expect(early?.returns).toBeNull();
    // Seven calendar days after (Tuesday 10 Nov) is not seven business days: still on its way, as the
    // rates promise ('3 a 7 días hábiles'; Monday 2 Nov itself is a bank holiday).
    const calendar = await orderPageOf(database.db, id, shop, new Date("2026-11-10T18:30:00Z"));
    expect(calendar?.steps.find((s) => s.label === "Entregado")?.at).toBeNull();
    expect(calendar?.returns).toBeNull();
    // Seven business days after (Wednesday 11 Nov): assumed delivered; five business days, past
    // Monday 16's holiday, to Thursday 19.
    const assumed = await orderPageOf(database.db, id, shop, new Date("2026-11-11T18:30:00Z"));
    expect(assumed?.steps.find((s) => s.label === "Entregado")?.detail).toContain("Lo damos por entregado");
    expect(assumed?.returns).toContain("Tienes hasta el 19 nov 2026, 23:59");
    // Counted, not known: the page does not say it arrived.
    expect(assumed?.next).toContain("Ya pasó el tiempo de entrega de la paquetería");
    expect(assumed?.next).not.toContain("ya llegó");
    const late = await orderPageOf(database.db, id, shop, new Date("2026-11-20T12:00:00Z"));
    expect(late?.returns).toContain("El plazo para pedir una devolución terminó el 19 nov 2026, 23:59");
    // Marked 'Entregado' late (20 Nov): it keeps the day it already counted as delivered, and the
    // window it closed stays closed.
    expect(await markDelivered(database.db, [id], 7, new Date("2026-11-20T18:00:00Z"))).toBe(1);
    const marked = await orderPageOf(database.db, id, shop, new Date("2026-11-21T12:00:00Z"));
    expect(marked?.steps.find((s) => s.label === "Entregado")?.at).toBe("11 nov 2026, 12:00");
    expect(marked?.returns).toContain("terminó el 19 nov 2026, 23:59");
    expect(marked?.next).toContain("Tu pedido ya llegó");
  });

  it("an order shipped before business days were counted keeps its calendar days: a delivery already shown never goes back", async () => {
    const shippedAt = new Date("2026-11-02T18:00:00Z");
    const id = await order(shippedAt);
    // As migration 0042 leaves the orders shipped before it.
    await database.db.updateTable("orders").set({ delivery_business_days: 0 }).where("id", "=", id).execute();
    const page = await orderPageOf(database.db, id, shop, new Date("2026-11-10T18:30:00Z"));
    expect(page?.steps.find((s) => s.label === "Entregado")?.at).toBe("9 nov 2026, 12:00");
    expect(page?.returns).toContain("Tienes hasta el 17 nov 2026, 23:59");
  });

  it("a parcel that came late: the day the owner says it arrived counts, past the assumed day, and opens the buyer's window from it", async () => {
    const shippedAt = new Date("2026-11-02T18:00:00Z");
    const id = await order(shippedAt);
    // Assumed delivered Wednesday 11 Nov; its window closed on the 19th. It really came on Friday 20.
    const today = new Date("2026-11-23T18:00:00Z");
    expect((await orderPageOf(database.db, id, shop, today))?.returns).toContain("terminó el 19 nov 2026");
    // Not before it shipped, nor in the future, nor a date that is not one.
    for (const day of ["2026-11-01", "2026-11-24", "2026-11-31", "20-11-2026"])
      expect(await markDeliveredOn(database.db, id, day, 7, today), day).toEqual({
        ok: false,
        reason: "fecha_invalida",
      });
    expect(await markDeliveredOn(database.db, id, "2026-11-20", 7, today)).toEqual({ ok: true });
    const page = await orderPageOf(database.db, id, shop, today);
    expect(page?.steps.find((s) => s.label === "Entregado")?.at).toBe("20 nov 2026, 12:00");
    // Friday 20: five business days are 23, 24, 25, 26, 27 November.
    expect(page?.returns).toContain("Tienes hasta el 27 nov 2026, 23:59 para pedir una devolución");
    // Never the same or an earlier day than it counts from: the window she was told is not shortened.
    expect(await markDeliveredOn(database.db, id, "2026-11-20", 7, today)).toMatchObject({
      ok: false,
      reason: "antes_de_la_entrega",
    });
    expect(await markDeliveredOn(database.db, id, "2026-11-19", 7, today)).toMatchObject({
      ok: false,
      reason: "antes_de_la_entrega",
    });
    expect((await orderPageOf(database.db, id, shop, today))?.returns).toContain(
      "Tienes hasta el 27 nov 2026",
    );
    const marked = await getDeskOrder(database.db, id);
    const titles = (await orderTimeline(database.db, marked as NonNullable<typeof marked>)).map(
      (e) => `${e.title}: ${e.detail}`,
    );
    expect(titles).toContain("Fecha de entrega registrada: Llegó el 20 de noviembre de 2026");
    // An order not shipped has no delivery day.
    expect(await markDeliveredOn(database.db, await order(null), "2026-11-20", 7, today)).toEqual({
      ok: false,
      reason: "no_enviado",
    });
  });

  it("the days in force when an order shipped stay its days: changed later, lowered or raised, they move no delivery nor window", async () => {
    // Shipped Monday 2 Nov with 7 business days in Configuración: counted delivered Wednesday 11 Nov.
    const shippedAt = new Date("2026-11-02T18:00:00Z");
    const id = await order(shippedAt, 7);
    const entregado = (page: Awaited<ReturnType<typeof orderPageOf>>) =>
      page?.steps.find((step) => step.label === "Entregado")?.at;
    // The owner lowers them to 2 on 5 Nov: the order is still on its way, not delivered on 4 Nov.
    const onFifth = new Date("2026-11-05T18:00:00Z");
    const lowered = { ...shop, deliveryDays: 2 };
    expect(entregado(await orderPageOf(database.db, id, lowered, onFifth))).toBeNull();
    expect(await returnChanceOf(database.db, id, 2, onFifth)).toMatchObject({
      open: false,
      reason: "no_entregado",
    });
    const eleventh = new Date("2026-11-11T18:30:00Z");
    expect(entregado(await orderPageOf(database.db, id, lowered, eleventh))).toBe("11 nov 2026, 12:00");
    expect((await orderPageOf(database.db, id, lowered, eleventh))?.returns).toContain(
      "Tienes hasta el 19 nov 2026, 23:59",
    );
    // Raised to 10 on the 11th: the delivery the buyer already saw stays, and so does her window.
    const raised = { ...shop, deliveryDays: 10 };
    expect(entregado(await orderPageOf(database.db, id, raised, eleventh))).toBe("11 nov 2026, 12:00");
    expect(await returnChanceOf(database.db, id, 10, eleventh)).toMatchObject({ open: true });
    // Marked 'Entregado' after the 2 came in: the day it counts from is still the 11th.
    expect(await markDelivered(database.db, [id], 2, eleventh)).toBe(1);
    expect(entregado(await orderPageOf(database.db, id, lowered, eleventh))).toBe("11 nov 2026, 12:00");

    // An order that kept no days (shipped by a path that does not say them) counts with the setting.
    const older = await order(shippedAt);
    expect(entregado(await orderPageOf(database.db, older, lowered, onFifth))).toBe("4 nov 2026, 12:00");

    // Shipped in bulk: the same.
    const bulk = await order(null);
    const parsed = parseBulkCsv(`pedido,guia\n${bulk},EST-1`);
    expect(await shipOrders(database.db, "Estafeta", parsed, shippedAt, 7)).toEqual({
      ok: true,
      shipped: [bulk],
    });
    expect(entregado(await orderPageOf(database.db, bulk, lowered, onFifth))).toBeNull();
  });

  it("migration 0035 gives the orders on their way the days in force then; others keep none", async () => {
    const migrated = await harness.fresh({ migrate: true });
    const shipped = await order(new Date("2026-11-02T18:00:00Z"), undefined, migrated);
    const delivered = await order(new Date("2026-11-02T18:00:00Z"), undefined, migrated);
    expect(await markDelivered(migrated.db, [delivered], 7, new Date("2026-11-04T18:00:00Z"))).toBe(1);
    const paidOnly = await order(null, undefined, migrated);
    const migrator = new Migrator({ db: migrated.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0034_card_funding")).error).toBeUndefined();
    // The owner had set 10 days.
    await migrated.db
      .updateTable("shop_settings")
      .set({ overrides: JSON.stringify({ deliveryDays: 10 }) })
      .where("id", "=", 1)
      .execute();
    expect(await migrateToLatest(migrated)).toEqual(migrationsFrom("0035_delivery_days"));
    const kept = await migrated.db.selectFrom("orders").select(["id", "delivery_days"]).execute();
    const daysOf = new Map(kept.map((row) => [row.id, row.delivery_days]));
    expect([daysOf.get(shipped), daysOf.get(delivered), daysOf.get(paidOnly)]).toEqual([10, null, null]);
    // Lowered later to 2: the order on its way still counts its 10 days (delivered 12 Nov).
    const page = await orderPageOf(
      migrated.db,
      shipped,
      { ...shop, deliveryDays: 2 },
      new Date("2026-11-11T18:00:00Z"),
    );
    expect(page?.steps.find((step) => step.label === "Entregado")?.at).toBeNull();
  });

  /**
   * The order's row held by a transaction of the test: calls started now read it as it stands and
   * then wait to write it, in the order they came, until `release()`. On PostgreSQL a row lock that
   * writes nothing (a version written here would let them race for the next one, in any order); on
   * SQLite the open transaction holds the write lock.
   */
  async function holdRow(id: string) {
    const blocker = await database.db.startTransaction().execute();
    if (harness.dialect === "postgres") {
      await blocker.selectFrom("orders").select("id").where("id", "=", id).forUpdate().execute();
    }
    return { release: () => blocker.commit().execute() };
  }

  const deliveredAtOf = async (id: string) => {
    const row = await database.db
      .selectFrom("orders")
      .select("delivered_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return row.delivered_at === null ? null : toDate(row.delivered_at);
  };

  it("two arrival days given at once: the later one is kept, the earlier one refused, whichever writes last", async () => {
    const id = await order(new Date("2026-11-02T18:00:00Z"));
    const today = new Date("2026-11-23T18:00:00Z");
    const twentieth = new Date("2026-11-20T18:00:00Z");
    const row = await holdRow(id);
    // Both read the order as only assumed delivered (11 Nov); the 20th writes first.
    const later = markDeliveredOn(database.db, id, "2026-11-20", 7, today);
    await untilWaitingOnLocks(database.db, 1);
    const earlier = markDeliveredOn(database.db, id, "2026-11-18", 7, today);
    await untilWaitingOnLocks(database.db, 2);
    await row.release();
    expect(await later).toEqual({ ok: true });
    expect(await earlier).toEqual({ ok: false, reason: "antes_de_la_entrega", since: twentieth });
    expect(await deliveredAtOf(id)).toEqual(twentieth);
  });

  it("'Marcar entregado' today and an earlier arrival day given at once: whichever is written first is never moved to an earlier day", async () => {
    // Shipped 2 Nov, not yet assumed delivered (11 Nov) on the 6th.
    const id = await order(new Date("2026-11-02T18:00:00Z"));
    const sixth = new Date("2026-11-06T18:00:00Z");
    const fifth = new Date("2026-11-05T18:00:00Z");
    const row = await holdRow(id);
    const marking = markDelivered(database.db, [id], 7, sixth);
    await untilWaitingOnLocks(database.db, 1);
    const earlier = markDeliveredOn(database.db, id, "2026-11-05", 7, sixth);
    await untilWaitingOnLocks(database.db, 2);
    await row.release();
    const marked = await marking;
    // PostgreSQL: 'Marcar entregado' waited on the row first and writes first. SQLite: its read and
    // its write are two statements, and the other call's transaction runs between them.
    if (harness.dialect === "postgres") expect(marked).toBe(1);
    if (marked === 1) {
      expect(await earlier).toEqual({ ok: false, reason: "antes_de_la_entrega", since: sixth });
      expect(await deliveredAtOf(id)).toEqual(sixth);
    } else {
      expect(await earlier).toEqual({ ok: true });
      expect(await deliveredAtOf(id)).toEqual(fifth);
    }
  });
});
