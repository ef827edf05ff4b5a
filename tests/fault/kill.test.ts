import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import Stripe from "stripe";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type Database, type Db, toTimestamp } from "~/db/database.server";
import { holdCart } from "~/orders/holds.server";
import { newOrderId } from "~/orders/ids";
import { confirmPayment } from "~/orders/payment.server";
import { demoPayment } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import {
  type FakeStripe,
  payByVoucher,
  STRIPE_SHOPPER,
  settleVoucher,
  startFakeStripe,
} from "../support/fake-stripe";
import { launchServer, type RunningServer, startServer } from "../support/server-process";
import {
  expireAllHolds,
  inconsistencies,
  ledger,
  ordersByStatus,
  runningDrop,
  sqliteIntegrity,
  totals,
} from "./ledger";
import { type Answer, burstUntilKilled, type CartLine, checkout, demoPage, orderIdOf } from "./shoppers";

/*
 * SIGKILL, not SIGTERM: the server gets no chance to finish anything. Whatever it had answered
 * must be in the database (a hold the shopper was sent to pay, a payment it said went through),
 * whatever it had half done must be undone whole, and once the server is back and its sweeper has
 * run, every piece is in stock or in a paid order. The database is the same across restarts.
 */

vi.setConfig({ testTimeout: 90_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-kill-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake?.close();
});

const WEBHOOK_SECRET = "whsec_kill_test";
const line = (p: { id: string; dropId: string }, quantity: number): CartLine => ({
  product: { id: p.id },
  dropId: p.dropId,
  quantity,
});

