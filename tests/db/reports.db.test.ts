import { beforeAll, expect, it } from "vitest";
import { campaignDrop } from "~/campaigns/waitlists.server";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import type { Database, Db } from "~/db/database.server";
import type { OrderStatus } from "~/db/schema";
import { newId } from "~/lib/ids";
import { reportCsv } from "~/reports/csv";
import { type Report, sellThroughText, soldOutText } from "~/reports/report";
import { loadReport } from "~/reports/reports.server";
import { describeEachDatabase } from "../support/databases";

/*
 * A fixed shop whose figures are worked out by hand below. Mexico City is UTC-6 all year (no
 * summer time since 2022), so 23:30 there on 31 October is 05:30 UTC on 1 November.
 *
 * "Noche de Muertos" opens 2026-10-31 20:00 Mexico City (02:00Z 1 Nov) and ends 2026-11-01 20:00:
 * it crosses midnight in Mexico City.
 *   Anillo Catrina      $1,000.00   stock now 0, nothing held
 *   =Arete Cempasúchil  $500.00     stock now 2, 1 held by an unpaid checkout (a name a
 *                                   spreadsheet would run as a formula)
 * "Luna de Octubre" runs 10–20 October.
 *   Collar Luna         $2,500.00   stock now 1
 *
 * Orders (paid time in Mexico City):
 *   A  pendiente  31 Oct 23:30 (UTC: 1 Nov 05:30)  Catrina ×2 + Arete ×1 = 2,000 + 500 = $2,500.00  Ana@Example.com
 *   B  enviado     1 Nov 00:30                     Catrina ×1            = $1,000.00                luis@example.com
 *   C  pendiente   1 Nov 10:00, stock_issue        Arete ×1 (missing 1)  = $500.00, to refund by hand
 *   D  archivado  12 Oct 12:00                     Collar ×1             = $2,500.00
 *   E  expirado   (never paid)                     Arete ×1              — not a sale
 *   F  esperando_pago (holding)                    Arete ×1              — not a sale; its piece is held
 */
const CDMX = (wall: string) => new Date(`${wall}-06:00`);

interface Fixture {
  muertos: string;
  luna: string;
}

