import { expect, it } from "vitest";
import type { Database, Db } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { parseBulkCsv, problemText } from "~/orders/bulk-ship";
import { shipOrders } from "~/orders/bulk-ship.server";
import { shipOrder } from "~/orders/desk.server";
import { confirmPayment } from "~/orders/payment.server";
import { oaxacaAddress, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

/** `count` paid orders (pendiente), one piece each, each from its own buyer. */
async function paidOrders(database: Database, count: number): Promise<string[]> {
  const piece = await runningPiece(database, { stock: count + 5 });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const held = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    const outcome = await confirmPayment(database.db, {
      orderId: held.id,
      customerName: `Cliente ${i + 1}`,
      customerEmail: `cliente-${i + 1}-${newId(6)}@example.mx`,
      shipping: oaxacaAddress(`Cliente ${i + 1}`, "951 123 4567"),
    });
    expect(outcome).toBe("paid");
    ids.push(held.id);
  }
  return ids;
}

/** What a batch could change: every order's status and tracking, every event and shipment e-mail. */
async function snapshot(db: Db) {
  return {
    orders: await db
      .selectFrom("orders")
      .select(["id", "status", "carrier", "tracking_number", "shipped_at"])
      .orderBy("id")
      .execute(),
    events: await db.selectFrom("order_events").select(["order_id", "kind"]).orderBy("id").execute(),
    notices: await db
      .selectFrom("emails")
      .select(["order_id", "recipient"])
      .where("kind", "=", "envio")
      .execute(),
  };
}

const csvOf = (ids: string[]) => ["pedido,guía", ...ids.map((id, i) => `${id},EST-${1000 + i}`)].join("\n");

