import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { campaignDrop, pastCampaigns } from "~/campaigns/waitlists.server";
import { countDrops, getDrop, listDrops } from "~/catalogue/catalogue.server";
import { dropTimeState } from "~/catalogue/drop-time";
import { PRICE_RANGES } from "~/catalogue/filters";
import { toDate } from "~/db/database.server";
import { CATEGORIAS, MATERIALES } from "~/db/taxonomy";
import { DEMO_DROPS } from "~/demo/catalogue";
import { DEMO_ORDERS } from "~/demo/history";
import { isDemoOrderId } from "~/demo/history.server";
import { progressLines, seedDemoOnFirstStart } from "~/demo/seed.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { countPending, getDeskOrder, listOrders } from "~/orders/desk.server";
import { loadReport } from "~/reports/reports.server";
import { describeEachDatabase } from "../support/databases";
import { DEMO_ART_CACHE_DIR } from "../support/server-process";

// Drawing the demo catalogue's images takes a while on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const mediaRoot = fs.mkdtempSync(path.join(os.tmpdir(), "shop-media-"));
// The test servers' folder of drawn images (DEMO_ART_CACHE), kept by content (the pipeline's
// source file among it, the same text here and in the built server): whichever draws the catalogue
// first in a run, a test server or this file, the others copy it (a minute of CPU less).
const artCache = DEMO_ART_CACHE_DIR;
afterAll(() => fs.rmSync(mediaRoot, { recursive: true, force: true }));

