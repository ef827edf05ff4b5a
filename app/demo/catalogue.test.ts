import { describe, expect, it } from "vitest";
import { isKarat } from "~/catalogue/metal";
import { MAX_STONES_LENGTH, parseGrams, stonesOrNull } from "~/catalogue/metal-input";
import { DEMO_DROPS } from "./catalogue";
import { DEMO_BUYERS, DEMO_ORDERS, DEMO_PAST_WAITLISTS } from "./history";

describe("the demo catalogue", () => {
  const products = DEMO_DROPS.flatMap((d) => d.products);

  it("says the facts of every piece: mostly 14 k, some 10 k and 18 k, 0.8–12 g", () => {
    const byKarat = { 10: 0, 14: 0, 18: 0 };
    for (const p of products) {
      expect(isKarat(p.karat), p.name).toBe(true);
      byKarat[p.karat] += 1;
      expect(p.grams, p.name).toBeGreaterThanOrEqual(0.8);
      expect(p.grams, p.name).toBeLessThanOrEqual(12);
      // Two decimals at most: what the form could have taken.
      expect(parseGrams(String(p.grams)), p.name).toBe(Math.round(p.grams * 1000));
      if (p.stones !== null) {
        expect(p.stones.length, p.name).toBeLessThanOrEqual(MAX_STONES_LENGTH);
        expect(stonesOrNull(p.stones), p.name).toBe(p.stones);
      }
      // A description that names the karat agrees with the field.
      const said = /de (10|14|18)k/.exec(p.description)?.[1];
      if (said) expect(p.karat, p.name).toBe(Number(said));
    }
    expect(byKarat[14]).toBeGreaterThan(byKarat[10] + byKarat[18]);
    expect(byKarat[10]).toBeGreaterThan(0);
    expect(byKarat[18]).toBeGreaterThan(0);
  });

  it("sells its rings by size, each size with its stock, and says no size in prose", () => {
    const sized = products.filter((p) => p.option);
    expect(sized.filter((p) => p.option?.name === "Talla").length).toBeGreaterThanOrEqual(3);
    expect(sized.some((p) => p.option?.name === "Largo")).toBe(true);
    for (const p of sized) {
      // The product's stock is its sizes' sum, as the shop keeps it (decision 34).
      expect(
        p.option?.values.reduce((sum, [, stock]) => sum + stock, 0),
        p.name,
      ).toBe(p.stock);
    }
    // The running drop's photographed ring shows a sold-out size beside ones in stock.
    const marea = products.find((p) => p.name === "Anillo Marea");
    expect(marea?.option?.values.some(([, stock]) => stock === 0)).toBe(true);
    for (const p of products) expect(p.description, p.name).not.toMatch(/Tallas? \d|del número \d/);
  });
});

describe("the demo shop's past (history.ts)", () => {
  it("sells pieces and sizes of its own drop, paid within the drop's dates, shipped and archived before the seeding", () => {
    const dropOf = (role: string) => DEMO_DROPS.find((d) => d.role === role);
    for (const [i, order] of DEMO_ORDERS.entries()) {
      const drop = dropOf(order.drop);
      if (!drop) throw new Error(order.drop);
      const paid = drop.startOffsetHours + order.paidAfterHours;
      expect(paid, `order ${i}`).toBeLessThanOrEqual(drop.endOffsetHours);
      expect(DEMO_BUYERS[order.buyer], `order ${i}`).toBeDefined();
      for (const line of order.lines) {
        const product = drop.products.find((p) => p.name === line.product);
        expect(product, `order ${i}: ${line.product}`).toBeDefined();
        const sizes = product?.option?.values.map(([value]) => value);
        if (sizes) expect(sizes, `order ${i}: ${line.product}`).toContain(line.size);
        else expect(line.size, `order ${i}: ${line.product}`).toBeUndefined();
      }
      const shipped = order.shipped ? paid + order.shipped.afterHours : null;
      expect(shipped !== null, `order ${i}`).toBe(order.status === "enviado" || order.status === "archivado");
      if (shipped !== null) expect(shipped, `order ${i}`).toBeLessThan(0);
      if (order.status === "archivado") {
        expect((shipped ?? 0) + (order.archivedAfterHours ?? Number.NaN), `order ${i}`).toBeLessThan(0);
      }
      if (order.status === "cancelado")
        expect(paid + (order.cancelledAfterHours ?? Number.NaN)).toBeLessThan(0);
    }
    // Oldest first: their numbers (OL-DEMO0001…) follow the payments.
    const paidAt = DEMO_ORDERS.map((o) => {
      const drop = dropOf(o.drop);
      return (drop?.startOffsetHours ?? 0) + o.paidAfterHours;
    });
    expect(paidAt).toEqual([...paidAt].sort((a, b) => a - b));
    // Every confirmed sign-up of a past drop confirmed before the drop opened.
    for (const list of Object.values(DEMO_PAST_WAITLISTS)) {
      for (const s of list) {
        if (s.status !== "pendiente") expect(s.confirmedHoursBefore, s.email).toBeGreaterThan(0);
        expect(s.signedUpHoursBefore, s.email).toBeGreaterThanOrEqual(s.confirmedHoursBefore ?? 0);
      }
    }
  });
});
