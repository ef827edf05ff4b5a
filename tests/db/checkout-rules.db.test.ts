import { expect, it, vi } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { log } from "~/config/log.server";
import { type Database, toTimestamp } from "~/db/database.server";
import { startCheckout } from "~/orders/checkout.server";
import { holdCart, precheckCart } from "~/orders/holds.server";
import type { PaymentProvider } from "~/orders/payment-port";
import { getOrder } from "~/orders/queries.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";

/*
 * Drop day's checkout rules (decision 15): one unpaid checkout per browser, the owner's
 * 'Máximo N por persona' per drop, and the drop's own hold time.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;
const urls = {
  success: "https://t.example/success",
  cancel: (id: string) => `https://t.example/cancel?pedido=${id}`,
};
const BROWSER = "navegador_de_ana_00001";
const OTHER = "navegador_de_luz_00002";

async function openHolds(database: Database, browser: string) {
  return database.db
    .selectFrom("orders")
    .select("id")
    .where("checkout_browser", "=", browser)
    .where("status", "=", "esperando_pago")
    .execute();
}

/** A drop running now with two products (stock 5 each) and its rules. */
async function twoPieces(
  database: Database,
  rules: { maxPerOrder?: number | null; holdMinutes?: number } = {},
) {
  const now = Date.now();
  const dropId = await createDrop(database.db, {
    name: "Luna de Octubre",
    status: "activa",
    startAt: new Date(now - HOUR),
    endAt: new Date(now + HOUR),
    ...rules,
    products: ["Arete Luna", "Anillo Luna"].map((name) => ({
      name,
      categoria: "Anillo" as const,
      material: "Oro amarillo" as const,
      priceCents: 100_000,
      stock: 5,
      imageId: null,
    })),
  });
  const products = (await getDrop(database.db, dropId))?.products ?? [];
  const line = (i: number, quantity: number) => ({ productId: products[i]?.id ?? "", dropId, quantity });
  const stock = async () => ((await getDrop(database.db, dropId))?.products ?? []).map((p) => p.stock);
  return { dropId, line, stock };
}

