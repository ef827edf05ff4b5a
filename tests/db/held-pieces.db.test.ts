import { expect, it } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { heldPieces } from "~/catalogue/held-pieces.server";
import { cartProducts } from "~/catalogue/views.server";
import type { Database } from "~/db/database.server";
import { dropForEdit } from "~/drops-desk/edit-form.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { releaseHold } from "~/orders/holds.server";
import { confirmPayment } from "~/orders/payment.server";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

/*
 * 'Apartado' (Drop day): stock that is 0 only because of unpaid checkouts. The count is one
 * grouped query over the waiting orders' lines, the same for the storefront and the drops desk.
 */

const HOUR = 3_600_000;

async function threePieces(database: Database) {
  const now = Date.now();
  const dropId = await createDrop(database.db, {
    name: "Luna de Octubre",
    status: "activa",
    startAt: new Date(now - HOUR),
    endAt: new Date(now + HOUR),
    products: ["Arete Luna", "Anillo Luna", "Collar Luna"].map((name) => ({
      name,
      categoria: "Anillo" as const,
      material: "Oro amarillo" as const,
      priceCents: 100_000,
      stock: 3,
      imageId: null,
    })),
  });
  const ids = ((await getDrop(database.db, dropId))?.products ?? []).map((p) => p.id);
  const line = (i: number, quantity: number) => ({ productId: ids[i] ?? "", dropId, quantity });
  return { dropId, ids, line };
}

describeEachDatabase("pieces held by unpaid checkouts", (harness) => {
  it("sums each product's pieces in waiting orders only, in one grouped answer", async () => {
    const database = await harness.fresh();
    const { ids, line } = await threePieces(database);
    const [a, b, c] = ids as [string, string, string];
    expect(await heldPieces(database.db, [])).toEqual(new Map());
    expect(await heldPieces(database.db, ids)).toEqual(new Map());

    // Two shoppers wait on the earring, one on the ring as well; one pays, one gives up.
    const first = await hold(database.db, { lines: [line(0, 2), line(1, 1)], provider: "demo" });
    await hold(database.db, { lines: [line(0, 1)], provider: "demo" });
    const paid = await hold(database.db, { lines: [line(2, 2)], provider: "demo" });
    const left = await hold(database.db, { lines: [line(1, 1)], provider: "demo" });
    await confirmPayment(database.db, {
      orderId: paid.id,
      customerName: "Ana",
      customerEmail: "ana@example.mx",
    });
    await releaseHold(database.db, left.id);

    expect(await heldPieces(database.db, ids)).toEqual(
      new Map([
        [a, 3],
        [b, 1],
      ]),
    );
    // Only what is asked about; an id repeated counts once.
    expect(await heldPieces(database.db, [b, b, c])).toEqual(new Map([[b, 1]]));

    // The first shopper's payment goes through: her pieces are sold, no longer held.
    await confirmPayment(database.db, {
      orderId: first.id,
      customerName: "Luz",
      customerEmail: "luz@example.mx",
    });
    expect(await heldPieces(database.db, ids)).toEqual(new Map([[a, 1]]));
  });

  it("pieces a late payment could not take hold nothing", async () => {
    const database = await harness.fresh();
    const { ids, line } = await threePieces(database);
    const order = await hold(database.db, { lines: [line(0, 3)], provider: "demo" });
    await database.db
      .updateTable("order_lines")
      .set({ missing: 2 })
      .where("order_id", "=", order.id)
      .execute();
    expect(await heldPieces(database.db, ids)).toEqual(new Map([[ids[0] ?? "", 1]]));
    await database.db
      .updateTable("order_lines")
      .set({ missing: 3 })
      .where("order_id", "=", order.id)
      .execute();
    expect(await heldPieces(database.db, ids)).toEqual(new Map());
  });

  it("the drops desk and the storefront count the same pieces of a line with missing pieces", async () => {
    const database = await harness.fresh();
    const { dropId, ids, line } = await threePieces(database);
    const ring = ids[0] ?? "";
    // No image is read: the products have none.
    const storage = createLocalStorage("/nonexistent-media-root");
    const counts = async () => {
      const desk = (await dropForEdit(database.db, storage, dropId))?.products.find((p) => p.id === ring);
      const [shop] = await cartProducts(database.db, storage, [ring], new Date());
      return { desk: desk?.held, storefront: shop?.held };
    };
    // All three pieces wait for one payment: the piece is sold out, and 'Apartado' everywhere.
    const order = await hold(database.db, { lines: [line(0, 3)], provider: "demo" });
    expect(await counts()).toEqual({ desk: 3, storefront: 3 });

    // Two of its pieces were never taken from stock: only one is held, on both screens.
    await database.db
      .updateTable("order_lines")
      .set({ missing: 2 })
      .where("order_id", "=", order.id)
      .execute();
    expect(await counts()).toEqual({ desk: 1, storefront: 1 });
    await database.db
      .updateTable("order_lines")
      .set({ missing: 3 })
      .where("order_id", "=", order.id)
      .execute();
    expect(await counts()).toEqual({ desk: 0, storefront: 0 });
  });

  it("the cart drawer of the browser holding the last pieces keeps them (its own, not 'Apartado'); another browser's sees them held", async () => {
    const database = await harness.fresh();
    const { ids, line } = await threePieces(database);
    const ring = ids[1] ?? "";
    const storage = createLocalStorage("/nonexistent-media-root");
    // Her checkout holds all three rings; another holds nothing.
    await hold(database.db, { lines: [line(1, 3)], provider: "demo", browser: "navegador-de-ana" });
    const view = async (browser: string | null) => {
      const [product] = await cartProducts(database.db, storage, [ring], new Date(), browser);
      return { stock: product?.stock, held: product?.held };
    };
    expect(await view("navegador-de-ana")).toEqual({ stock: 3, held: 0 });
    expect(await view("otro-navegador")).toEqual({ stock: 0, held: 3 });
    expect(await view(null)).toEqual({ stock: 0, held: 3 });
  });
});