describeEachDatabase("orders desk: 'Atender seleccionados'", (harness) => {
  it("20 orders from a pasted CSV: all 20 'enviado' with their own tracking, 20 shipment e-mails queued", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const ids = await paidOrders(database, 20);
    const parsed = parseBulkCsv(csvOf(ids));
    expect(parsed.problems).toEqual([]);
    expect(parsed.lines[0]).toEqual({ line: 2, orderId: ids[0], trackingNumber: "EST-1000" });

    expect(await shipOrders(db, "Estafeta", parsed)).toEqual({ ok: true, shipped: ids });
    const after = await snapshot(db);
    expect(after.orders.map((o) => o.status)).toEqual(Array(20).fill("enviado"));
    for (const [i, id] of ids.entries()) {
      expect(after.orders.find((o) => o.id === id)).toMatchObject({
        carrier: "Estafeta",
        tracking_number: `EST-${1000 + i}`,
      });
    }
    expect(after.events.filter((e) => e.kind === "enviado")).toHaveLength(20);
    expect(new Set(after.notices.map((n) => n.order_id))).toEqual(new Set(ids));
    expect(after.notices).toHaveLength(20);
  });

  it("a CSV with bad lines (unknown order on line 7, empty tracking on line 12, a duplicate, a shipped one): every problem by its line, nothing shipped", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const ids = await paidOrders(database, 20);
    const lines = csvOf(ids).split("\n"); // line 1 is the header; order i is on line i + 2
    lines[6] = "OL-ZZZZZZZZ,EST-7777"; // line 7: an order number never issued
    lines[11] = `${ids[10]},`; // line 12: no tracking number
    lines[16] = `${ids[15]},EST-1015`; // line 17: shipped meanwhile by the single 'Atender pedido'
    expect((await shipOrder(db, ids[15] ?? "", { carrier: "DHL Express", trackingNumber: "DHL-1" })).ok).toBe(
      true,
    );
    const before = await snapshot(db);
    const result = await shipOrders(db, "Estafeta", parseBulkCsv(lines.join("\n")));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe("lineas");
    expect(result.problems.map((p) => problemText(p, "csv"))).toEqual([
      "Línea 7: el pedido OL-ZZZZZZZZ no existe.",
      `Línea 12: falta el número de guía del pedido ${ids[10]}.`,
      `Línea 17: el pedido ${ids[15]} ya no está pendiente (está «enviado»).`,
    ]);
    expect(await snapshot(db)).toEqual(before);

    // Duplicates and malformed lines are told before the database is asked.
    const dup = parseBulkCsv(`${ids[0]},EST-1\nnada,EST-2\n\n${ids[0]};EST-3\n${ids[1]},EST-4,extra`);
    expect(dup.problems.map((p) => problemText(p, "csv"))).toEqual([
      "Línea 2: «NADA» no es un número de pedido (se ven como OL-ABCD2345).",
      `Línea 4: el pedido ${ids[0]} ya está en la línea 1.`,
      "Línea 5: sobran columnas: cada línea lleva «pedido,guía».",
    ]);
  });

  it("another tab ships one of the batch meanwhile: the whole batch is refused, naming it, and nothing is half-done", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const ids = await paidOrders(database, 12);
    const parsed = parseBulkCsv(csvOf(ids));
    for (let round = 0; round < 3; round++) {
      const pending = (
        await db.selectFrom("orders").select("id").where("status", "=", "pendiente").orderBy("id").execute()
      ).map((r) => r.id);
      const lines = parsed.lines.filter((l) => pending.includes(l.orderId));
      const other = lines[lines.length - 1 - round]?.orderId ?? "";
      const [batch, single] = await Promise.all([
        shipOrders(db, "Estafeta", { lines, problems: [] }),
        shipOrder(db, other, { carrier: "DHL Express", trackingNumber: `DHL-${round}` }),
      ]);
      const after = await snapshot(db);
      const shipped = after.orders.filter((o) => o.status === "enviado");
      if (batch.ok) {
        // The batch went first: the other tab was refused; every order of the batch is shipped once.
        expect(single.ok, `round ${round}`).toBe(false);
        expect(shipped.filter((o) => lines.some((l) => l.orderId === o.id))).toHaveLength(lines.length);
        expect(after.notices).toHaveLength(shipped.length);
        return;
      }
      // The other tab won: nothing of the batch shipped but that one order, and it is named.
      expect(single.ok).toBe(true);
      expect(batch.problems.map((p) => p.orderId)).toEqual([other]);
      expect(batch.problems[0]?.message).toMatch(/ya no está pendiente \(está «enviado»\)/);
      expect(shipped.filter((o) => o.carrier === "Estafeta")).toEqual([]);
      expect(after.notices.map((n) => n.order_id).sort()).toEqual(shipped.map((o) => o.id).sort());
    }
  });

  it("an order shipped by another tab after the check, before the batch's transaction: the batch rolls back and names it", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const ids = await paidOrders(database, 6);
    const parsed = parseBulkCsv(csvOf(ids));
    const other = ids[3] ?? "";
    // The other tab's 'Atender pedido' lands between the batch's checks and its transaction.
    const interfering = new Proxy(db, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop !== "transaction") return typeof value === "function" ? value.bind(target) : value;
        return () => ({
          execute: async (run: Parameters<ReturnType<Db["transaction"]>["execute"]>[0]) => {
            expect((await shipOrder(db, other, { carrier: "DHL Express", trackingNumber: "DHL-9" })).ok).toBe(
              true,
            );
            return target.transaction().execute(run);
          },
        });
      },
    });
    const before = await snapshot(db);
    const result = await shipOrders(interfering, "Estafeta", parsed);
    expect(result).toEqual({
      ok: false,
      reason: "conflicto",
      problems: [
        {
          line: 5,
          orderId: other,
          message: `el pedido ${other} ya no está pendiente (está «enviado»). Cambió mientras se atendían los demás.`,
        },
      ],
    });
    const after = await snapshot(db);
    // Only the other tab's shipment happened: its order, its event, its one notice.
    expect(after.orders.filter((o) => o.status === "enviado").map((o) => [o.id, o.carrier])).toEqual([
      [other, "DHL Express"],
    ]);
    expect(after.events.length - before.events.length).toBe(1);
    expect(after.notices.map((n) => n.order_id)).toEqual([other]);
  });
});
