import { expect, it } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import type { Database } from "~/db/database.server";
import { confirmPayment } from "~/orders/payment.server";
import { monthKey } from "~/reports/calendar";
import { reportCsv } from "~/reports/csv";
import { type Report, type ReportScope, sellThroughText } from "~/reports/report";
import { loadReport } from "~/reports/reports.server";
import { sizesText } from "~/reports/sizes";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

/*
 * Reportes per size (issue 24): a sized ring's row is followed by its sizes, each with the pieces
 * sold and left, so the owner sees which sizes sell; a piece without sizes reads as before.
 *
 * 'Mareas' runs now. Anillo Marea $4,500.00 in sizes 6 (1), 7 (4), 8 (2); Cadena Sola $2,000.00 (3).
 *   A  paid      7 ×2 + Cadena ×1
 *   B  paid      7 ×1 + 8 ×1
 *   C  unpaid    8 ×1 (held: size 8 has 0 left and 1 held)
 */
const HOUR = 3_600_000;

async function shop(database: Database) {
  const dropId = await createDrop(database.db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(Date.now() - HOUR),
    endAt: new Date(Date.now() + HOUR),
    products: [
      {
        name: "Anillo Marea",
        categoria: "Anillo",
        material: "Oro amarillo",
        priceCents: 450_000,
        stock: 0,
        imageId: null,
        option: {
          name: "Talla",
          values: [
            { value: "6", stock: 1 },
            { value: "7", stock: 4 },
            { value: "8", stock: 2 },
          ],
        },
      },
      {
        name: "Cadena Sola",
        categoria: "Collar",
        material: "Oro rosa",
        priceCents: 200_000,
        stock: 3,
        imageId: null,
      },
    ],
  });
  const [ring, chain] = (await getDrop(database.db, dropId))?.products ?? [];
  if (!ring?.option || !chain) throw new Error("products missing");
  const size = (value: string) => ring.option?.values.find((v) => v.value === value)?.id ?? "";
  const sized = (value: string, quantity: number) => ({
    productId: ring.id,
    dropId,
    quantity,
    optionId: size(value),
  });
  const buy = async (lines: Parameters<typeof hold>[1]["lines"], pay: boolean) => {
    const order = await hold(database.db, { lines, provider: "demo" });
    if (pay) {
      const paid = await confirmPayment(database.db, {
        orderId: order.id,
        customerName: "Ana",
        customerEmail: "ana@example.mx",
      });
      expect(paid).toBe("paid");
    }
  };
  await buy([sized("7", 2), { productId: chain.id, dropId, quantity: 1 }], true);
  await buy([sized("7", 1), sized("8", 1)], true);
  await buy([sized("8", 1)], false);
  return { dropId, ring: ring.id, size };
}

async function report(database: Database, scope: ReportScope): Promise<Report> {
  const result = await loadReport(database.db, scope);
  if (!result.ok) throw new Error(result.reason);
  return result.report;
}