/** A paid (or not) order of these lines, written as the shop stores one; its id. */
async function insertOrder(
  db: Db,
  status: OrderStatus,
  paidAt: Date | null,
  email: string,
  lines: {
    product: { id: string; name: string; priceCents: number };
    dropId: string;
    quantity: number;
    missing?: number;
  }[],
  stockIssue: string | null = null,
  shippingCents = 0,
): Promise<string> {
  const id = `OL-${newId(8).toUpperCase()}`;
  const stamp = (paidAt ?? CDMX("2026-11-01T12:00:00")).toISOString();
  await db
    .insertInto("orders")
    .values({
      id,
      status,
      total_cents: lines.reduce((s, l) => s + l.product.priceCents * l.quantity, 0) + shippingCents,
      shipping_cents: shippingCents,
      currency: "mxn",
      customer_name: "Cliente",
      customer_email: email,
      payment_provider: "demo",
      payment_session_id: null,
      expires_at: stamp,
      paid_at: paidAt ? paidAt.toISOString() : null,
      stock_issue: stockIssue,
      ship_name: null,
      ship_phone: null,
      ship_line1: null,
      ship_line2: null,
      ship_city: null,
      ship_state: null,
      ship_postal_code: null,
      ship_country: null,
      tracking_number: null,
      carrier: null,
      shipped_at: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  await db
    .insertInto("order_lines")
    .values(
      lines.map((l, position) => ({
        order_id: id,
        position,
        product_id: l.product.id,
        drop_id: l.dropId,
        name: l.product.name,
        unit_price_cents: l.product.priceCents,
        quantity: l.quantity,
        missing: l.missing ?? 0,
      })),
    )
    .execute();
  return id;
}

async function seed(database: Database): Promise<Fixture> {
  const db = database.db;
  const piece = (name: string, priceCents: number, stock: number) => ({
    name,
    priceCents,
    stock,
    categoria: "Anillo" as const,
    material: "Oro amarillo" as const,
    imageId: null,
  });
  const muertos = await createDrop(db, {
    name: "Noche de Muertos",
    status: "activa",
    startAt: CDMX("2026-10-31T20:00:00"),
    endAt: CDMX("2026-11-01T20:00:00"),
    products: [piece("Anillo Catrina", 100_000, 0), piece("=Arete Cempasúchil", 50_000, 2)],
  });
  const luna = await createDrop(db, {
    name: "Luna de Octubre",
    status: "archivada",
    startAt: CDMX("2026-10-10T10:00:00"),
    endAt: CDMX("2026-10-20T10:00:00"),
    products: [piece("Collar Luna", 250_000, 1)],
  });
  const [catrina, arete] = (await getDrop(db, muertos))?.products ?? [];
  const [collar] = (await getDrop(db, luna))?.products ?? [];
  if (!catrina || !arete || !collar) throw new Error("products missing");

  const ids: string[] = [];
  const order = async (
    ...args: Parameters<typeof insertOrder> extends [Db, ...infer Rest] ? Rest : never
  ) => {
    ids.push(await insertOrder(db, ...args));
  };
  await order("pendiente", CDMX("2026-10-31T23:30:00"), "Ana@Example.com", [
    { product: catrina, dropId: muertos, quantity: 2 },
    { product: arete, dropId: muertos, quantity: 1 },
  ]);
  await order("enviado", CDMX("2026-11-01T00:30:00"), "luis@example.com", [
    { product: catrina, dropId: muertos, quantity: 1 },
  ]);
  await order(
    "pendiente",
    CDMX("2026-11-01T10:00:00"),
    "rosa@example.com",
    [{ product: arete, dropId: muertos, quantity: 1, missing: 1 }],
    "Pagado después de vencer el apartado, sin stock para: =Arete Cempasúchil × 1",
  );
  await order("archivado", CDMX("2026-10-12T12:00:00"), "ines@example.com", [
    { product: collar, dropId: luna, quantity: 1 },
  ]);
  await order("expirado", null, "ana@example.com", [{ product: arete, dropId: muertos, quantity: 1 }]);
  await order("esperando_pago", null, "carla@example.com", [
    { product: arete, dropId: muertos, quantity: 1 },
  ]);
  // G: paid, then cancelled by the shop with its refund ($1,000.00), and H: cancelled the same way,
  // its refund still with the provider ($500.00). Refunded: outside the sales.
  for (const [quantity, product, refund] of [
    [1, catrina, "hecho"],
    [1, arete, "pendiente"],
  ] as const) {
    await order("cancelado", CDMX("2026-11-01T11:00:00"), "mara@example.com", [
      { product, dropId: muertos, quantity },
    ]);
    await db
      .insertInto("refunds")
      .values({
        order_id: ids.at(-1) ?? "",
        amount_cents: product.priceCents * quantity,
        currency: "mxn",
        provider: "demo",
        reason: "Cancelado por la tienda",
        status: refund,
        created_at: CDMX("2026-11-01T12:00:00").toISOString(),
      })
      .execute();
  }

  // 'Avísame' for Noche de Muertos: two confirmed addresses, one never confirmed, one that
  // confirmed and then left the list.
  const stamp = CDMX("2026-10-20T09:00:00").toISOString();
  for (const [email, confirmed, left] of [
    ["ana@example.com", true, false],
    ["carla@example.com", true, false],
    ["pedro@example.com", false, false],
    ["ines@example.com", true, true],
  ] as const) {
    await db
      .insertInto("waitlist_subscriptions")
      .values({
        id: newId(),
        drop_id: muertos,
        email,
        status: left ? "baja" : confirmed ? "confirmada" : "pendiente",
        site_url: "http://127.0.0.1",
        created_at: stamp,
        confirmation_sent_at: stamp,
        confirmed_at: confirmed ? stamp : null,
        unsubscribed_at: left ? stamp : null,
        notified_at: null,
      })
      .execute();
  }
  return { muertos, luna };
}

async function report(database: Database, scope: Parameters<typeof loadReport>[1]): Promise<Report> {
  const result = await loadReport(database.db, scope);
  if (!result.ok) throw new Error(result.reason);
  return result.report;
}

describeEachDatabase("reports", (harness) => {
  let database: Database;
  let fixture: Fixture;
  beforeAll(async () => {
    database = await harness.fresh();
    fixture = await seed(database);
  });

  it("a drop: sales, orders, average, pieces, sell-through, sell-out time, waitlist; the refund apart", async () => {
    const r = await report(database, { kind: "drop", dropId: fixture.muertos });
    // A + B: 2,500 + 1,000 = $3,500.00 over 2 orders (average $1,750.00), 3 + 1 = 4 pieces.
    // C (stock_issue) and E, F (unpaid) are not in them.
    expect(r.figures).toEqual({ netCents: 350_000, orders: 2, averageCents: 175_000, pieces: 4 });
    // C alone: 1 order, 1 piece, $500.00.
    expect(r.refunds).toEqual({ orders: 1, cents: 50_000, pieces: 1 });
    // G and H, cancelled with their refunds: counted apart, one refund still with the provider.
    expect(r.cancelled).toEqual({ orders: 2, cents: 150_000, pending: 1, byHand: 0 });
    const [catrina, arete] = r.products;
    // Catrina: 2 (A) + 1 (B) sold, nothing left or held: 3 offered, 100 %. Its last piece sold at
    // 00:30 (B), 4 h 30 min after the 20:00 opening.
    expect(catrina).toMatchObject({ name: "Anillo Catrina", pieces: 3, netCents: 300_000, offered: 3 });
    expect(sellThroughText(catrina?.pieces ?? 0, catrina?.offered ?? 0)).toBe("100 %");
    expect(soldOutText(catrina?.soldOutAfterMs ?? null)).toBe("4 h 30 min");
    // Arete: 1 sold (A); offered 2 in stock + 1 held (F) + 1 taken (A) = 4 (C took none): 25 %.
    expect(arete).toMatchObject({ name: "=Arete Cempasúchil", pieces: 1, netCents: 50_000, offered: 4 });
    expect(soldOutText(arete?.soldOutAfterMs ?? null)).toBe("Sin agotar");
    // Confirmed: ana and carla (pedro never confirmed); ana bought (order A as Ana@Example.com).
    expect(r.waitlist).toEqual({ confirmed: 2, bought: 1 });
    // One count of confirmed sign-ups: the same as Campañas says.
    expect((await campaignDrop(database.db, fixture.muertos))?.counts.confirmadas).toBe(2);
    // The drop's days in Mexico City: 31 Oct (A) and 1 Nov (B), although both are 1 Nov in UTC.
    expect(r.series.map((p) => [p.key, p.orders, p.pieces, p.netCents])).toEqual([
      ["2026-10-31", 1, 3, 250_000],
      ["2026-11-01", 1, 1, 100_000],
    ]);
    expect(r.top.map((p) => [p.name, p.pieces])).toEqual([
      ["Anillo Catrina", 3],
      ["=Arete Cempasúchil", 1],
    ]);
  });

  it("a month counts days in Mexico City: 31 Oct 23:30 is October's, though November in UTC", async () => {
    const october = await report(database, { kind: "month", month: "2026-10" });
    // A (31 Oct 23:30, $2,500.00, 3 pieces) + D (12 Oct, $2,500.00, 1 piece) = $5,000.00, 2 orders,
    // average $2,500.00, 4 pieces. In UTC, A would have been November's.
    expect(october.figures).toEqual({ netCents: 500_000, orders: 2, averageCents: 250_000, pieces: 4 });
    expect(october.refunds).toEqual({ orders: 0, cents: 0, pieces: 0 });
    expect(october.series).toHaveLength(31);
    expect(october.series.filter((p) => p.orders > 0).map((p) => p.key)).toEqual([
      "2026-10-12",
      "2026-10-31",
    ]);
    // By drop: Luna $2,500.00 (D), Noche de Muertos $2,500.00 (A's share); equal sales go by name.
    expect(october.drops.map((d) => [d.name, d.netCents, d.orders])).toEqual([
      ["Luna de Octubre", 250_000, 1],
      ["Noche de Muertos", 250_000, 1],
    ]);

    const november = await report(database, { kind: "month", month: "2026-11" });
    // B only: $1,000.00, 1 order, 1 piece; C shown apart ($500.00).
    expect(november.figures).toEqual({ netCents: 100_000, orders: 1, averageCents: 100_000, pieces: 1 });
    expect(november.refunds).toEqual({ orders: 1, cents: 50_000, pieces: 1 });
    expect(november.series).toHaveLength(30);

    const empty = await report(database, { kind: "month", month: "2026-09" });
    expect(empty.figures).toEqual({ netCents: 0, orders: 0, averageCents: 0, pieces: 0 });
  });

  it("the whole shop: months, drops with their sell-through and waitlist, top pieces", async () => {
    const r = await report(database, { kind: "all" });
    // A + B + D = 2,500 + 1,000 + 2,500 = $6,000.00, 3 orders (average $2,000.00), 3 + 1 + 1 = 5 pieces.
    expect(r.figures).toEqual({ netCents: 600_000, orders: 3, averageCents: 200_000, pieces: 5 });
    expect(r.refunds).toEqual({ orders: 1, cents: 50_000, pieces: 1 });
    expect(r.months.map((m) => [m.month, m.netCents, m.orders, m.pieces])).toEqual([
      ["2026-10", 500_000, 2, 4],
      ["2026-11", 100_000, 1, 1],
    ]);
    expect(r.series.map((p) => [p.key, p.netCents])).toEqual([
      ["2026-10", 500_000],
      ["2026-11", 100_000],
    ]);
    // Muertos: 4 sold of 3 + 4 = 7 offered (57.1 %); Luna: 1 sold of 1 + 1 in stock = 2 (50 %).
    expect(
      r.drops.map((d) => [d.name, d.netCents, d.orders, d.pieces, sellThroughText(d.sold, d.offered)]),
    ).toEqual([
      ["Noche de Muertos", 350_000, 2, 4, "57.1 %"],
      ["Luna de Octubre", 250_000, 1, 1, "50 %"],
    ]);
    expect(r.drops[0]?.waitlist).toEqual({ confirmed: 2, bought: 1 });
    expect(r.drops[1]?.waitlist).toBeNull();
    // A drop nobody confirmed for shows no 'Avísame' line of its own.
    expect((await report(database, { kind: "drop", dropId: fixture.luna })).waitlist).toBeNull();
    // Most pieces first; equal pieces go by sales (Collar $2,500.00 before Arete $500.00).
    expect(r.top.map((p) => [p.name, p.pieces, p.netCents])).toEqual([
      ["Anillo Catrina", 3, 300_000],
      ["Collar Luna", 1, 250_000],
      ["=Arete Cempasúchil", 1, 50_000],
    ]);
    const result = await loadReport(database.db, { kind: "all" });
    expect(result.ok && result.months).toEqual(["2026-11", "2026-10"]);
  });

  it("an order paid late with some pieces gone: the pieces sent and its shipping are sales, only the missing ones go back", async () => {
    const own = await harness.fresh();
    const piece = (name: string, priceCents: number) => ({
      name,
      priceCents,
      stock: 0,
      categoria: "Anillo" as const,
      material: "Oro amarillo" as const,
      imageId: null,
    });
    const dropId = await createDrop(own.db, {
      name: "Mar de Noviembre",
      status: "activa",
      startAt: CDMX("2026-11-02T10:00:00"),
      endAt: CDMX("2026-11-09T10:00:00"),
      products: [piece("Anillo Ola", 800_000), piece("Anillo Espuma", 400_000)],
    });
    const [ola, espuma] = (await getDrop(own.db, dropId))?.products ?? [];
    if (!ola || !espuma) throw new Error("products missing");
    await insertOrder(
      own.db,
      "pendiente",
      CDMX("2026-11-03T12:00:00"),
      "sol@example.com",
      [
        { product: ola, dropId, quantity: 1 },
        { product: espuma, dropId, quantity: 1, missing: 1 },
      ],
      "Pagado después de vencer el apartado, sin stock para: Anillo Espuma × 1",
      15_000,
    );
    const r = await report(own, { kind: "all" });
    expect(r.figures).toMatchObject({ netCents: 800_000, orders: 1, pieces: 1 });
    expect(r.refunds).toEqual({ orders: 1, cents: 400_000, pieces: 1 });
    expect(r.shipping).toEqual({ orders: 1, cents: 15_000 });
    expect(r.top.map((p) => [p.name, p.pieces])).toEqual([["Anillo Ola", 1]]);
  });

  it("an unknown drop is refused", async () => {
    expect(await loadReport(database.db, { kind: "drop", dropId: "nohaytalcoleccion" })).toEqual({
      ok: false,
      reason: "no_encontrado",
    });
  });

  it("the CSV: BOM, Spanish headers, pesos with 2 decimals, the refund apart, a formula defused", async () => {
    const csv = reportCsv(await report(database, { kind: "drop", dropId: fixture.muertos }));
    expect(csv).toBe(
      [
        '\uFEFF"Reporte","Noche de Muertos"',
        '"Ventas netas (MXN)","3500.00"',
        '"Pedidos pagados","2"',
        '"Ticket promedio (MXN)","1750.00"',
        '"Piezas vendidas","4"',
        '"Pedidos para reembolsar a mano (fuera de las ventas)","1"',
        '"Monto para reembolsar a mano (MXN)","500.00"',
        '"Pedidos con piezas faltantes en reembolso por el proveedor","0"',
        '"Monto en reembolso por el proveedor (MXN)","0.00"',
        '"Pedidos cancelados y reembolsados (fuera de las ventas)","2"',
        '"Monto reembolsado o en curso (MXN)","1500.00"',
        '"Reembolsos aún en el proveedor de pagos","1"',
        '"Cancelaciones por reembolsar a mano","0"',
        '"Devoluciones recibidas","0"',
        '"Piezas devueltas","0"',
        '"Monto de devoluciones reembolsado o en curso (MXN)","0.00"',
        '"Devoluciones con reembolso pendiente","0"',
        '"Avísame: correos confirmados","2"',
        '"Avísame: compraron","1"',
        "",
        '"Colección","Pieza","Piezas vendidas","Ventas netas (MXN)","Piezas ofrecidas","Vendido (%)","Tiempo para agotarse"',
        '"Noche de Muertos","Anillo Catrina","3","3000.00","3","100 %","4 h 30 min"',
        // A spreadsheet would run "=Arete…" as a formula: it gets an apostrophe.
        '"Noche de Muertos","\'=Arete Cempasúchil","1","500.00","4","25 %","Sin agotar"',
        "",
        '"Día","Pedidos pagados","Piezas vendidas","Ventas netas (MXN)"',
        '"2026-10-31","1","3","2500.00"',
        '"2026-11-01","1","1","1000.00"',
        "",
      ].join("\r\n"),
    );
  });
});