describeEachDatabase("a server killed with SIGKILL", (harness) => {
  let database: Database;
  let db: Db;
  let server: RunningServer | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await harness.fresh();
    db = database.db;
    env = {
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    };
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The server, started if it is not running. */
  async function running(): Promise<RunningServer> {
    server ??= await startServer(env);
    return server;
  }
  async function kill() {
    await server?.kill();
    server = undefined;
  }
  async function stop() {
    await server?.stop();
    server = undefined;
  }

  /** After a kill: the file is sound (SQLite) and the orders agree with themselves. */
  async function expectSound(now?: Date) {
    expect(await inconsistencies(db, { now })).toEqual([]);
    if (database.file) expect(sqliteIntegrity(database.file)).toEqual({ integrity: "ok", foreignKeys: [] });
  }

  /** Waits for the sweeper (it runs right after start-up) to leave no hold past its expiry. */
  async function sweptAfterRestart() {
    await running();
    await expect
      .poll(async () => (await inconsistencies(db, { now: new Date() })).length, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe(0);
  }

  it("during a burst of checkouts: every hold it answered is kept, and after expiry every piece is back", async () => {
    const {
      products: [ring, chain],
    } = await runningDrop(db, [
      { name: "Anillo Luna", stock: 40 },
      { name: "Cadena Sol", stock: 40 },
    ]);
    if (!ring || !chain) throw new Error("fixture");
    const ids = [ring.id, chain.id];
    const start = await totals(db, ids);
    expect(start).toEqual({ [ring.id]: 40, [chain.id]: 40 });
    const url = (await running()).url;

    // Eight shoppers, always one checkout each in flight, over three carts (one of two products,
    // locked in id order together); killed once eight of them have been sent to pay.
    const carts = [[line(ring, 1)], [line(chain, 2)], [line(chain, 1), line(ring, 1)]];
    const burst = await burstUntilKilled({
      jobs: Array.from({ length: 48 }, (_, i) => carts[i % carts.length] ?? []),
      workers: 8,
      send: (cart) => checkout(url, cart),
      counts: (a) => a.status === 200,
      killAfter: 8,
      kill,
    });
    expect(burst.killed).toBe(true);
    expect(burst.cut.length).toBeGreaterThan(0);
    // Nothing but holds before the kill: there were pieces for everyone.
    expect(burst.answered.map((a) => a.answer.status).filter((s) => s !== 200)).toEqual([]);

    // Every hold it answered is in the database, with its lines, waiting for its payment.
    const orders = await ordersByStatus(db);
    for (const { job, answer } of burst.answered) {
      const id = orderIdOf(answer);
      expect(orders.esperando_pago, id).toContain(id);
      const lines = await db
        .selectFrom("order_lines")
        .select(["product_id", "quantity"])
        .where("order_id", "=", id)
        .orderBy("product_id")
        .execute();
      expect(lines).toEqual(
        job
          .map((l) => ({ product_id: l.product.id, quantity: l.quantity }))
          .sort((a, b) => (a.product_id < b.product_id ? -1 : 1)),
      );
    }
    // A checkout cut by the kill held its pieces whole or not at all: none is lost.
    expect(Object.keys(orders)).toEqual(["esperando_pago"]);
    expect(await totals(db, ids)).toEqual(start);
    await expectSound();

    // Nobody pays; their half hour passes while the server is down. Back up, it sweeps them all.
    expect(await expireAllHolds(db)).toBeGreaterThanOrEqual(8);
    await sweptAfterRestart();
    expect(await ledger(db, ids)).toEqual(
      new Map([
        [ring.id, { stock: 40, held: 0, sold: 0 }],
        [chain.id, { stock: 40, held: 0, sold: 0 }],
      ]),
    );
    await expectSound(new Date());
  });

  it("during demo payments: every payment it confirmed is a paid order; the rest expire and give their pieces back", async () => {
    const {
      products: [bracelet],
    } = await runningDrop(db, [{ name: "Pulsera Marea", stock: 24 }]);
    if (!bracelet) throw new Error("fixture");
    const url = (await running()).url;
    const holds: string[] = [];
    for (let i = 0; i < 24; i++) {
      const answer = await checkout(url, [line(bracelet, 1)]);
      expect(answer.status, answer.body.message).toBe(200);
      holds.push(orderIdOf(answer));
    }
    expect((await ledger(db, [bracelet.id])).get(bracelet.id)).toEqual({ stock: 0, held: 24, sold: 0 });

    const burst = await burstUntilKilled({
      jobs: holds,
      workers: 6,
      send: (orderId) => demoPage(url, orderId, demoPayment(`Clienta ${orderId}`)),
      counts: (a) => a.status === 302 && a.location === "/success",
      killAfter: 6,
      kill,
    });
    expect(burst.killed).toBe(true);
    expect(burst.cut.length).toBeGreaterThan(0);
    const confirmed = burst.answered
      .filter(({ answer }) => answer.status === 302 && answer.location === "/success")
      .map(({ job }) => job);
    expect(burst.answered.filter(({ answer }) => answer.location !== "/success")).toEqual([]);
    expect(confirmed.length).toBeGreaterThanOrEqual(6);

    // What the shopper was told is paid is paid, with the details given on the page.
    const paid = await db
      .selectFrom("orders")
      .select(["id", "customer_name", "ship_postal_code"])
      .where("id", "in", holds)
      .where("status", "=", "pendiente")
      .execute();
    for (const id of confirmed) {
      expect(
        paid.find((o) => o.id === id),
        id,
      ).toEqual({
        id,
        customer_name: `Clienta ${id}`,
        ship_postal_code: "68000",
      });
    }
    // A payment cut by the kill was made whole or not at all; nothing else happened to any hold.
    const statuses = await ordersByStatus(db, holds);
    expect([...(statuses.pendiente ?? []), ...(statuses.esperando_pago ?? [])]).toHaveLength(24);
    expect(await totals(db, [bracelet.id])).toEqual({ [bracelet.id]: 24 });
    await expectSound();

    // The shoppers cut off never come back: after their expiry the restarted server sweeps them.
    await expireAllHolds(db);
    await sweptAfterRestart();
    const after = await ordersByStatus(db, holds);
    const paidNow = after.pendiente ?? [];
    expect(after.expirado?.length).toBe(24 - paidNow.length);
    expect(paidNow).toEqual(expect.arrayContaining(confirmed));
    expect(paidNow.sort()).toEqual(paid.map((o) => o.id).sort());
    expect((await ledger(db, [bracelet.id])).get(bracelet.id)).toEqual({
      stock: 24 - paidNow.length,
      held: 0,
      sold: paidNow.length,
    });
    // A paid order's page still says so; an expired one's says it expired.
    const shop = await running();
    const paidPage = await fetch(`${shop.url}/pago-demo/${confirmed[0]}`, { redirect: "manual" });
    expect(paidPage.headers.get("location")).toBe("/success");
    const expiredPage = await fetch(`${shop.url}/pago-demo/${after.expirado?.[0]}`);
    expect(await expiredPage.text()).toContain("Este pago ya expiró");
    await expectSound(new Date());
  });

  it("during a hold sweep: each hold is released whole or not at all, and the next sweep finishes the job", async () => {
    const {
      products: [earring, pendant],
    } = await runningDrop(db, [
      { name: "Arete Brisa", stock: 2_000 },
      { name: "Dije Estrella", stock: 10 },
    ]);
    if (!earring || !pendant) throw new Error("fixture");
    const ids = [earring.id, pendant.id];
    // Only the server started below may sweep.
    await stop();
    // Two paid orders and two holds with time left: the sweep must leave all four alone.
    const paid: string[] = [];
    const live: string[] = [];
    for (const list of [paid, paid, live, live]) {
      const held = await holdCart(db, {
        lines: [
          { productId: earring.id, dropId: earring.dropId, quantity: 1 },
          { productId: pendant.id, dropId: pendant.dropId, quantity: 2 },
        ],
        provider: "demo",
      });
      if (!held.ok) throw new Error(held.message);
      list.push(held.id);
    }
    for (const id of paid) {
      expect(
        await confirmPayment(db, { orderId: id, customerName: "Ana Pérez", customerEmail: "ana@example.mx" }),
      ).toBe("paid");
    }
    // Many holds past their expiry, as if the shop had been down through a busy drop.
    const overdue = 400;
    const expired = await insertOverdueHolds(db, earring, overdue);
    const start = await totals(db, ids);
    expect(start).toEqual({ [earring.id]: 2_000, [pendant.id]: 10 });

    // The sweep runs as the server starts: killed as soon as it has released the first holds.
    const mine = [...expired, ...paid, ...live];
    const released = async () => (await ordersByStatus(db, mine)).expirado?.length ?? 0;
    const launched = launchServer(env);
    const deadline = Date.now() + 60_000;
    while ((await released()) === 0 && launched.child.exitCode === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 2));
    }
    await launched.kill();
    const atKill = await released();
    // Killed mid-sweep: some holds released, others still waiting.
    expect(atKill, launched.output()).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(overdue);

    // Each release is one transaction (the order's status with its pieces): none half done.
    expect(await totals(db, ids)).toEqual(start);
    const mid = await ledger(db, ids);
    const waiting = overdue - atKill;
    expect(mid.get(earring.id)).toEqual({ stock: 2_000 - 4 - waiting, held: 2 + waiting, sold: 2 });
    await expectSound();

    // Restarted, the sweep goes on from where it was and finishes.
    await sweptAfterRestart();
    expect(await ordersByStatus(db, mine)).toEqual({
      expirado: expired.sort(),
      pendiente: paid.sort(),
      esperando_pago: live.sort(),
    });
    expect(await ledger(db, ids)).toEqual(
      new Map([
        [earring.id, { stock: 2_000 - 4, held: 2, sold: 2 }],
        [pendant.id, { stock: 10 - 8, held: 4, sold: 4 }],
      ]),
    );
    await expectSound(new Date());
  });

  it("during Stripe webhooks: a payment whose confirmation was cut is fulfilled by the sweeper, and redelivery changes nothing", async () => {
    await stop();
    const stripeEnv = {
      DATA_DIR: env.DATA_DIR ?? "",
      DATABASE_URL: env.DATABASE_URL ?? "",
      DEMO_DATA: "false",
      STRIPE_SECRET_KEY: "sk_test_kill",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      PUBLIC_URL: "https://tienda.example",
    };
    const demoEnv = env;
    env = stripeEnv;
    try {
      const {
        products: [ring],
      } = await runningDrop(db, [{ name: "Anillo Coral", stock: 12 }]);
      if (!ring) throw new Error("fixture");
      const url = (await running()).url;
      const sessions: { orderId: string; sessionId: string; total: number }[] = [];
      for (let i = 0; i < 12; i++) {
        // No Origin: the shop's address is PUBLIC_URL, and a request that says nothing is let through.
        const answer = await checkout(url, [line(ring, 1)], false);
        expect(answer.status, answer.body.message).toBe(200);
        const sessionId = answer.body.url?.split("/").pop() ?? "";
        const order = await db
          .selectFrom("orders")
          .select(["id", "total_cents"])
          .where("payment_session_id", "=", sessionId)
          .executeTakeFirstOrThrow();
        sessions.push({ orderId: order.id, sessionId, total: order.total_cents });
      }
      // Eight shoppers pay on Stripe's page; four walk away.
      const payers = sessions.slice(0, 8);
      for (const s of payers) Object.assign(fake.sessions.get(s.sessionId) ?? {}, paidSession(s));
      const events = payers.map((s, i) => completedEvent(`evt_kill_${harness.dialect}_${i}`, s));

      const burst = await burstUntilKilled({
        jobs: events,
        workers: 4,
        send: (event) => deliver(url, event),
        counts: (a) => a.status === 200 && a.body.outcome === "paid",
        killAfter: 3,
        kill,
      });
      expect(burst.killed).toBe(true);
      expect(burst.answered.filter(({ answer }) => answer.status !== 200)).toEqual([]);
      const acknowledged = burst.answered.map(({ job }) => job.data.object.client_reference_id);
      expect(acknowledged.length).toBeGreaterThanOrEqual(3);
      const mine = sessions.map((s) => s.orderId);
      const statuses = await ordersByStatus(db, mine);
      expect(statuses.pendiente ?? []).toEqual(expect.arrayContaining(acknowledged));
      expect(await totals(db, [ring.id])).toEqual({ [ring.id]: 12 });
      await expectSound();

      // Down past the sessions' expiry: on restart the sweeper asks Stripe about each one.
      await expireAllHolds(db);
      await sweptAfterRestart();
      const byId = (list: { orderId: string }[]) => list.map((s) => s.orderId).sort();
      expect(await ordersByStatus(db, mine)).toEqual({
        pendiente: byId(payers),
        expirado: byId(sessions.slice(8)),
      });
      // Stripe goes on delivering what was not acknowledged (and may repeat what was): no change.
      const shop = await running();
      for (const event of events) {
        const answer = await deliver(shop.url, event);
        expect(answer.status).toBe(200);
      }
      expect((await ledger(db, [ring.id])).get(ring.id)).toEqual({ stock: 4, held: 0, sold: 8 });
      await expectSound(new Date());
    } finally {
      await stop();
      env = demoEnv;
    }
  });

  it("between an OXXO voucher's creation and its success: nothing lost, nothing held twice", async () => {
    await stop();
    const demoEnv = env;
    env = {
      DATA_DIR: env.DATA_DIR ?? "",
      DATABASE_URL: env.DATABASE_URL ?? "",
      DEMO_DATA: "false",
      STRIPE_SECRET_KEY: "sk_test_kill",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      PUBLIC_URL: "https://tienda.example",
    };
    try {
      const {
        products: [earring],
      } = await runningDrop(db, [{ name: "Arete Efectivo", stock: 8 }]);
      if (!earring) throw new Error("fixture");
      const url = (await running()).url;
      const sessions: { orderId: string; sessionId: string; total: number }[] = [];
      for (let i = 0; i < 8; i++) {
        const answer = await checkout(url, [line(earring, 1)], false);
        expect(answer.status, answer.body.message).toBe(200);
        const sessionId = answer.body.url?.split("/").pop() ?? "";
        const order = await db
          .selectFrom("orders")
          .select(["id", "total_cents"])
          .where("payment_session_id", "=", sessionId)
          .executeTakeFirstOrThrow();
        sessions.push({ orderId: order.id, sessionId, total: order.total_cents });
      }
      // Every shopper takes an OXXO voucher on Stripe's page; the server dies while their
      // 'completed' events arrive.
      const voucherEnds = new Date(Date.now() + 2 * 24 * 3_600_000);
      for (const s of sessions) payByVoucher(fake, s.sessionId, voucherEnds);
      const completed = sessions.map((s, i) =>
        sessionEvent(`evt_ficha_${harness.dialect}_${i}`, "checkout.session.completed", s.sessionId),
      );
      const burst = await burstUntilKilled({
        jobs: completed,
        workers: 3,
        send: (event) => deliver(url, event),
        counts: (a) => a.status === 200,
        killAfter: 3,
        kill,
      });
      expect(burst.killed).toBe(true);
      await expectSound();
      // Down past the 30-minute holds (those whose event got through already hold until their
      // voucher ends): on restart the sweeper asks Stripe about the others and records theirs.
      await db
        .updateTable("orders")
        .set({ expires_at: toTimestamp(new Date(Date.now() - 60_000)) })
        .where(
          "id",
          "in",
          sessions.map((s) => s.orderId),
        )
        .where("voucher_reference", "is", null)
        .execute();
      await running();
      const mine = sessions.map((s) => s.orderId);
      await expect
        .poll(
          async () =>
            (
              await db
                .selectFrom("orders")
                .select("id")
                .where("id", "in", mine)
                .where("status", "=", "esperando_pago")
                .where("voucher_reference", "is not", null)
                .where("expires_at", ">", toTimestamp(new Date()))
                .execute()
            ).length,
          { timeout: 20_000, interval: 100 },
        )
        .toBe(8);
      expect((await ledger(db, [earring.id])).get(earring.id)).toEqual({ stock: 0, held: 8, sold: 0 });

      // The stores confirm the cash; Stripe delivers every event again, some twice, in any order.
      for (const s of sessions) settleVoucher(fake, s.sessionId, "paid");
      const shop = await running();
      const succeeded = sessions.map((s, i) =>
        sessionEvent(
          `evt_pagada_${harness.dialect}_${i}`,
          "checkout.session.async_payment_succeeded",
          s.sessionId,
        ),
      );
      for (const event of [...succeeded, ...completed.reverse(), ...succeeded]) {
        expect((await deliver(shop.url, event)).status).toBe(200);
      }
      expect(await ordersByStatus(db, mine)).toEqual({ pendiente: [...mine].sort() });
      expect((await ledger(db, [earring.id])).get(earring.id)).toEqual({ stock: 0, held: 0, sold: 8 });
      const mails = await db
        .selectFrom("emails")
        .select(["kind", "order_id"])
        .where("order_id", "in", mine)
        .execute();
      const count = (kind: string) => mails.filter((m) => m.kind === kind).length;
      expect({ fichas: count("ficha_de_pago"), confirmaciones: count("confirmacion") }).toEqual({
        fichas: 8,
        confirmaciones: 8,
      });
      await expectSound(new Date());
    } finally {
      await stop();
      env = demoEnv;
    }
  });
});

