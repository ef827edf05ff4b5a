import { afterEach, expect, it, vi } from "vitest";
import { log } from "~/config/log.server";
import type { Database } from "~/db/database.server";
import { HOLD_MINUTES, setPaymentSession } from "~/orders/holds.server";
import type { PaymentProvider, PaymentState } from "~/orders/payment-port";
import { getOrder } from "~/orders/queries.server";
import { cancelCheckout, sweepExpiredHolds } from "~/orders/sweeper.server";
import { oaxacaAddress, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

afterEach(() => {
  vi.restoreAllMocks();
});

const later = () => new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000);

const OPEN: PaymentState = {
  status: "open",
  paid: false,
  amountCents: null,
  currency: null,
  customerName: "",
  customerEmail: "",
  shipping: null,
};

/** Stands in for the payment provider's servers, which cannot run here. */
function providerWith(states: Record<string, PaymentState | "unreachable">) {
  const expired: string[] = [];
  const stateOf = (id: string) => {
    const state = states[id] ?? OPEN;
    // Like an SDK error: a message of several lines.
    if (state === "unreachable") throw new Error("provider unreachable\n    at request (sdk.js:1:1)");
    return state;
  };
  const provider: PaymentProvider = {
    name: "stripe",
    createSession: async () => ({ id: "unused", url: "unused", expiresAt: new Date() }),
    getSession: async (id) => stateOf(id),
    expireSession: async (id) => {
      const state = stateOf(id);
      if (state.status !== "open") return state; // like Stripe: only an open session can be closed
      expired.push(id);
      const closed: PaymentState = { ...state, status: "expired" };
      states[id] = closed;
      return closed;
    },
    refund: async () => {
      throw new Error("no refunds here");
    },
    refundState: async () => "hecho",
    cancelVoucher: async () => {
      throw new Error("no vouchers here");
    },
  };
  return { provider, expired };
}

async function heldOrder(database: Database, sessionId: string) {
  const piece = await runningPiece(database, { stock: 2, priceCents: 100_000 });
  const order = await hold(database.db, {
    lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 2 }],
    provider: "stripe",
  });
  await setPaymentSession(database.db, order.id, { id: sessionId, expiresAt: order.expiresAt });
  return { order, stock: piece.stock };
}

/**
 * Many holds on one piece, each with its own session and expiry (a hold each, taken in order).
 * Returns their order ids in the same order.
 */
async function manyHolds(database: Database, sessions: { id: string; expiresAt: Date }[]) {
  const piece = await runningPiece(database, { stock: sessions.length, priceCents: 100_000 });
  const ids: string[] = [];
  for (const session of sessions) {
    const order = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "stripe",
    });
    await setPaymentSession(database.db, order.id, session);
    ids.push(order.id);
  }
  return { ids, stock: piece.stock };
}

const statusOf = async (database: Database, ids: string[]) =>
  new Set(
    (await database.db.selectFrom("orders").select("status").where("id", "in", ids).execute()).map(
      (o) => o.status,
    ),
  );

