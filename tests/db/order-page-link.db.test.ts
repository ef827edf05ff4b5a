import type { KyselyPlugin, RootOperationNode } from "kysely";
import { Migrator } from "kysely";
import { expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import type { Database, Db } from "~/db/database.server";
import { migrateToLatest } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { deliverPendingEmails } from "~/mail/delivery.server";
import type { Mailer, MailMessage } from "~/mail/mailer.server";
import { correctBuyer } from "~/orders/buyer-correction.server";
import { createOrderLinks } from "~/orders/cancel-link.server";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import { releaseHold } from "~/orders/holds.server";
import { createOrderPageLinks, type LinkedOrder, orderPagePath } from "~/orders/order-page-link.server";
import { renewOrderPageLink } from "~/orders/order-page-renewal.server";
import { getOrder } from "~/orders/queries.server";
import { orderTimeline } from "~/orders/timeline.server";
import { settingsFromEnvironment } from "~/settings/settings";
import { orderLinkRenewalAnswer } from "~/web/order-link-renewal-request.server";
import { signedOrder } from "~/web/signed-order.server";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase, untilWaitingOnLocks } from "../support/databases";
import { gatedAfter, hold, writeTo } from "../support/orders";
import { paidOrder, TYPED_BUYER, typedShipping } from "../support/paid-order";

/*
 * 'Mi pedido' links that can be renewed (decision 37): the signature covers the order's link
 * generation once it is above 0. The links e-mailed before (generation 0) keep working; a corrected
 * e-mail or 'Renovar enlace de «Mi pedido»' raises it, in the same transaction, and the links
 * signed before then answer 410 ("no longer valid"), never the order.
 */

const SECRET = "s".repeat(32);
const links = createOrderPageLinks(SECRET);
const shop = loadConfig({}).shop;
const ORIGIN = "https://orodeluna.mx";

/** How a link looked before generations existed: the order id alone, signed for 'Mi pedido'. */
const legacyToken = (orderId: string) => createOrderLinks(SECRET, "enlace-mi-pedido").sign(orderId, null);