/**
 * Holds past their expiry, written straight into the database the way a checkout writes them (the
 * order, its line, its session at the demo provider, the pieces taken from stock).
 */
async function insertOverdueHolds(
  db: Db,
  product: { id: string; dropId: string },
  count: number,
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newOrderId());
  const base = Date.now() - 2 * 3_600_000;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < ids.length; i += 200) {
      const chunk = ids.slice(i, i + 200);
      await trx
        .insertInto("orders")
        .values(
          chunk.map((id, j) => ({
            id,
            status: "esperando_pago" as const,
            total_cents: 350_000,
            currency: "mxn",
            customer_name: "",
            customer_email: "",
            payment_provider: "demo",
            payment_session_id: `demo_${id}`,
            expires_at: toTimestamp(new Date(base + (i + j) * 1_000)),
            created_at: toTimestamp(new Date(base - 1_800_000)),
            updated_at: toTimestamp(new Date(base - 1_800_000)),
          })),
        )
        .execute();
      await trx
        .insertInto("order_lines")
        .values(
          chunk.map((id) => ({
            order_id: id,
            position: 0,
            product_id: product.id,
            drop_id: product.dropId,
            name: "Arete Brisa",
            unit_price_cents: 350_000,
            quantity: 1,
          })),
        )
        .execute();
    }
    await trx
      .updateTable("products")
      .set({ stock: sql`stock - ${count}` })
      .where("id", "=", product.id)
      .execute();
  });
  return ids;
}

const signer = new Stripe("sk_test_signer");

/** What Stripe's page leaves in a session the shopper paid. */
function paidSession(s: { total: number }) {
  return {
    status: "complete",
    payment_status: "paid",
    amount_total: s.total,
    currency: "mxn",
    ...STRIPE_SHOPPER,
  };
}

function completedEvent(id: string, s: { orderId: string; sessionId: string; total: number }) {
  return {
    id,
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        id: s.sessionId,
        object: "checkout.session",
        client_reference_id: s.orderId,
        metadata: { order_id: s.orderId },
        ...paidSession(s),
      },
    },
  };
}

/** Stripe's event for a session of the stand-in as it stands when the event is made. */
function sessionEvent(id: string, type: string, sessionId: string) {
  const session = fake.sessions.get(sessionId);
  return { id, object: "event", type, data: { object: { ...session } } };
}

async function deliver(server: string, event: { id: string; type: string }): Promise<Answer> {
  const payload = JSON.stringify(event);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const res = await fetch(`${server}/api/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as Answer["body"], location: null };
}
