import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { formatMXN } from "~/lib/money";
import { createStripeClient, createStripePayments } from "~/payments/stripe-payments.server";
import { shopBrowser } from "../support/browser";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase, sqliteHarness } from "../support/databases";
import { type FakeStripe, payByCard, STRIPE_SHOPPER, startFakeStripe } from "../support/fake-stripe";
import { logLines } from "../support/log-lines";
import { hold } from "../support/orders";
import { type RunningServer, startServer } from "../support/server-process";

vi.setConfig({ testTimeout: 120_000 });
const WEBHOOK_SECRET = "whsec_pruebas123";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-stripe-"));
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const product = (database: Database, stock: number, priceCents?: number) =>
  runningPiece(database, { stock, priceCents });

describe("the Stripe adapter, against a local HTTP server", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it("sends amounts in centavos, mxn, expires_at, metadata and an idempotency key from the order", async () => {
    const database = await sqliteHarness(cleanups).fresh();
    const p = await product(database, 3, 1_250_000);
    const order = await hold(database.db, {
      lines: [{ productId: p.id, dropId: p.dropId, quantity: 2 }],
      provider: "stripe",
    });
    const stripe = createStripePayments(
      createStripeClient({ secretKey: "sk_test_123", webhookSecret: WEBHOOK_SECRET, apiBase: fake.url }),
      {
        webhookSecret: WEBHOOK_SECRET,
        images: async (ids) => new Map(ids.map((id) => [id, `https://tienda.example/media/${id}.webp`])),
      },
    );
    const before = Date.now();
    const session = await stripe.createSession(order, {
      success: "https://tienda.example/success",
      cancel: `https://tienda.example/cancel?pedido=${order.id}`,
    });
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);

    const sent = fake.requests.findLast((r) => r.path === "/v1/checkout/sessions");
    if (!sent) throw new Error("no request");
    expect(sent.headers.authorization).toBe("Bearer sk_test_123");
    expect(sent.headers["idempotency-key"]).toBe(`checkout-session-${order.id}`);
    const f = sent.form;
    expect(f.get("mode")).toBe("payment");
    expect(f.get("currency")).toBe("mxn");
    expect(f.get("line_items[0][price_data][currency]")).toBe("mxn");
    expect(f.get("line_items[0][price_data][unit_amount]")).toBe("1250000");
    expect(f.get("line_items[0][quantity]")).toBe("2");
    expect(f.get("line_items[0][price_data][product_data][name]")).toBe("Anillo Marea");
    expect(f.get("line_items[0][price_data][product_data][images][0]")).toBe(
      `https://tienda.example/media/${p.id}.webp`,
    );
    expect(f.get("metadata[order_id]")).toBe(order.id);
    expect(f.get("client_reference_id")).toBe(order.id);
    expect(f.get("name_collection[individual][enabled]")).toBe("true");
    expect(f.get("shipping_address_collection[allowed_countries][0]")).toBe("MX");
    expect(f.get("phone_number_collection[enabled]")).toBe("true");
    expect(f.get("success_url")).toBe("https://tienda.example/success");
    expect(f.get("cancel_url")).toBe(`https://tienda.example/cancel?pedido=${order.id}`);
    const expiresAt = Number(f.get("expires_at")) * 1000;
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(expiresAt).toBeLessThan(before + 32 * 60_000);

    // Expiring twice is harmless: the second call finds the session already closed.
    await stripe.expireSession(session.id);
    await stripe.expireSession(session.id);
    expect((await stripe.getSession(session.id)).status).toBe("expired");
  });
});

