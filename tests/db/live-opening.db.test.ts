import { expect, it, vi } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { toTimestamp } from "~/db/database.server";
import type { LineStatus } from "~/db/schema";
import { liveOpening, openingSnapshot } from "~/drops-desk/live-opening.server";
import { newId } from "~/lib/ids";
import { releaseHold } from "~/orders/holds.server";
import { confirmPayment } from "~/orders/payment.server";
import { countingStatements, describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

// The live opening page's pieces (drops-desk/live-opening.server.ts): held, sold and left per
// product, and the people waiting in the drop's line, read from the rows on both databases.

const HOUR = 3_600_000;

describeEachDatabase("a drop's opening, live", (harness) => {
  it("per product: pieces held by unpaid checkouts, sold, left; and the checkouts waiting in line", async () => {
    const database = await harness.fresh();
    const now = Date.now();
    const dropId = await createDrop(database.db, {
      name: "Apertura",
      status: "activa",
      startAt: new Date(now - HOUR),
      endAt: new Date(now + HOUR),
      products: ["Anillo Sol", "Collar Sol"].map((name) => ({
        name,
        categoria: "Anillo" as const,
        material: "Oro amarillo" as const,
        priceCents: 100_000,
        stock: 5,
        imageId: null,
      })),
    });
    const other = await createDrop(database.db, {
      name: "Otra",
      status: "activa",
      startAt: new Date(now - HOUR),
      endAt: new Date(now + HOUR),
      products: [
        {
          name: "Arete",
          categoria: "Anillo",
          material: "Oro rosa",
          priceCents: 1_000,
          stock: 2,
          imageId: null,
        },
      ],
    });
    const [ring, necklace] = ((await getDrop(database.db, dropId))?.products ?? []).map((p) => p.id) as [
      string,
      string,
    ];
    const earring = (await getDrop(database.db, other))?.products[0]?.id ?? "";

    const paid = await hold(database.db, {
      lines: [{ productId: ring, dropId, quantity: 2 }],
      provider: "demo",
    });
    await hold(database.db, { lines: [{ productId: ring, dropId, quantity: 1 }], provider: "demo" });
    await hold(database.db, {
      lines: [
        { productId: necklace, dropId, quantity: 1 },
        { productId: earring, dropId: other, quantity: 1 },
      ],
      provider: "demo",
    });
    const given = await hold(database.db, {
      lines: [{ productId: necklace, dropId, quantity: 2 }],
      provider: "demo",
    });
    await confirmPayment(database.db, {
      orderId: paid.id,
      customerName: "Ana",
      customerEmail: "ana@example.mx",
    });
    await releaseHold(database.db, given.id);

    const join = (drop: string, status: LineStatus) =>
      database.db
        .insertInto("drop_line")
        .values({
          id: newId(),
          drop_id: drop,
          browser: newId(),
          address_bucket: "203.0.113.7",
          cart: "[]",
          origin: "http://tienda.test",
          place: String(Math.floor(Math.random() * 1e9)),
          status,
          note: null,
          order_id: null,
          payment_url: null,
          message: null,
          joined_at: toTimestamp(new Date()),
          seen_at: toTimestamp(new Date()),
          updated_at: toTimestamp(new Date()),
        })
        .execute();
    await join(dropId, "esperando");
    await join(dropId, "esperando");
    await join(dropId, "atendido");
    await join(other, "esperando");

    const live = await liveOpening(database.db, dropId);
    expect(live?.drop).toMatchObject({ id: dropId, name: "Apertura", timeState: "running" });
    expect(live?.pieces).toEqual([
      { productId: ring, name: "Anillo Sol", held: 1, sold: 2, left: 2 },
      { productId: necklace, name: "Collar Sol", held: 1, sold: 0, left: 4 },
    ]);
    expect(live?.inLine).toBe(2);
    expect(await liveOpening(database.db, newId())).toBeNull();
  });

  it("the tabs open on a drop within a second share one reading; each tab's next second is read afresh", async () => {
    const database = await harness.fresh();
    const dropId = await createDrop(database.db, {
      name: "Compartida",
      status: "activa",
      startAt: new Date(Date.now() - HOUR),
      endAt: new Date(Date.now() + HOUR),
      products: [],
    });
    const counted = countingStatements(database.db);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const tabs = await Promise.all(Array.from({ length: 10 }, () => openingSnapshot(counted.db, dropId)));
      const once = counted.count();
      expect(once).toBeGreaterThan(0);
      expect(tabs.every((t) => t === tabs[0])).toBe(true);
      // A tab asks a second after its answer: never the same snapshot twice.
      vi.setSystemTime(Date.now() + 1_000);
      const next = await openingSnapshot(counted.db, dropId);
      expect(next).not.toBe(tabs[0]);
      expect(next?.at).toBeGreaterThan(tabs[0]?.at ?? Number.POSITIVE_INFINITY);
      expect(counted.count()).toBe(2 * once);
    } finally {
      vi.useRealTimers();
    }
  });
});