describeEachDatabase("demo catalogue", (harness) => {
  it("fills an empty shop once, with one drop in each situation and real images", async () => {
    const database = await harness.fresh();
    const storage = createLocalStorage(path.join(mediaRoot, harness.dialect));
    const now = new Date();

    const progress: [number, number][] = [];
    const lines: string[] = [];
    const printed = progressLines((line) => lines.push(line));
    const onProgress = (done: number, total: number) => {
      progress.push([done, total]);
      printed(done, total);
    };
    expect(await seedDemoOnFirstStart(database.db, storage, { now, onProgress, artCache })).toBe(true);
    const drops = await listDrops(database.db);
    expect(drops).toHaveLength(4);
    // Progress counts every image once, up to the number stored; the log says it in a few lines.
    const stored = await database.db.selectFrom("media").select("id").execute();
    expect(progress.map(([done]) => done)).toEqual(stored.map((_, i) => i + 1));
    expect(progress.every(([, total]) => total === stored.length)).toBe(true);
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(lines.at(-1)).toBe(
      `Catálogo de demostración: ${stored.length} de ${stored.length} imágenes dibujadas.`,
    );

    const states = drops.map((d) => (d.status === "archivada" ? "archivada" : dropTimeState(d, now)));
    expect(new Set(states)).toEqual(new Set(["running", "pending", "ended", "archivada"]));

    const products = drops.flatMap((d) => d.products);
    expect(products.length).toBeGreaterThanOrEqual(28);
    expect(new Set(products.map((p) => p.categoria))).toEqual(new Set(CATEGORIAS));
    expect(new Set(products.map((p) => p.material))).toEqual(new Set(MATERIALES));
    for (const range of PRICE_RANGES) {
      expect(products.some((p) => p.priceCents >= range.min && p.priceCents < range.max)).toBe(true);
    }
    expect(products.some((p) => p.stock === 0)).toBe(true);
    expect(products.every((p) => Number.isInteger(p.priceCents) && p.priceCents > 0)).toBe(true);
    // Every piece says its metal: karat and weight stored (2.35 g as 2350 mg), stones where it has them.
    expect(products.every((p) => p.metal.karat !== null && p.metal.weightMg !== null)).toBe(true);
    expect(products.find((p) => p.name === "Anillo Marea")?.metal).toEqual({
      karat: 14,
      weightMg: 2350,
      stones: "Perla de agua dulce de 6 mm",
    });
    expect(new Set(products.map((p) => p.metal.karat))).toEqual(new Set([10, 14, 18]));

    // Every product has a main image stored as WebP files under its drop's folder, and up to four
    // extra images (the product page's gallery).
    const extraCounts: number[] = [];
    for (const drop of drops) {
      expect(drop.image).not.toBeNull();
      const detail = await getDrop(database.db, drop.id, { extraImages: true });
      expect(detail?.products.map((p) => p.id)).toEqual(drop.products.map((p) => p.id));
      for (const p of detail?.products ?? []) {
        expect(p.image?.key.startsWith(`drops/${drop.id}/`)).toBe(true);
        expect(p.extraImages.length).toBeLessThanOrEqual(4);
        extraCounts.push(p.extraImages.length);
        for (const extra of p.extraImages) expect(extra.key.startsWith(`drops/${drop.id}/`)).toBe(true);
        const smallest = `${p.image?.key}-${p.image?.widths.split(",")[0]}.webp`;
        const file = fs.readFileSync(path.join(mediaRoot, harness.dialect, smallest));
        expect(file.subarray(8, 12).toString()).toBe("WEBP");
      }
    }
    // Galleries are really loaded: some pieces reach the limit of four, some have none.
    expect(extraCounts).toContain(4);
    expect(extraCounts).toContain(0);

    // The upcoming drop has an 'Avísame' list in every state (Campañas shows it); no e-mail was queued.
    const upcoming = drops.find((d) => d.status !== "archivada" && dropTimeState(d, now) === "pending");
    const signUps = await database.db
      .selectFrom("waitlist_subscriptions")
      .select(["drop_id", "status", "confirmed_at", "unsubscribed_at"])
      .execute();
    const upcomingSignUps = signUps.filter((s) => s.drop_id === upcoming?.id);
    expect(upcomingSignUps.length).toBeGreaterThanOrEqual(5);
    expect(new Set(upcomingSignUps.map((s) => s.status))).toEqual(
      new Set(["pendiente", "confirmada", "baja"]),
    );
    expect(signUps.filter((s) => s.status !== "pendiente").every((s) => s.confirmed_at !== null)).toBe(true);
    expect(signUps.filter((s) => s.status === "baja").every((s) => s.unsubscribed_at !== null)).toBe(true);
    // The past drops' e-mails are recorded as sent long ago: nothing waits in the queue.
    expect(
      await database.db.selectFrom("emails").select("id").where("sent_at", "is", null).execute(),
    ).toEqual([]);

    // A second start keeps what is there, even after the owner deleted every drop.
    expect(await seedDemoOnFirstStart(database.db, storage)).toBe(false);
    await database.db.deleteFrom("drops").execute();
    expect(await seedDemoOnFirstStart(database.db, storage)).toBe(false);
    expect(await countDrops(database.db)).toBe(0);
  });

  it("opens with the owner's half filled: past orders in every state, months of sales, one count of confirmed sign-ups, stock as the catalogue says", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const storage = createLocalStorage(path.join(mediaRoot, `${harness.dialect}-history`));
    const now = new Date();
    expect(await seedDemoOnFirstStart(db, storage, { now, artCache })).toBe(true);
    const drops = await listDrops(db);
    const byRole = (role: string) => {
      const name = DEMO_DROPS.find((d) => d.role === role)?.name;
      const drop = drops.find((d) => d.name === name);
      if (!drop) throw new Error(`no ${role} drop`);
      return drop;
    };
    const ended = byRole("ended");
    const archived = byRole("archived");

    // Orders in each state, every one of them the demo's: its number and a reserved domain say so.
    const orders = await db.selectFrom("orders").selectAll().orderBy("id").execute();
    expect(orders).toHaveLength(DEMO_ORDERS.length);
    for (const o of orders) {
      expect(isDemoOrderId(o.id), o.id).toBe(true);
      expect(o.customer_email, o.id).toMatch(/^[a-z.]+@example\.(com|net|org)$/);
      expect(o.paid_at, o.id).not.toBeNull();
      expect(o.ship_line1 && o.ship_city && o.ship_state && o.ship_postal_code, o.id).toBeTruthy();
    }
    expect(new Set(orders.map((o) => o.ship_state)).size).toBeGreaterThanOrEqual(8);
    const count = (status: string) => orders.filter((o) => o.status === status).length;
    expect(count("pendiente")).toBeGreaterThanOrEqual(2);
    expect(count("enviado")).toBeGreaterThanOrEqual(3);
    expect(count("archivado")).toBeGreaterThanOrEqual(3);
    expect(count("cancelado")).toBe(1);
    const lines = await db.selectFrom("order_lines").selectAll().execute();
    const endedStates = new Set(
      orders
        .filter((o) => lines.some((l) => l.order_id === o.id && l.drop_id === ended.id))
        .map((o) => o.status),
    );
    expect(endedStates).toEqual(new Set(["pendiente", "enviado", "archivado", "cancelado"]));
    // Only the ended and archived drops sold: the running and upcoming ones are as the catalogue says.
    expect(new Set(lines.map((l) => l.drop_id))).toEqual(new Set([ended.id, archived.id]));

    // Shipped and archived orders have their parcel and timeline; every e-mail was sent already.
    const events = await db.selectFrom("order_events").selectAll().execute();
    for (const o of orders.filter((o) => o.status === "enviado" || o.status === "archivado")) {
      expect(o.carrier && o.tracking_number && o.shipped_at, o.id).toBeTruthy();
      // Shipped with the days Configuración says, as the desk keeps them (decision 44).
      expect(o.delivery_days, o.id).toBe(7);
      const kinds = events.filter((e) => e.order_id === o.id).map((e) => e.kind);
      expect(kinds.sort(), o.id).toEqual(o.status === "archivado" ? ["archivado", "enviado"] : ["enviado"]);
    }
    const emails = await db.selectFrom("emails").select(["order_id", "kind", "sent_at"]).execute();
    expect(emails.every((e) => e.sent_at !== null)).toBe(true);
    for (const o of orders) {
      expect(
        emails.filter((e) => e.order_id === o.id && e.kind === "confirmacion"),
        o.id,
      ).toHaveLength(1);
    }

    // The cancelled order: refunded by the demo provider, its pieces back in stock, not a sale.
    const cancelled = orders.find((o) => o.status === "cancelado");
    const refunds = await db.selectFrom("refunds").selectAll().execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      order_id: cancelled?.id,
      amount_cents: cancelled?.total_cents,
      status: "hecho",
      provider: "demo",
      reason: "Cancelado por la tienda",
    });
    expect(refunds[0]?.refunded_at).not.toBeNull();
    const cancelledOrder = cancelled ? await getDeskOrder(db, cancelled.id) : null;
    expect(cancelledOrder?.cancellation).toMatchObject({
      refund: "hecho",
      reason: "Cancelado por la tienda",
    });
    expect((await listOrders(db, { tab: "cancelado" })).orders.map((o) => o.id)).toEqual([cancelled?.id]);

    // Sized rings are sold by size and named as a checkout names them; numbered pieces numbered.
    const values = await db.selectFrom("product_options").select(["id", "product_id", "value"]).execute();
    const products = drops.flatMap((d) => d.products);
    const sized = lines.filter((l) => l.option_id !== null);
    expect(sized.length).toBeGreaterThanOrEqual(5);
    for (const l of sized) {
      const value = values.find((v) => v.id === l.option_id);
      expect(value?.product_id).toBe(l.product_id);
      expect(l.option_value).toBe(value?.value);
      const product = products.find((p) => p.id === l.product_id);
      expect(l.name).toBe(`${product?.name} talla ${l.option_value}`);
    }
    const cosecha = products.find((p) => p.name === "Brazalete Cosecha");
    const numbers = await db.selectFrom("edition_numbers").selectAll().orderBy("number").execute();
    expect(numbers.map((n) => [n.product_id, n.number])).toEqual([
      [cosecha?.id, 1],
      [cosecha?.id, 2],
    ]);
    const firstPiece = orders.find((o) => o.id === numbers[0]?.order_id);
    const secondPiece = orders.find((o) => o.id === numbers[1]?.order_id);
    // Numbered as they were paid: the earlier payment has number 1.
    const paidAt = (o: typeof firstPiece) => (o?.paid_at ? toDate(o.paid_at).getTime() : Number.NaN);
    expect(paidAt(firstPiece)).toBeLessThan(paidAt(secondPiece));

    // Stock as the catalogue says (what was left; the cancelled pieces are in it), per size too.
    const options = await db.selectFrom("product_options").select(["product_id", "value", "stock"]).execute();
    for (const demo of DEMO_DROPS) {
      const drop = drops.find((d) => d.name === demo.name);
      for (const p of demo.products) {
        const stored = drop?.products.find((x) => x.name === p.name);
        expect(stored?.stock, p.name).toBe(p.stock);
        for (const [value, stock] of p.option?.values ?? []) {
          expect(
            options.find((o) => o.product_id === stored?.id && o.value === value)?.stock,
            `${p.name} ${value}`,
          ).toBe(stock);
        }
      }
    }

    // The desk's tabs are not empty; the admin menu counts the pending ones.
    for (const tab of ["pendiente", "enviado", "archivado"] as const) {
      expect((await listOrders(db, { tab })).total, tab).toBe(count(tab));
    }
    expect(await countPending(db)).toBe(count("pendiente"));

    // Reportes: several months with sales; the sold orders are the paid ones not cancelled.
    const shop = await loadReport(db, { kind: "all" });
    if (!shop.ok) throw new Error("no report");
    expect(shop.report.series.filter((p) => p.orders > 0).length).toBeGreaterThanOrEqual(3);
    expect(shop.report.figures.orders).toBe(orders.length - 1);
    // Each product offered what it has now plus what its paid orders took.
    const endedReport = await loadReport(db, { kind: "drop", dropId: ended.id });
    if (!endedReport.ok) throw new Error("no report");
    for (const row of endedReport.report.products) {
      const stock = products.find((p) => p.id === row.id)?.stock ?? Number.NaN;
      expect(row.offered, row.name).toBe(stock + row.pieces);
    }
    expect(endedReport.report.series.filter((p) => p.orders > 0).length).toBeGreaterThanOrEqual(4);

    // 'Avísame': the upcoming drop and the past ones have confirmed sign-ups, counted alike by
    // Reportes (the drop's view and the whole shop's table) and Campañas; some of them bought.
    for (const drop of [byRole("upcoming"), ended, archived]) {
      const campaign = await campaignDrop(db, drop.id);
      const report = await loadReport(db, { kind: "drop", dropId: drop.id });
      if (!report.ok) throw new Error("no report");
      expect(campaign?.counts.confirmadas, drop.name).toBeGreaterThan(0);
      expect(report.report.waitlist?.confirmed, drop.name).toBe(campaign?.counts.confirmadas);
      expect(shop.report.drops.find((d) => d.id === drop.id)?.waitlist?.confirmed, drop.name).toBe(
        campaign?.counts.confirmadas,
      );
    }
    expect(endedReport.report.waitlist?.bought).toBeGreaterThan(0);
    // Campañas lists the past drops' lists too, the latest opening first.
    expect((await pastCampaigns(db, now)).map((d) => d.id)).toEqual([ended.id, archived.id]);
  });
});