describeEachDatabase("Stripe webhooks through the shop's HTTP endpoint", (harness) => {
  let server: RunningServer;
  let database: Database;
  let env: Record<string, string>;
  const signer = new Stripe("sk_test_signer");

  beforeAll(async () => {
    database = await harness.fresh();
    env = {
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      STRIPE_SECRET_KEY: "sk_test_123",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      PUBLIC_URL: "https://tienda.example",
    };
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Starts a checkout through the shop and returns its order id. */
  async function checkout(p: { id: string; dropId: string }, quantity = 1) {
    const res = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cart: [{ product: { id: p.id }, dropId: p.dropId, quantity }] }),
    });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const sessionId = url.split("/").pop() ?? "";
    // The browser cookie the checkout was counted under: /cancel answers only that browser.
    browsers.set(sessionId, (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "");
    cancelUrls.set(sessionId, String(fake.sessions.get(sessionId)?.cancel_url));
    const order = await database.db
      .selectFrom("orders")
      .select(["id", "total_cents"])
      .where("payment_session_id", "=", sessionId)
      .executeTakeFirstOrThrow();
    totals.set(sessionId, order.total_cents);
    return { orderId: order.id, sessionId };
  }

  /** The browser (its cookie) that opened each session, and the cancel_url it gave Stripe. */
  const browsers = new Map<string, string>();
  const cancelUrls = new Map<string, string>();

  /** What each session charges, as Stripe reports it in its events (amount_total). */
  const totals = new Map<string, number>();

  let eventNumber = 0;
  function event(type: string, sessionId: string, orderId: string, paid: boolean) {
    return {
      id: `evt_${harness.dialect}_${++eventNumber}`,
      object: "event",
      type,
      data: {
        object: {
          id: sessionId,
          object: "checkout.session",
          client_reference_id: orderId,
          metadata: { order_id: orderId },
          payment_status: paid ? "paid" : "unpaid",
          amount_total: totals.get(sessionId) ?? 0,
          currency: "mxn",
          status: type === "checkout.session.expired" ? "expired" : "complete",
          ...STRIPE_SHOPPER,
        },
      },
    };
  }

  async function deliver(evt: unknown, secret = WEBHOOK_SECRET) {
    const payload = JSON.stringify(evt);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
    return fetch(`${server.url}/api/stripe/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
  }

  const orderRow = (id: string) =>
    database.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const emailsFor = async (id: string) =>
    (await database.db.selectFrom("emails").select("id").where("order_id", "=", id).execute()).length;

  it("each event three times in shuffled order: one order, stock taken once, one e-mail", async () => {
    const p = await product(database, 3);
    const { orderId, sessionId } = await checkout(p, 2);
    expect(await p.stock()).toBe(1);
    const completed = event("checkout.session.completed", sessionId, orderId, true);
    const unrelated = { ...event("customer.created", sessionId, orderId, false) };
    const deliveries = [completed, completed, completed, unrelated, unrelated, unrelated].sort(
      () => Math.random() - 0.5,
    );
    for (const evt of deliveries) expect((await deliver(evt)).status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({
      status: "pendiente",
      customer_email: "ana@example.mx",
      ship_line1: "Calle Macedonio Alcalá 401",
      ship_postal_code: "68000",
      ship_phone: "+529511234567",
    });
    expect(await p.stock()).toBe(1);
    expect(await emailsFor(orderId)).toBe(1);
  });

  it("success_url is /success signed for the browser: the order shows there, confirming until the webhook", async () => {
    const p = await product(database, 3);
    const { orderId, sessionId } = await checkout(p);
    const successUrl = String(fake.sessions.get(sessionId)?.success_url);
    expect(successUrl).toMatch(
      new RegExp(`^https://tienda\\.example/success\\?pedido=${orderId}&firma=[\\w-]{43}$`),
    );
    const { pathname, search } = new URL(successUrl);
    const page = async (cookie: string) =>
      (await fetch(`${server.url}${pathname}${search}`, { headers: { cookie } })).text();
    // Back from Stripe before its event arrived: the order, and that the payment is being confirmed.
    const early = await page(browsers.get(sessionId) ?? "");
    expect(early).toContain(orderId);
    expect(early).toContain("Estamos confirmando tu pago");
    expect(await deliver(event("checkout.session.completed", sessionId, orderId, true))).toHaveProperty(
      "status",
      200,
    );
    const late = await page(browsers.get(sessionId) ?? "");
    expect(late).toContain("Enviamos la confirmación a ana@example.mx.");
    // Another browser with the same address: only the thanks.
    const elsewhere = await page(await shopBrowser(server.url));
    expect(elsewhere).toContain("¡Gracias por tu compra!");
    expect(elsewhere).not.toContain(orderId);
  });

  it("back on /success from a paid card before Stripe's event: the order is confirmed from Stripe's own answer, its shipping in the total, 'Ver mi pedido' opens; the late event changes nothing", async () => {
    const p = await product(database, 3, 250_000);
    const { orderId, sessionId } = await checkout(p);
    // Paid on Stripe's page, with the first shipping option; its event has not come yet.
    payByCard(fake, sessionId, { amount: 250_000, fingerprint: "fp_vuelta" });
    const shippingCents = Number(
      (fake.sessions.get(sessionId)?.shipping_cost as { amount_total?: number })?.amount_total ?? 0,
    );
    const { pathname, search } = new URL(String(fake.sessions.get(sessionId)?.success_url));
    const page = await (
      await fetch(`${server.url}${pathname}${search}`, { headers: { cookie: browsers.get(sessionId) ?? "" } })
    ).text();
    expect(page).toContain("Enviamos la confirmación a ana@example.mx.");
    expect(page).not.toContain("Estamos confirmando tu pago");
    expect(page).toContain(formatMXN(250_000 + shippingCents));
    const link = page.match(/href="(\/mi-pedido\/[^"]+)"/)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(link).not.toBe("");
    expect((await fetch(`${server.url}${link}`)).status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: "pendiente", customer_email: "ana@example.mx" });
    expect(await p.stock()).toBe(2);
    // Stripe's event, arriving after: nothing twice.
    expect((await deliver(event("checkout.session.completed", sessionId, orderId, true))).status).toBe(200);
    expect(await emailsFor(orderId)).toBe(1);
    expect(await p.stock()).toBe(2);
  });

  it("a signed event for another session changes nothing; a signed malformed one is a 400", async () => {
    const p = await product(database, 3);
    const { orderId, sessionId } = await checkout(p);
    const genuine = event("checkout.session.completed", sessionId, orderId, true);
    const session = genuine.data.object;
    // Someone else's (cheaper) session naming this order in its metadata.
    const forged = {
      ...genuine,
      id: `${genuine.id}-otra`,
      data: { object: { ...session, id: "cs_test_otra_sesion" } },
    };
    const res = await deliver(forged);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { outcome: string }).outcome).toBe("ignored");
    expect((await orderRow(orderId)).status).toBe("esperando_pago");
    expect(await emailsFor(orderId)).toBe(0);
    // An expiry for another session does not release this one's hold either.
    await deliver({
      ...event("checkout.session.expired", sessionId, orderId, false),
      data: { object: { ...session, id: "cs_test_otra_sesion", status: "expired" } },
    });
    expect((await orderRow(orderId)).status).toBe("esperando_pago");

    for (const malformed of [
      { id: "evt_roto_1", object: "event", type: "checkout.session.completed" },
      { id: "evt_roto_2", object: "event", type: "checkout.session.completed", data: { object: null } },
    ]) {
      const res = await deliver(malformed);
      expect(res.status, malformed.id).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe("Evento inválido.");
    }
    // The genuine event still fulfils the order.
    expect((await deliver(genuine)).status).toBe(200);
    expect((await orderRow(orderId)).status).toBe("pendiente");
  });

  it("a signed paid event for another amount or currency is never taken as paid nor dropped: the order cancelled, its refund recorded for the owner, no confirmation", async () => {
    for (const change of [{ amount_total: 100 }, { currency: "usd" }]) {
      const p = await product(database, 3);
      const { orderId, sessionId } = await checkout(p);
      const paid = event("checkout.session.completed", sessionId, orderId, true);
      const res = await deliver({ ...paid, data: { object: { ...paid.data.object, ...change } } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { outcome: string }).outcome).toBe("cancelled");
      expect((await orderRow(orderId)).status).toBe("cancelado");
      expect(await p.stock()).toBe(3);
      expect(await emailsFor(orderId)).toBe(0);
      const refund = await database.db
        .selectFrom("refunds")
        .select(["status", "reason"])
        .where("order_id", "=", orderId)
        .executeTakeFirst();
      expect(refund).toMatchObject({ status: "pendiente", reason: expect.stringContaining("no coincidió") });
    }
  });

  it("a signed body that is not one event object (an array, a string, null, an object without an id) is a Spanish 400", async () => {
    for (const body of [
      [event("checkout.session.completed", "cs_x", "OL-AAAAAAAA", true)],
      "evento",
      null,
      { type: "x" },
    ]) {
      const res = await deliver(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe("Evento inválido.");
    }
  });

  it("a signature dated 10 minutes ahead, or 10 minutes old, is refused; one within Stripe's 5 minutes is taken", async () => {
    const p = await product(database, 2);
    const { orderId, sessionId } = await checkout(p);
    const payload = JSON.stringify(event("checkout.session.completed", sessionId, orderId, true));
    const at = (secondsFromNow: number) =>
      fetch(`${server.url}/api/stripe/webhook`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "stripe-signature": signer.webhooks.generateTestHeaderString({
            payload,
            secret: WEBHOOK_SECRET,
            timestamp: Math.floor(Date.now() / 1000) + secondsFromNow,
          }),
        },
        body: payload,
      });
    for (const seconds of [600, -600]) {
      const res = await at(seconds);
      expect(res.status, String(seconds)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe("Firma inválida.");
    }
    expect((await orderRow(orderId)).status).toBe("esperando_pago");
    expect((await at(60)).status).toBe(200);
    expect((await orderRow(orderId)).status).toBe("pendiente");
  });

  it("a bad signature is refused with 400 and changes nothing", async () => {
    const p = await product(database, 2);
    const { orderId, sessionId } = await checkout(p);
    const forged = await deliver(event("checkout.session.completed", sessionId, orderId, true), "whsec_otro");
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { message: string }).message).toBe("Firma inválida.");
    const unsigned = await fetch(`${server.url}/api/stripe/webhook`, { method: "POST", body: "{}" });
    expect(unsigned.status).toBe(400);
    // Said in the log (at most once a minute): a wrong or rotated secret refuses real events too.
    expect(
      logLines(server.output()).some((l) => l.level === "error" && l.msg.includes("STRIPE_WEBHOOK_SECRET")),
    ).toBe(true);
    expect((await orderRow(orderId)).status).toBe("esperando_pago");
    expect(await p.stock()).toBe(1);
  });

  it("expired after completed: the paid order stands and its pieces stay sold", async () => {
    const p = await product(database, 2);
    const { orderId, sessionId } = await checkout(p);
    await deliver(event("checkout.session.completed", sessionId, orderId, true));
    await deliver(event("checkout.session.expired", sessionId, orderId, false));
    expect((await orderRow(orderId)).status).toBe("pendiente");
    expect(await p.stock()).toBe(1);
  });

  it("completed after expired: the money is kept and the pieces are taken again", async () => {
    const p = await product(database, 2);
    const { orderId, sessionId } = await checkout(p);
    await deliver(event("checkout.session.expired", sessionId, orderId, false));
    expect(await p.stock()).toBe(2);
    await deliver(event("checkout.session.completed", sessionId, orderId, true));
    expect((await orderRow(orderId)).status).toBe("pendiente");
    expect(await p.stock()).toBe(1);
  });

  it("a delayed payment: completed unpaid waits; async success pays; async failure returns the stock", async () => {
    const p = await product(database, 3);
    const a = await checkout(p);
    const b = await checkout(p);
    await deliver(event("checkout.session.completed", a.sessionId, a.orderId, false));
    expect((await orderRow(a.orderId)).status).toBe("esperando_pago");
    await deliver(event("checkout.session.async_payment_succeeded", a.sessionId, a.orderId, true));
    expect((await orderRow(a.orderId)).status).toBe("pendiente");
    await deliver(event("checkout.session.async_payment_failed", b.sessionId, b.orderId, false));
    expect((await orderRow(b.orderId)).status).toBe("expirado");
    expect(await p.stock()).toBe(2);
  });

  /**
   * The shopper comes back from Stripe's page without paying: the session's cancel_url, in the
   * browser that opened it (or another one).
   */
  async function cancel(sessionId: string, cookie = browsers.get(sessionId) ?? "") {
    const back = new URL(cancelUrls.get(sessionId) ?? "");
    const res = await fetch(`${server.url}${back.pathname}${back.search}`, { headers: { cookie } });
    return { status: res.status, text: await res.text() };
  }

  it("/cancel releases only for the browser that started the checkout, from its signed link", async () => {
    const p = await product(database, 1);
    const { orderId, sessionId } = await checkout(p);
    const link = new URL(String(fake.sessions.get(sessionId)?.cancel_url));
    expect(link.searchParams.get("pedido")).toBe(orderId);
    expect(link.searchParams.get("firma")).toMatch(/^[\w-]{43}$/);
    // The bare order id, the link in another browser, a forged signature: nothing changes.
    for (const attempt of [
      fetch(`${server.url}/cancel?pedido=${orderId}`, { headers: { cookie: browsers.get(sessionId) ?? "" } }),
      fetch(`${server.url}${link.pathname}${link.search}`, {
        headers: { cookie: await shopBrowser(server.url) },
      }),
      fetch(`${server.url}${link.pathname}${link.search}`),
      fetch(`${server.url}/cancel?pedido=${orderId}&firma=${"A".repeat(43)}`, {
        headers: { cookie: browsers.get(sessionId) ?? "" },
      }),
    ]) {
      const res = await attempt;
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("no corresponde a un pago iniciado en este navegador");
      expect((await orderRow(orderId)).status).toBe("esperando_pago");
      expect(fake.sessions.get(sessionId)?.status).toBe("open");
      expect(await p.stock()).toBe(0);
    }
    // Its own browser: the session is closed and the piece is back.
    expect((await cancel(sessionId)).text).toContain("No se hizo ningún cargo");
    expect(fake.sessions.get(sessionId)?.status).toBe("expired");
    expect(await p.stock()).toBe(1);
  });

  it("/cancel while Stripe is down: the Spanish page, never a 5xx; the hold stays and a retry frees it once Stripe is back", async () => {
    const p = await product(database, 2);
    const { orderId, sessionId } = await checkout(p, 2);
    try {
      for (const outage of ["error", "hangup"] as const) {
        fake.outage = outage;
        const page = await cancel(sessionId);
        expect(page.status, outage).toBe(200);
        expect(page.text).toContain("Algo salió mal");
        expect(page.text).toContain("El pago no se completó.");
        expect(page.text).toContain("el apartado se liberará en unos minutos");
        // It may have been paid a moment before: only Stripe can tell, so the pieces stay held.
        expect((await orderRow(orderId)).status).toBe("esperando_pago");
        expect(await p.stock()).toBe(0);
      }
    } finally {
      fake.outage = null;
    }
    // Each failure is one line of the server's log.
    expect(
      server
        .output()
        .split("\n")
        .filter((line) => line.includes(orderId)),
    ).toHaveLength(2);
    const page = await cancel(sessionId);
    expect(page.status).toBe(200);
    expect(page.text).toContain("No se hizo ningún cargo");
    expect((await orderRow(orderId)).status).toBe("expirado");
    expect(await p.stock()).toBe(2);
  });

  it("/cancel for a session Stripe no longer knows (404) returns the pieces at once", async () => {
    const p = await product(database, 2);
    const { orderId, sessionId } = await checkout(p, 2);
    fake.sessions.delete(sessionId);
    const page = await cancel(sessionId);
    expect(page.status).toBe(200);
    expect(page.text).toContain("No se hizo ningún cargo");
    expect((await orderRow(orderId)).status).toBe("expirado");
    expect(await p.stock()).toBe(2);
  });

  it("/cancel for a session that was paid after all never says 'no charge', and the pieces stay taken", async () => {
    const p = await product(database, 2);
    const { orderId, sessionId } = await checkout(p);
    const session = fake.sessions.get(sessionId) ?? {};
    Object.assign(session, { status: "complete", payment_status: "paid" });
    const page = await cancel(sessionId);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("No se hizo ningún cargo");
    expect(page.text).toContain("te enviaremos la confirmación por correo");
    expect((await orderRow(orderId)).status).toBe("esperando_pago");
    expect(await p.stock()).toBe(1);
  });

  it("a payment confirmed while the server was down is fulfilled when Stripe retries the event", async () => {
    const p = await product(database, 1);
    const { orderId, sessionId } = await checkout(p);
    server.child.kill("SIGKILL");
    await server.stop();
    const completed = event("checkout.session.completed", sessionId, orderId, true);
    // Stripe's first attempt fails: nobody is listening.
    await expect(deliver(completed)).rejects.toThrow();
    server = await startServer(env);
    expect((await deliver(completed)).status).toBe(200);
    expect((await orderRow(orderId)).status).toBe("pendiente");
    expect(await p.stock()).toBe(0);
  });
});
