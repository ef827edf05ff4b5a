import { expect, it } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import type { Database } from "~/db/database.server";
import { getOrder, HOLD_MINUTES, holdCart, setPaymentSession } from "~/orders/orders.server";
import { cancelCheckout, sweepExpiredHolds } from "~/orders/sweeper.server";
import type { PaymentProvider, PaymentState } from "~/payments/payments.server";
import { describeEachDatabase } from "../support/databases";

const HOUR = 3_600_000;
const later = () => new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000);

/** Stands in for the payment provider's servers, which cannot run here. */
function providerWith(states: Record<string, PaymentState>) {
  const expired: string[] = [];
  const provider: PaymentProvider = {
    name: "stripe",
    createSession: async () => ({ id: "unused", url: "unused" }),
    getSession: async (id) =>
      states[id] ?? { status: "open", paid: false, customerName: "", customerEmail: "" },
    expireSession: async (id) => {
      expired.push(id);
    },
  };
  return { provider, expired };
}

async function heldOrder(database: Database, sessionId: string) {
  const now = Date.now();
  const dropId = await createDrop(database.db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(now - HOUR),
    endAt: new Date(now + HOUR),
    products: [
      {
        name: "Anillo",
        categoria: "Anillo",
        material: "Oro rosa",
        priceCents: 100_000,
        stock: 2,
        imageId: null,
      },
    ],
  });
  const productId = (await getDrop(database.db, dropId))?.products[0]?.id ?? "";
  const order = await holdCart(database.db, {
    lines: [{ productId, dropId, quantity: 2 }],
    provider: "stripe",
  });
  await setPaymentSession(database.db, order.id, sessionId);
  const stock = async () => (await getDrop(database.db, dropId))?.products[0]?.stock;
  return { order, stock };
}

describeEachDatabase("the hold sweeper", (harness) => {
  it("returns the pieces of unpaid holds past their expiry, after closing the session", async () => {
    const database = await harness.fresh();
    const { order, stock } = await heldOrder(database, "cs_unpaid");
    const { provider, expired } = providerWith({});
    expect(await sweepExpiredHolds(database.db, provider, new Date())).toEqual({ released: 0, paid: 0 });
    expect(await stock()).toBe(0);
    expect(await sweepExpiredHolds(database.db, provider, later())).toEqual({ released: 1, paid: 0 });
    expect(expired).toEqual(["cs_unpaid"]);
    expect(await stock()).toBe(2);
    expect((await getOrder(database.db, order.id))?.status).toBe("expirado");
    // Several servers sweeping the same hold: only the first acts.
    expect(await sweepExpiredHolds(database.db, provider, later())).toEqual({ released: 0, paid: 0 });
    expect(await stock()).toBe(2);
  });

  it("asks the provider first: a session paid while the shop was down becomes an order", async () => {
    const database = await harness.fresh();
    const { order, stock } = await heldOrder(database, "cs_paid");
    const { provider, expired } = providerWith({
      cs_paid: {
        status: "complete",
        paid: true,
        customerName: "Luz Ramírez",
        customerEmail: "luz@example.mx",
      },
    });
    expect(await sweepExpiredHolds(database.db, provider, later())).toEqual({ released: 0, paid: 1 });
    expect(expired).toEqual([]);
    expect(await stock()).toBe(0);
    expect(await getOrder(database.db, order.id)).toMatchObject({
      status: "pendiente",
      customerName: "Luz Ramírez",
    });
  });

  it("/cancel closes the session and returns the pieces at once, unless it was paid", async () => {
    const database = await harness.fresh();
    const unpaid = await heldOrder(database, "cs_a");
    const paid = await heldOrder(database, "cs_b");
    const { provider, expired } = providerWith({
      cs_b: { status: "complete", paid: true, customerName: "X", customerEmail: "x@example.mx" },
    });
    await cancelCheckout(database.db, provider, unpaid.order.id);
    await cancelCheckout(database.db, provider, paid.order.id);
    expect(expired).toEqual(["cs_a"]);
    expect(await unpaid.stock()).toBe(2);
    expect(await paid.stock()).toBe(0);
  });
});
