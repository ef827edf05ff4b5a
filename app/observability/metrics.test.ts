import { describe, expect, it } from "vitest";
import {
  answerKind,
  dropFigures,
  MAX_DROPS,
  METRIC_NAMES,
  NO_DROP,
  OTHER_DROPS,
  recordAnswer,
  recordCheckout,
  recordPaid,
  shopMetrics,
  shopMetricsText,
} from "./metrics.server";

describe("the shop's counters", () => {
  it("count a drop's checkouts by outcome and reason, and its paid orders", async () => {
    const drop = "a".repeat(16);
    recordCheckout([drop], "held");
    recordCheckout([drop], "queued");
    recordCheckout([drop], "refused", "sin_stock");
    recordCheckout([drop], "refused", "sin_stock");
    recordCheckout([drop], "refused", "Razón inventada!");
    recordPaid([drop]);
    const figures = dropFigures(await shopMetrics(), drop);
    expect(figures).toMatchObject({
      started: 5,
      held: 1,
      queued: 1,
      paid: 1,
      refused: { sin_stock: 2, otro: 1 },
    });
  });

  it("ids read only from a refused request's body take no label of their own (invented ones cannot fill the labels)", async () => {
    for (let i = 0; i < MAX_DROPS + 50; i++)
      recordCheckout([`x${String(i).padStart(15, "0")}`], "refused", "verificacion", false);
    const drop = "dropconfirmada01";
    recordCheckout([drop], "refused", "sin_stock");
    recordCheckout([drop], "refused", "verificacion", false);
    const started = (await shopMetrics()).find((m) => m.name === METRIC_NAMES.started);
    const drops = new Set(started?.values.map((v) => v.labels.drop));
    expect([...drops].some((d) => String(d).startsWith("x000"))).toBe(false);
    expect(drops.has(drop)).toBe(true);
    expect(dropFigures(await shopMetrics(), drop).refused).toMatchObject({ sin_stock: 1, verificacion: 1 });
  });

  it("a checkout that names no drop is counted under none; labels of drops stay bounded", async () => {
    recordCheckout([], "refused", "limite");
    for (let i = 0; i < MAX_DROPS + 50; i++)
      recordCheckout([`d${String(i).padStart(15, "0")}`], "refused", "no_encontrado");
    const started = (await shopMetrics()).find((m) => m.name === METRIC_NAMES.started);
    const drops = new Set(started?.values.map((v) => v.labels.drop));
    expect(drops.has(NO_DROP)).toBe(true);
    expect(drops.has(OTHER_DROPS)).toBe(true);
    expect(drops.size).toBeLessThanOrEqual(MAX_DROPS + 2);
  });

  it("answer times land in the histogram's buckets, read back for the shoppers' p99", async () => {
    recordAnswer("checkout", 0.004);
    recordAnswer("page", 0.2);
    recordAnswer("admin", 3);
    const figures = dropFigures(await shopMetrics(), "nadie");
    expect(figures.answers).toBe(2); // the admin's own page is not a shopper's answer
    expect(figures.answerBuckets.find((b) => b.le === 0.005)?.count).toBe(1);
    expect(figures.answerBuckets.find((b) => b.le === 0.2)?.count).toBe(2);
    expect(await shopMetricsText()).toContain(
      'tienda_respuesta_segundos_bucket{le="0.005",kind="checkout"} 1',
    );
  });

  it("tell the kinds of request apart by their path", () => {
    expect(answerKind("/api/checkout")).toBe("checkout");
    expect(answerKind("/admin/orders")).toBe("admin");
    expect(answerKind("/api/cart")).toBe("api");
    expect(answerKind("/coleccion/abc")).toBe("page");
    expect(answerKind("/coleccion/abc.data")).toBe("page");
    expect(answerKind("/assets/entry.js")).toBe("other");
    expect(answerKind("/metrics")).toBe("other");
  });
});