describeEachDatabase("checkout rules of a drop", (harness) => {
  it("one browser holds one checkout: a new one releases the old, and its pieces come back", async () => {
    const database = await harness.fresh();
    const payments = createDemoPayments(database.db);
    const shop = await twoPieces(database);
    const first = await startCheckout(database.db, payments, [shop.line(0, 2)], urls, BROWSER);
    expect(first.ok).toBe(true);
    expect(await shop.stock()).toEqual([3, 5]);

    // The shopper comes back and pays for something else: the first hold is gone.
    const second = await startCheckout(database.db, payments, [shop.line(1, 1)], urls, BROWSER);
    expect(second.ok).toBe(true);
    expect(await shop.stock()).toEqual([5, 4]);
    if (!first.ok || !second.ok || !("orderId" in first) || !("orderId" in second)) return;
    expect((await getOrder(database.db, first.orderId))?.status).toBe("expirado");
    expect((await getOrder(database.db, second.orderId))?.status).toBe("esperando_pago");
    expect(await openHolds(database, BROWSER)).toEqual([{ id: second.orderId }]);

    // A cart that cannot be held now (more than is left of the first piece) is refused, and the
    // checkout she has stands: she is not left with neither.
    const refused = await startCheckout(database.db, payments, [shop.line(0, 6)], urls, BROWSER);
    expect(refused).toMatchObject({ ok: false, reason: "sin_stock" });
    expect((await getOrder(database.db, second.orderId))?.status).toBe("esperando_pago");
    expect(await shop.stock()).toEqual([5, 4]);
    expect(await openHolds(database, BROWSER)).toEqual([{ id: second.orderId }]);

    // Another browser's checkout is its own: both stand.
    const other = await startCheckout(database.db, payments, [shop.line(0, 1)], urls, OTHER);
    expect(other.ok).toBe(true);
    expect((await getOrder(database.db, second.orderId))?.status).toBe("esperando_pago");
    expect(await shop.stock()).toEqual([4, 4]);
  });

  it("the read before a hold refuses the last piece to everyone but the browser holding it, which is sent back to its payment page: the hold is never renewed", async () => {
    const database = await harness.fresh();
    const payments = createDemoPayments(database.db);
    const piece = await runningPiece(database, { stock: 1, name: "Arete Último" });
    const lines = [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }];
    const held = await startCheckout(database.db, payments, lines, urls, BROWSER);
    if (!held.ok || !("orderId" in held)) throw new Error("no se apartó");
    const before = await getOrder(database.db, held.orderId);
    for (const browser of [OTHER, null, undefined]) {
      expect((await precheckCart(database.db, { lines, browser }))?.reason, String(browser)).toBe(
        "sin_stock",
      );
    }
    // Not gone for the browser holding it: the front door lets it on, to be sent back to its page.
    expect(await precheckCart(database.db, { lines, browser: BROWSER })).toBeNull();
    const again = await startCheckout(database.db, payments, lines, urls, BROWSER);
    expect(again).toMatchObject({ ok: false, reason: "ya_apartada", url: held.url });
    // The same hold, the same end: asking again bought no time.
    const after = await getOrder(database.db, held.orderId);
    expect(after?.status).toBe("esperando_pago");
    expect(after?.expiresAt).toEqual(before?.expiresAt);
    expect(await piece.stock()).toBe(0);
    expect(await openHolds(database, BROWSER)).toEqual([{ id: held.orderId }]);
  });

  it("her own checkout whose time ran out (not swept yet) is closed, and the same last piece is hers to hold again", async () => {
    const database = await harness.fresh();
    const payments = createDemoPayments(database.db);
    const piece = await runningPiece(database, { stock: 1, name: "Arete Último" });
    const lines = [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }];
    const first = await startCheckout(database.db, payments, lines, urls, BROWSER);
    if (!first.ok || !("orderId" in first)) throw new Error("no se apartó");
    // Its time is up; the sweeper has not come by.
    await database.db
      .updateTable("orders")
      .set({ expires_at: toTimestamp(new Date(Date.now() - 1_000)) })
      .where("id", "=", first.orderId)
      .execute();
    const again = await startCheckout(database.db, payments, lines, urls, BROWSER);
    expect(again).toMatchObject({ ok: true });
    expect((await getOrder(database.db, first.orderId))?.status).toBe("expirado");
    expect(await piece.stock()).toBe(0);
  });

  it("a hold whose payment page was never made (the process stopped between the two) does not block her cart: told to wait while it may still be made, closed after a minute", async () => {
    const database = await harness.fresh();
    const payments = createDemoPayments(database.db);
    const piece = await runningPiece(database, { stock: 1, name: "Arete Último" });
    const lines = [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }];
    // The hold written, its page not: as a process killed while the provider answered leaves it.
    const held = await holdCart(database.db, { lines, provider: "demo", browser: BROWSER });
    if (!held.ok) throw new Error("no se apartó");
    expect(await startCheckout(database.db, payments, lines, urls, BROWSER)).toEqual({
      ok: false,
      reason: "ya_apartada",
      message: "Estamos abriendo tu pago: intenta de nuevo en unos segundos.",
      url: null,
    });
    // A minute on, nobody is making it: it is closed, and the piece is hers again, with a page.
    await database.db
      .updateTable("orders")
      .set({ created_at: toTimestamp(new Date(Date.now() - 61_000)) })
      .where("id", "=", held.id)
      .execute();
    const again = await startCheckout(database.db, payments, lines, urls, BROWSER);
    expect(again).toMatchObject({ ok: true, url: expect.any(String) });
    expect((await getOrder(database.db, held.id))?.status).toBe("expirado");
    expect(await piece.stock()).toBe(0);
  });

  it("a cart that changed a held piece's size or quantity is told so, with its payment page, and nothing is released or held anew", async () => {
    const database = await harness.fresh();
    const payments = createDemoPayments(database.db);
    const ring = await runningPiece(database, { stock: 0, sizes: { "7": 2, "8": 1 } });
    const size = (value: string) => ring.sizes.get(value) ?? "";
    const line = (value: string, quantity = 1) => ({
      productId: ring.id,
      dropId: ring.dropId,
      quantity,
      optionId: size(value),
    });
    const held = await startCheckout(database.db, payments, [line("7")], urls, BROWSER);
    if (!held.ok || !("orderId" in held)) throw new Error("no se apartó");
    // The same cart: back to its page, as before.
    const same = await startCheckout(database.db, payments, [line("7")], urls, BROWSER);
    expect(same).toMatchObject({ ok: false, reason: "ya_apartada", url: held.url });
    expect(same).not.toHaveProperty("changed");
    for (const changed of [[line("8")], [line("7", 2)], [line("7"), line("8")]]) {
      const answer = await startCheckout(database.db, payments, changed, urls, BROWSER);
      expect(answer).toMatchObject({ ok: false, reason: "ya_apartada", url: held.url, changed: true });
      if (answer.ok) throw new Error("held");
      expect(answer.message).toMatch(
        /^Tienes un pago sin terminar con otra talla o cantidad de estas piezas.*venza a las \d{2}:\d{2}/,
      );
    }
    expect(await openHolds(database, BROWSER)).toEqual([{ id: held.orderId }]);
    expect((await getOrder(database.db, held.orderId))?.lines.map((l) => l.quantity)).toEqual([1]);
  });

  it("twenty checkouts of one browser at once leave exactly one hold, and every other piece back", async () => {
    const database = await harness.fresh();
    const payments = createDemoPayments(database.db);
    const shop = await twoPieces(database);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        startCheckout(database.db, payments, [shop.line(0, 1)], urls, BROWSER),
      ),
    );
    expect(results.some((r) => r.ok)).toBe(true);
    for (const r of results) {
      if (!r.ok) expect(["pago_en_curso", "sin_stock", "ya_apartada"]).toContain(r.reason);
    }
    expect(await openHolds(database, BROWSER)).toHaveLength(1);
    // One piece held, none lost: the held pieces are exactly the open order's.
    expect(await shop.stock()).toEqual([4, 5]);
    const waiting = await database.db
      .selectFrom("orders")
      .select("id")
      .where("status", "=", "esperando_pago")
      .execute();
    expect(waiting).toHaveLength(1);
  });

  it("a payment completed with cash on its way stays held, and the browser may start another checkout", async () => {
    const database = await harness.fresh();
    const demo = createDemoPayments(database.db);
    // A provider whose session was completed with a delayed method (cash at a store).
    const cash: PaymentProvider = {
      ...demo,
      async expireSession() {
        return {
          status: "complete",
          paid: false,
          amountCents: null,
          currency: null,
          customerName: "",
          customerEmail: "",
          shipping: null,
        };
      },
    };
    const shop = await twoPieces(database);
    const first = await startCheckout(database.db, cash, [shop.line(0, 1)], urls, BROWSER);
    const second = await startCheckout(database.db, cash, [shop.line(1, 1)], urls, BROWSER);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok || !("orderId" in first) || !("orderId" in second)) return;
    expect((await getOrder(database.db, first.orderId))?.status).toBe("esperando_pago");
    expect(await shop.stock()).toEqual([4, 4]);
    expect(await openHolds(database, BROWSER)).toEqual([{ id: second.orderId }]);
  });

  it("when the provider does not answer, the old checkout stays and no new one is held", async () => {
    const database = await harness.fresh();
    const demo = createDemoPayments(database.db);
    const shop = await twoPieces(database);
    const first = await startCheckout(database.db, demo, [shop.line(0, 1)], urls, BROWSER);
    expect(first.ok).toBe(true);
    const down: PaymentProvider = {
      ...demo,
      async expireSession() {
        throw new Error("ECONNRESET");
      },
    };
    vi.spyOn(log, "error").mockImplementation(() => {});
    const second = await startCheckout(database.db, down, [shop.line(1, 1)], urls, BROWSER);
    vi.restoreAllMocks();
    expect(second).toMatchObject({
      ok: false,
      reason: "pago_no_disponible",
      message: "No pudimos cerrar tu pago anterior. Intenta de nuevo en unos momentos.",
    });
    expect(await shop.stock()).toEqual([4, 5]);
  });

  it("'Máximo N por persona' counts every piece of the drop in the order, and refuses in Spanish before holding anything", async () => {
    const database = await harness.fresh();
    const shop = await twoPieces(database, { maxPerOrder: 2 });
    const refusal = {
      ok: false,
      reason: "limite_coleccion",
      message:
        "Máximo 2 por persona en Luna de Octubre: deja hasta 2 piezas de esta colección en tu carrito.",
    };
    const over = [shop.line(0, 1), shop.line(1, 2)];
    expect(await holdCart(database.db, { lines: over, provider: "demo" })).toEqual(refusal);
    expect(await holdCart(database.db, { lines: over, provider: "demo", precheck: false })).toEqual(refusal);
    const { ok: _ok, ...reason } = refusal;
    expect(await precheckCart(database.db, { lines: over })).toEqual(reason);
    expect(await shop.stock()).toEqual([5, 5]);

    const within = await holdCart(database.db, {
      lines: [shop.line(0, 1), shop.line(1, 1)],
      provider: "demo",
    });
    expect(within.ok).toBe(true);
    expect(await shop.stock()).toEqual([4, 4]);
  });

  it("a drop without its own maximum takes up to the shop's limits", async () => {
    const database = await harness.fresh();
    const shop = await twoPieces(database);
    expect((await holdCart(database.db, { lines: [shop.line(0, 5)], provider: "demo" })).ok).toBe(true);
  });

  it("the owner's raised ceilings let one order take more pieces than the shop's defaults", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 200, priceCents: 10_000 });
    const lines = [{ productId: piece.id, dropId: piece.dropId, quantity: 120 }];
    expect(await holdCart(database.db, { lines, provider: "demo" })).toMatchObject({
      ok: false,
      message: "Puedes comprar hasta 50 piezas de un mismo producto por pedido.",
    });
    const raised = { perProduct: 150, pieces: 150 };
    expect((await holdCart(database.db, { lines, provider: "demo", ceilings: raised })).ok).toBe(true);
    expect(await piece.stock()).toBe(80);
  });

  it("the hold lasts the drop's minutes; a cart of two drops holds for the shorter", async () => {
    const database = await harness.fresh();
    const quick = await runningPiece(database, { stock: 3, holdMinutes: 10 });
    const usual = await runningPiece(database, { stock: 3 });
    const now = new Date();
    const a = await holdCart(database.db, {
      lines: [{ productId: quick.id, dropId: quick.dropId, quantity: 1 }],
      provider: "demo",
      now,
    });
    const b = await holdCart(database.db, {
      lines: [{ productId: usual.id, dropId: usual.dropId, quantity: 1 }],
      provider: "demo",
      now,
    });
    const both = await holdCart(database.db, {
      lines: [
        { productId: usual.id, dropId: usual.dropId, quantity: 1 },
        { productId: quick.id, dropId: quick.dropId, quantity: 1 },
      ],
      provider: "demo",
      now,
    });
    if (!a.ok || !b.ok || !both.ok) throw new Error("not held");
    expect(a.expiresAt.getTime() - now.getTime()).toBe(10 * MINUTE);
    expect(b.expiresAt.getTime() - now.getTime()).toBe(30 * MINUTE);
    expect(both.expiresAt.getTime() - now.getTime()).toBe(10 * MINUTE);

    // In its opening minutes a drop holds for its 'Apartado en la apertura', down to the form's 5.
    const opening = await runningPiece(database, { stock: 3 });
    await database.db
      .updateTable("drops")
      .set({ start_at: toTimestamp(new Date(now.getTime() - MINUTE)), opening_hold_minutes: 5 })
      .where("id", "=", opening.dropId)
      .execute();
    const short = await holdCart(database.db, {
      lines: [{ productId: opening.id, dropId: opening.dropId, quantity: 1 }],
      provider: "demo",
      now,
    });
    if (!short.ok) throw new Error("not held");
    expect(short.expiresAt.getTime() - now.getTime()).toBe(5 * MINUTE);
  });
});