describeEachDatabase("the hold sweeper", (harness) => {
  it("returns the pieces of unpaid holds past their expiry, after closing the session", async () => {
    const database = await harness.fresh();
    const { order, stock } = await heldOrder(database, "cs_unpaid");
    const { provider, expired } = providerWith({});
    const none = { released: 0, paid: 0, waiting: 0, failed: 0 };
    expect(await sweepExpiredHolds(database.db, provider, new Date())).toEqual(none);
    expect(await stock()).toBe(0);
    expect(await sweepExpiredHolds(database.db, provider, later())).toEqual({ ...none, released: 1 });
    expect(expired).toEqual(["cs_unpaid"]);
    expect(await stock()).toBe(2);
    expect((await getOrder(database.db, order.id))?.status).toBe("expirado");
    // Several servers sweeping the same hold: only the first acts.
    expect(await sweepExpiredHolds(database.db, provider, later())).toEqual(none);
    expect(await stock()).toBe(2);
  });

  it("asks the provider first: a session paid while the shop was down becomes an order", async () => {
    const database = await harness.fresh();
    const { order, stock } = await heldOrder(database, "cs_paid");
    const { provider, expired } = providerWith({
      cs_paid: {
        status: "complete",
        paid: true,
        // What the held order asks: two pieces of $1,000.00.
        amountCents: 200_000,
        currency: "mxn",
        customerName: "Luz Ramírez",
        customerEmail: "luz@example.mx",
        shipping: oaxacaAddress("Luz Ramírez", "5512345678"),
      },
    });
    expect(await sweepExpiredHolds(database.db, provider, later())).toMatchObject({ released: 0, paid: 1 });
    expect(expired).toEqual([]);
    expect(await stock()).toBe(0);
    expect(await getOrder(database.db, order.id)).toMatchObject({
      status: "pendiente",
      customerName: "Luz Ramírez",
      // Where to send it comes from the payment page too.
      shipping: oaxacaAddress("Luz Ramírez", "5512345678"),
    });
  });

  it("a delayed payment (completed, not yet paid) keeps its hold; an unreachable provider blocks nothing else", async () => {
    const database = await harness.fresh();
    const delayed = await heldOrder(database, "cs_oxxo");
    const stuck = await heldOrder(database, "cs_stuck");
    const plain = await heldOrder(database, "cs_plain");
    const { provider } = providerWith({
      cs_oxxo: { ...OPEN, status: "complete" },
      cs_stuck: "unreachable",
    });
    vi.spyOn(log, "error").mockImplementation(() => {});
    expect(await sweepExpiredHolds(database.db, provider, later())).toEqual({
      released: 1,
      paid: 0,
      waiting: 1,
      failed: 1,
    });
    expect(await delayed.stock()).toBe(0);
    expect((await getOrder(database.db, delayed.order.id))?.status).toBe("esperando_pago");
    expect(await stuck.stock()).toBe(0);
    expect(await plain.stock()).toBe(2);
  });

  it("a hold from another provider (the shop switched to Stripe) is settled without asking", async () => {
    const database = await harness.fresh();
    const old = await heldOrder(database, "demo_OL-ANTIGUO1");
    await database.db
      .updateTable("orders")
      .set({ payment_provider: "demo" })
      .where("id", "=", old.order.id)
      .execute();
    const { provider } = providerWith({ "demo_OL-ANTIGUO1": "unreachable" });
    expect(await sweepExpiredHolds(database.db, provider, later())).toMatchObject({ released: 1, failed: 0 });
    expect(await old.stock()).toBe(2);
  });

  it("/cancel closes the session and returns the pieces at once, unless it was paid", async () => {
    const database = await harness.fresh();
    const unpaid = await heldOrder(database, "cs_a");
    const paid = await heldOrder(database, "cs_b");
    const { provider, expired } = providerWith({
      cs_b: {
        status: "complete",
        paid: true,
        amountCents: 200_000,
        currency: "mxn",
        customerName: "X",
        customerEmail: "x@example.mx",
        shipping: null,
      },
    });
    await cancelCheckout(database.db, provider, unpaid.order.id);
    await cancelCheckout(database.db, provider, paid.order.id);
    expect(expired).toEqual(["cs_a"]);
    expect(await unpaid.stock()).toBe(2);
    expect(await paid.stock()).toBe(0);
  });

  it("however many holds the provider fails on, the others are still released", async () => {
    const database = await harness.fresh();
    const now = Date.now();
    // More failures than a page of the sweeper, all expired before the good ones and sharing one
    // expiry (a page may end in the middle of equal expiries).
    const failing = Array.from({ length: 150 }, (_, i) => ({
      id: `cs_down_${i}`,
      expiresAt: new Date(now + 60_000),
    }));
    const good = Array.from({ length: 5 }, (_, i) => ({
      id: `cs_ok_${i}`,
      expiresAt: new Date(now + 120_000),
    }));
    const down = await manyHolds(database, failing);
    const ok = await manyHolds(database, good);
    const { provider, expired } = providerWith(
      Object.fromEntries(failing.map((s) => [s.id, "unreachable" as const])),
    );
    vi.spyOn(log, "error").mockImplementation(() => {});
    expect(await sweepExpiredHolds(database.db, provider, later())).toEqual({
      released: 5,
      paid: 0,
      waiting: 0,
      failed: 150,
    });
    expect(expired.sort()).toEqual(good.map((s) => s.id).sort());
    expect(await ok.stock()).toBe(5);
    expect(await statusOf(database, ok.ids)).toEqual(new Set(["expirado"]));
    expect(await down.stock()).toBe(0);
    expect(await statusOf(database, down.ids)).toEqual(new Set(["esperando_pago"]));
  });

  it("several servers sweeping at once: every hold is settled once and counted once", async () => {
    const database = await harness.fresh();
    const now = Date.now();
    const failing = Array.from({ length: 3 }, (_, i) => ({ id: `cs_down_${i}`, expiresAt: new Date(now) }));
    const good = Array.from({ length: 12 }, (_, i) => ({ id: `cs_ok_${i}`, expiresAt: new Date(now + i) }));
    const down = await manyHolds(database, failing);
    const ok = await manyHolds(database, good);
    const { provider } = providerWith(Object.fromEntries(failing.map((s) => [s.id, "unreachable" as const])));
    vi.spyOn(log, "error").mockImplementation(() => {});
    const rounds = await Promise.all([
      sweepExpiredHolds(database.db, provider, later()),
      sweepExpiredHolds(database.db, provider, later()),
      sweepExpiredHolds(database.db, provider, later()),
    ]);
    // A hold another server released first is not counted again; each server tried the failing ones.
    expect(rounds.reduce((sum, r) => sum + r.released, 0)).toBe(12);
    expect(rounds.map((r) => r.failed)).toEqual([3, 3, 3]);
    expect(await ok.stock()).toBe(12);
    expect(await down.stock()).toBe(0);
  });

  it("a hold that cannot be settled is logged in one line that names it", async () => {
    const database = await harness.fresh();
    const stuck = await heldOrder(database, "cs_stuck");
    const { provider } = providerWith({ cs_stuck: "unreachable" });
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    expect(await sweepExpiredHolds(database.db, provider, later())).toMatchObject({ failed: 1 });
    expect(logged).toHaveBeenCalledTimes(1);
    // Its fields name the order and say what failed in one line: the message, no stack.
    expect(logged.mock.calls[0]).toEqual([
      { orderId: stuck.order.id, error: expect.stringContaining("provider unreachable") },
      "No se pudo resolver el apartado",
    ]);
    expect(JSON.stringify(logged.mock.calls[0])).not.toContain("\\n");
  });
});