/** What a buyer's page does with a link: the order it opens, or the status it answers. */
async function open(db: Db, orderId: string, token: string): Promise<LinkedOrder | number> {
  const request = new Request(`${ORIGIN}/mi-pedido/${orderId}?firma=${encodeURIComponent(token)}`);
  try {
    return await signedOrder(db, links, request, { orderId });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

async function linkVersion(db: Db, orderId: string): Promise<number> {
  const row = await db
    .selectFrom("orders")
    .select("link_version")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  return row.link_version;
}

/** `db` failing the first statement `at` picks: what a crash half-way through a transaction does. */
function failingAt(db: Db, at: (node: RootOperationNode) => boolean): Db {
  let armed = true;
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      if (armed && at(node)) {
        armed = false;
        throw new Error("corte simulado");
      }
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
  return db.withPlugin(plugin);
}

const BUYER = TYPED_BUYER;

/** A paid order by BUYER, as she typed her address; its id. */
async function paidId(database: Database): Promise<string> {
  return (await paidOrder(database, { buyer: BUYER, shipping: typedShipping(BUYER) })).id;
}

describeEachDatabase("'Mi pedido' links that can be renewed", (harness) => {
  it("an order keeps generation 0 until something raises it: the links already e-mailed keep opening it", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const id = await paidId(database);
    const order = await getOrder(db, id);
    expect(order?.linkVersion).toBe(0);
    // The signature of generation 0 is the one every e-mail carried before generations existed.
    expect(links.sign({ id, linkVersion: 0 })).toBe(legacyToken(id));
    expect(await open(db, id, legacyToken(id))).toEqual({ id, linkVersion: 0 });
    // A correction that leaves the e-mail alone leaves the link alone.
    expect(await correctBuyer(db, id, { ...BUYER, line1: "Calle Macedonio Alcalá 410" })).toEqual({
      ok: true,
      changed: ["line1"],
    });
    expect(await open(db, id, legacyToken(id))).toEqual({ id, linkVersion: 0 });
    // Made-up signatures and other orders' links are not found, as before.
    const other = await paidId(database);
    expect(await open(db, id, legacyToken(other))).toBe(404);
    expect(await open(db, id, "A".repeat(43))).toBe(404);
    expect(await open(db, "OL-ZZZZZZZZ", legacyToken("OL-ZZZZZZZZ"))).toBe(404);
  });

  it("a corrected e-mail raises it in the correction's transaction: the old link is refused as no longer valid, the new one opens", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const id = await paidId(database);
    const old = links.sign({ id, linkVersion: 0 });
    const corrected = await correctBuyer(db, id, { ...BUYER, email: "ana.perez@gmail.com" });
    expect(corrected).toEqual({ ok: true, changed: ["email"] });
    expect(await linkVersion(db, id)).toBe(1);
    expect(await open(db, id, old)).toBe(410);
    const current = links.sign({ id, linkVersion: 1 });
    expect(current).not.toBe(old);
    expect(await open(db, id, current)).toEqual({ id, linkVersion: 1 });
  });

  it("'Renovar enlace de «Mi pedido»' raises it with an event on the timeline; every earlier link is refused", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const id = await paidId(database);
    const first = links.sign({ id, linkVersion: 0 });
    expect(await renewOrderPageLink(db, id)).toEqual({ ok: true, linkVersion: 1 });
    const second = links.sign({ id, linkVersion: 1 });
    expect(await open(db, id, first)).toBe(410);
    expect(await open(db, id, second)).toEqual({ id, linkVersion: 1 });
    expect(await renewOrderPageLink(db, id)).toEqual({ ok: true, linkVersion: 2 });
    expect(await open(db, id, first)).toBe(410);
    expect(await open(db, id, second)).toBe(410);
    expect(await open(db, id, links.sign({ id, linkVersion: 2 }))).toEqual({ id, linkVersion: 2 });
    const order = await getOrder(db, id);
    if (!order) throw new Error("no order");
    const renewed = (await orderTimeline(db, order)).filter(
      (e) => e.title === "Enlace de «Mi pedido» renovado",
    );
    expect(renewed).toHaveLength(2);
    // Through the desk's answer: 200, and what the buyer does to get the new link.
    const answer = await orderLinkRenewalAnswer(db, id);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toContain("/mi-pedido");
    expect(await linkVersion(db, id)).toBe(3);
  });

  it("an unpaid order has no link to renew: refused (409 at the desk), nothing written; an unknown one is not found", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const piece = await runningPiece(database, { stock: 5 });
    const held = await hold(db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    const expired = await hold(db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    expect(await releaseHold(db, expired.id)).toBe(true);
    for (const id of [held.id, expired.id]) {
      expect(await renewOrderPageLink(db, id)).toEqual({ ok: false, reason: "sin_pagar" });
      const answer = await orderLinkRenewalAnswer(db, id);
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({
        ok: false,
        message: "Este pedido no se pagó: no tiene una página de «Mi pedido» que renovar.",
      });
      expect(await linkVersion(db, id)).toBe(0);
      const events = await db.selectFrom("order_events").select("kind").where("order_id", "=", id).execute();
      expect(events).toEqual([]);
    }
    expect(await renewOrderPageLink(db, "OL-ZZZZZZZZ")).toEqual({ ok: false, reason: "no_encontrado" });
    expect((await orderLinkRenewalAnswer(db, "OL-ZZZZZZZZ")).status).toBe(404);
  });

  it("the raise is atomic: a correction or a renewal stopped half-way leaves the link (and the e-mail) as they were", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const id = await paidId(database);
    const old = links.sign({ id, linkVersion: 0 });
    // The correction fails at its last statement (its timeline event), after the row was written.
    await expect(
      correctBuyer(failingAt(db, writeTo("order_events", "insert")), id, {
        ...BUYER,
        email: "ana.perez@gmail.com",
      }),
    ).rejects.toThrow("corte simulado");
    expect(await linkVersion(db, id)).toBe(0);
    const row = await db
      .selectFrom("orders")
      .select("customer_email")
      .where("id", "=", id)
      .executeTakeFirst();
    expect(row?.customer_email).toBe(BUYER.email);
    expect(await open(db, id, old)).toEqual({ id, linkVersion: 0 });
    // Likewise a renewal whose event could not be written.
    await expect(renewOrderPageLink(failingAt(db, writeTo("order_events", "insert")), id)).rejects.toThrow(
      "corte simulado",
    );
    expect(await linkVersion(db, id)).toBe(0);
    expect(await open(db, id, old)).toEqual({ id, linkVersion: 0 });
  });

  it("a renewal racing an e-mail correction: both raise it, neither is lost", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const id = await paidId(database);
    const gate = gatedAfter(db, writeTo("orders", "update"));
    const correcting = correctBuyer(gate.db, id, { ...BUYER, email: "ana.perez@gmail.com" });
    await gate.reached;
    const renewing = renewOrderPageLink(db, id);
    await untilWaitingOnLocks(db);
    gate.open();
    const [corrected, renewed] = await Promise.all([correcting, renewing]);
    expect(corrected).toEqual({ ok: true, changed: ["email"] });
    expect(renewed).toEqual({ ok: true, linkVersion: 2 });
    expect(await linkVersion(db, id)).toBe(2);
    expect(await open(db, id, links.sign({ id, linkVersion: 1 }))).toBe(410);
  });

  it("an e-mail queued before the raise and sent after it carries the new link (rendered when sent)", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const id = await paidId(database);
    // Its confirmation is queued at payment, not sent yet.
    expect(await renewOrderPageLink(db, id)).toEqual({ ok: true, linkVersion: 1 });
    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      kind: "outbox",
      async send(message) {
        sent.push(message);
      },
    };
    const templates = orderEmailTemplates(db, () => settingsFromEnvironment(shop), {
      links,
      publicUrl: ORIGIN,
    });
    expect(await deliverPendingEmails(db, mailer, templates)).toEqual({ sent: 1, failed: 0 });
    const text = sent[0]?.text ?? "";
    expect(text).toContain(`${ORIGIN}${orderPagePath(links, { id, linkVersion: 1 })}`);
    expect(text).not.toContain(`firma=${links.sign({ id, linkVersion: 0 })}`);
  });

  it("migration 0047 gives every existing order generation 0, whose links keep opening it", async () => {
    const database = await harness.fresh({ migrate: true });
    const db = database.db;
    const id = await paidId(database);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0046_line_indexes")).error).toBeUndefined();
    await migrateToLatest(database);
    expect(await linkVersion(db, id)).toBe(0);
    expect(await open(db, id, legacyToken(id))).toEqual({ id, linkVersion: 0 });
  });
});