describeEachDatabase("reports per size", (harness) => {
  it("a drop: each size's pieces sold and left under the ring's row, in the CSV one row per size; the chain as before", async () => {
    const database = await harness.fresh();
    const { dropId } = await shop(database);
    const r = await report(database, { kind: "drop", dropId });
    const [ring, chain] = r.products;
    // 2 + 1 of size 7 and 1 of size 8; offered: 2 left + 1 held + 4 taken = 7.
    expect(ring).toMatchObject({ name: "Anillo Marea", pieces: 4, netCents: 1_800_000, offered: 7 });
    expect(ring?.option).toEqual({
      name: "Talla",
      sizes: [
        { value: "6", pieces: 0, netCents: 0, stock: 1, offered: 1, kept: 0 },
        { value: "7", pieces: 3, netCents: 1_350_000, stock: 1, offered: 4, kept: 3 },
        // One sold, one held by C: none left, two offered.
        { value: "8", pieces: 1, netCents: 450_000, stock: 0, offered: 2, kept: 1 },
      ],
    });
    expect(ring?.option && sizesText(ring.option)).toBe(
      "Talla 6: 0 vendidas · quedan 1; Talla 7: 3 vendidas · quedan 1; Talla 8: 1 vendida · quedan 0",
    );
    expect(chain).toMatchObject({ name: "Cadena Sola", pieces: 1, offered: 3, option: null });

    const csv = reportCsv(r).split("\r\n");
    const header = csv.indexOf(
      '"Colección","Pieza","Piezas vendidas","Ventas netas (MXN)","Piezas ofrecidas","Vendido (%)","Tiempo para agotarse","Talla o largo","Quedan"',
    );
    expect(header).toBeGreaterThan(0);
    expect(csv.slice(header + 1, header + 6)).toEqual([
      '"Mareas","Anillo Marea","4","18000.00","7","57.1 %","Sin agotar","",""',
      '"Mareas","Anillo Marea","0","0.00","1","0 %","","Talla 6","1"',
      '"Mareas","Anillo Marea","3","13500.00","4","75 %","","Talla 7","1"',
      '"Mareas","Anillo Marea","1","4500.00","2","50 %","","Talla 8","0"',
      '"Mareas","Cadena Sola","1","2000.00","3","33.3 %","Sin agotar","",""',
    ]);
  });

  it("a month: what sold of each size that month; the whole shop: sizes with what is left", async () => {
    const database = await harness.fresh();
    await shop(database);
    const month = await report(database, { kind: "month", month: monthKey(new Date()) });
    // One row per piece, named as the piece (its lines are named with their sizes).
    expect(month.products.map((p) => p.name).sort()).toEqual(["Anillo Marea", "Cadena Sola"]);
    const ring = month.products.find((p) => p.name === "Anillo Marea");
    expect(ring?.option).toEqual({
      name: "Talla",
      sizes: [
        { value: "7", pieces: 3, netCents: 1_350_000, stock: null, offered: null, kept: 3 },
        { value: "8", pieces: 1, netCents: 450_000, stock: null, offered: null, kept: 1 },
      ],
    });
    expect(month.products.find((p) => p.name === "Cadena Sola")?.option).toBeNull();
    const csv = reportCsv(month);
    expect(csv).toContain('"Mareas","Anillo Marea","3","13500.00","Talla 7"\r\n');
    const all = await report(database, { kind: "all" });
    const top = all.top.find((p) => p.name === "Anillo Marea");
    expect(top?.option && sizesText(top.option)).toBe(
      "Talla 6: 0 vendidas · quedan 1; Talla 7: 3 vendidas · quedan 1; Talla 8: 1 vendida · quedan 0",
    );
  });

  it("a piece the owner took off the drop after it sold keeps a row of its own, its sales counted, nothing offered", async () => {
    const database = await harness.fresh();
    const { dropId } = await shop(database);
    const before = await report(database, { kind: "drop", dropId });
    await database.db.deleteFrom("products").where("name", "=", "Cadena Sola").execute();
    const after = await report(database, { kind: "drop", dropId });
    expect(after.figures).toEqual(before.figures);
    const chain = after.products.find((p) => p.name === "Cadena Sola");
    expect(chain).toMatchObject({ pieces: 1, offered: null, soldOutAfterMs: null, option: null });
    expect(sellThroughText(chain?.kept ?? 0, chain?.offered ?? null)).toBe("—");
    expect(reportCsv(after)).toContain('"Mareas","Cadena Sola","1"');
  });

  it("a size the owner removed keeps its sales, apart and with no stock of its own", async () => {
    const database = await harness.fresh();
    const { dropId, size } = await shop(database);
    // Size 7 sold 3 and has 1 left; the owner takes it off the ring (and its piece off the sum).
    await database.db.deleteFrom("product_options").where("id", "=", size("7")).execute();
    const [ring] = (await report(database, { kind: "drop", dropId })).products;
    expect(ring?.option?.sizes.map((s) => [s.value, s.pieces, s.stock])).toEqual([
      ["6", 0, 1],
      ["8", 1, 0],
      ["7", 3, null],
    ]);
  });
});
