import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { loadConfig } from "~/config/env.server";
import { type Database, toTimestamp } from "~/db/database.server";
import { createMailQueue, deliverPendingEmails, INTERRUPTED } from "~/mail/delivery.server";
import { WAITLIST_OPENING_EMAIL } from "~/mail/kinds";
import { createOutboxMailer, createSmtpMailer, type Mailer } from "~/mail/mailer.server";
import {
  emailsOfOrder,
  MAIL_BATCH,
  MAX_ATTEMPTS,
  NOT_NEEDED,
  queueEmail,
  retryDelayMinutes,
} from "~/mail/queue.server";
import { correctTracking, shipOrder } from "~/orders/desk.server";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import { confirmPayment } from "~/orders/payment.server";
import { shipmentInput } from "~/orders/shipment-input";
import { trackingLink } from "~/settings/carriers";
import { settingsFromEnvironment } from "~/settings/settings";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { paidOrder } from "../support/paid-order";
import { readable, startSmtp } from "../support/smtp";

const shop = loadConfig({}).shop;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let received: Awaited<ReturnType<typeof startSmtp>>["received"] = [];
let port = 0;

beforeAll(async () => {
  smtp = await startSmtp();
  received = smtp.received;
  port = smtp.port;
});
afterAll(() => smtp.close());

const templates = (database: Database) =>
  orderEmailTemplates(database.db, () => settingsFromEnvironment(shop));

/** A paid order of two 'Collar Caracola' by Ana Pérez at `email`. */
async function paidBy(database: Database, email: string) {
  const piece = await runningPiece(database, { name: "Collar Caracola", priceCents: 980_000, stock: 2 });
  return paidOrder(database, { piece, quantity: 2, buyer: { name: "Ana Pérez", email } });
}

describeEachDatabase("order confirmation e-mail", (harness) => {
  it("goes out once per paid order, over real SMTP, in Spanish with pieces and total", async () => {
    const database = await harness.fresh();
    const to = `ana.${harness.dialect}@example.mx`;
    const order = await paidBy(database, to);
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, '"Oro de Luna" <hola@orodeluna.mx>');

    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 1,
      failed: 0,
    });
    // A second round, or a replayed confirmation, sends nothing more.
    await confirmPayment(database.db, { orderId: order.id, customerName: "Ana Pérez", customerEmail: to });
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 0,
      failed: 0,
    });

    const mine = received.filter((m) => m.to.includes(to));
    expect(mine).toHaveLength(1);
    const text = readable(mine[0]?.raw ?? "");
    expect(text).toContain(`Subject: Tu pedido ${order.id} está confirmado`);
    expect(text).toContain("Collar Caracola × 2");
    expect(text).toContain("$19,600.00 MXN");
    expect(text).toContain("¿Qué sigue?");
    expect(text).toContain("Lo enviaremos a");
    expect(text).toContain("68000 Oaxaca de Juárez, Oaxaca");
    expect(text).toContain("Content-Type: text/html");
    expect(text).toContain("Content-Type: text/plain");
  });

  it("a mail server that is down loses nothing: the e-mail is retried later", async () => {
    const database = await harness.fresh();
    const to = `luz.${harness.dialect}@example.mx`;
    await paidBy(database, to);
    const down = createSmtpMailer("smtp://127.0.0.1:1", "tienda@example.mx");
    expect(await deliverPendingEmails(database.db, down, templates(database))).toEqual({
      sent: 0,
      failed: 1,
    });
    const up = createSmtpMailer(`smtp://127.0.0.1:${port}`, "tienda@example.mx");
    // Not retried at once (the pause grows with each failure), but a few minutes later it goes.
    expect(await deliverPendingEmails(database.db, up, templates(database))).toEqual({ sent: 0, failed: 0 });
    const later = new Date(Date.now() + 6 * 60_000);
    expect(await deliverPendingEmails(database.db, up, templates(database), later)).toEqual({
      sent: 1,
      failed: 0,
    });
    expect(received.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it("a message that left while the database failed to record it (twice) is recorded on a retry, not sent again", async () => {
    const database = await harness.fresh();
    const to = `sara.${harness.dialect}@example.mx`;
    await paidBy(database, to);
    // The first two writes of 'sent' fail (a lost connection, a lock held past its wait).
    let failures = 2;
    const flaky = database.db.withPlugin({
      transformQuery({ node }) {
        const setsSent =
          node.kind === "UpdateQueryNode" && JSON.stringify(node.updates ?? []).includes('"sent_at"');
        if (setsSent && failures > 0) {
          failures--;
          throw new Error("la base de datos no respondió");
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const up = createSmtpMailer(`smtp://127.0.0.1:${port}`, "tienda@example.mx");
    expect(await deliverPendingEmails(flaky, up, templates(database))).toEqual({ sent: 1, failed: 0 });
    expect(failures).toBe(0);
    // Later rounds find it sent: the buyer got it once.
    const later = new Date(Date.now() + 6 * 60_000);
    expect(await deliverPendingEmails(database.db, up, templates(database), later)).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(received.filter((m) => m.to.includes(to))).toHaveLength(1);
  });
});

describeEachDatabase("shipment e-mail", (harness) => {
  /** Ships the order as the 'Atender pedido' form would, sends the queue, and returns the notice as read. */
  async function shipAndRead(database: Database, to: string, form: Record<string, string>) {
    const order = await paidBy(database, to);
    const result = await shipOrder(database.db, order.id, shipmentInput.parse(form));
    expect(result).toEqual({ ok: true });
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, '"Oro de Luna" <hola@orodeluna.mx>');
    // The confirmation and the shipment notice.
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 2,
      failed: 0,
    });
    const notices = received
      .filter((m) => m.to.includes(to))
      .map((m) => readable(m.raw))
      .filter((text) => text.includes(`Subject: Tu pedido ${order.id} va en camino`));
    expect(notices).toHaveLength(1);
    return { order, text: notices[0] ?? "" };
  }

  it("tells the customer the carrier, the tracking number and where to follow it, over real SMTP", async () => {
    const to = `renata.${harness.dialect}@example.mx`;
    const database = await harness.fresh();
    const { text } = await shipAndRead(database, to, {
      carrier: "Estafeta",
      trackingNumber: "805212345678MX",
    });
    const link = "https://www.estafeta.com/rastrear-envio?guias=805212345678MX";
    expect(trackingLink("Estafeta", "805212345678MX")).toBe(link);
    expect(text).toContain("Paquetería: Estafeta");
    expect(text).toContain("Número de guía: 805212345678MX");
    expect(text).toContain(`Sigue tu envío: ${link}`);
    expect(text).toContain(`href="${link}"`);
    expect(text).toContain("Collar Caracola × 2");
    expect(text).toContain("$19,600.00 MXN");
    expect(text).toContain("68000 Oaxaca de Juárez, Oaxaca");
    expect(text).toContain("Content-Type: text/plain");
    expect(text).toContain("Content-Type: text/html");
  });

  it("a carrier named by hand ('Otra') is named, with no tracking link", async () => {
    const to = `jose.${harness.dialect}@example.mx`;
    const database = await harness.fresh();
    const { text } = await shipAndRead(database, to, {
      carrier: "Otra",
      otherCarrier: "Mensajería Oaxaqueña",
      trackingNumber: "MO-4471",
    });
    expect(text).toContain("Paquetería: Mensajería Oaxaqueña");
    expect(text).toContain("Número de guía: MO-4471");
    expect(text).toContain("Collar Caracola × 2");
    expect(text).not.toContain("Sigue tu envío");
    expect(text).not.toMatch(/rastre|track/i);
    expect(text).toContain("Content-Type: text/plain");
    expect(text).toContain("Content-Type: text/html");
  });

  it("a tracking number corrected after the notice went: the second notice says it corrects the first, with the right number", async () => {
    const to = `lucia.${harness.dialect}@example.mx`;
    const database = await harness.fresh();
    const { order, text: first } = await shipAndRead(database, to, {
      carrier: "Estafeta",
      trackingNumber: "805200000000MX",
    });
    expect(first).not.toContain("corregimos");
    const fixed = shipmentInput.parse({ carrier: "DHL Express", trackingNumber: "JD014600006281" });
    expect(await correctTracking(database.db, order.id, fixed, { notify: true })).toEqual({
      ok: true,
      queued: true,
    });
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, '"Oro de Luna" <hola@orodeluna.mx>');
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 1,
      failed: 0,
    });
    const [second = ""] = received
      .filter((m) => m.to.includes(to))
      .map((m) => readable(m.raw))
      .filter((t) => t.includes(`Subject: Corregimos la guía de envío de tu pedido ${order.id}`));
    expect(second).toContain("La guía que te enviamos antes tenía un error: esta es la correcta.");
    expect(second).toContain("Paquetería: DHL Express");
    expect(second).toContain("Número de guía: JD014600006281");
    expect(second).not.toContain("805200000000MX");
    expect(second).not.toContain(`Subject: Tu pedido ${order.id} va en camino`);
  });
});

describeEachDatabase("the e-mail queue", (harness) => {
  it("messages that keep failing never hold up new ones", async () => {
    const database = await harness.fresh();
    const down = createSmtpMailer("smtp://127.0.0.1:1", "tienda@example.mx");
    // More failing messages than one round sends.
    for (let i = 0; i < 25; i++) await paidBy(database, `rebota.${i}.${harness.dialect}@example.invalid`);
    for (let round = 0; round < 2; round++)
      await deliverPendingEmails(database.db, down, templates(database));
    const fresh = `nueva.${harness.dialect}@example.mx`;
    await paidBy(database, fresh);
    const up = createSmtpMailer(`smtp://127.0.0.1:${port}`, "tienda@example.mx");
    expect(await deliverPendingEmails(database.db, up, templates(database))).toEqual({ sent: 1, failed: 0 });
    expect(received.filter((m) => m.to.includes(fresh))).toHaveLength(1);
  });

  it("a last attempt cut short by a stop reads as failed once its claim is over, not 'Pendiente' for ever", async () => {
    const database = await harness.fresh();
    const to = `cortada.${harness.dialect}@example.mx`;
    const order = await paidBy(database, to);
    // As the 30th attempt's claim left it when the process died mid-send: no answer recorded.
    const claimedAt = new Date(Date.now() - 10 * 60_000);
    await database.db
      .updateTable("emails")
      .set({
        attempts: MAX_ATTEMPTS,
        claimed_at: toTimestamp(claimedAt),
        next_attempt_at: toTimestamp(new Date(claimedAt.getTime() + 5 * 60_000)),
        last_error: null,
      })
      .where("order_id", "=", order.id)
      .execute();
    const up = createSmtpMailer(`smtp://127.0.0.1:${port}`, "tienda@example.mx");
    expect(await deliverPendingEmails(database.db, up, templates(database))).toEqual({ sent: 0, failed: 0 });
    const [email] = await emailsOfOrder(database.db, order.id);
    expect(email).toMatchObject({ state: "fallo", lastError: INTERRUPTED });
    expect(received.filter((m) => m.to.includes(to))).toHaveLength(0);
    // While its claim runs (being sent right now), it is left alone.
    const other = await paidBy(database, `enviando.${harness.dialect}@example.mx`);
    await database.db
      .updateTable("emails")
      .set({
        attempts: MAX_ATTEMPTS,
        next_attempt_at: toTimestamp(new Date(Date.now() + 60_000)),
        last_error: null,
      })
      .where("order_id", "=", other.id)
      .execute();
    await deliverPendingEmails(database.db, up, templates(database));
    expect((await emailsOfOrder(database.db, other.id))[0]?.state).toBe("en_cola");
  });

  it("the other kinds go before the bulk ones, each oldest first, whatever the kinds' names; a kind without a template takes its turn and fails", async () => {
    const database = await harness.fresh();
    const opened = new Date(Date.now() - 60_000);
    const at = (seconds: number) => new Date(opened.getTime() + seconds * 1000);
    // Two bulk kinds, and other kinds named before, between and after them.
    const bulkKinds = [WAITLIST_OPENING_EMAIL, "masivo"];
    for (let i = 0; i < 25; i++)
      await queueEmail(database.db, {
        kind: bulkKinds[i % 2] ?? "",
        recipient: `aviso.${i}@example.mx`,
        now: at(10 + i),
      });
    const others = [
      ["zeta", 40],
      ["a_primero", 12],
      ["envio_x", 3],
      ["sin_plantilla", 20],
      ["a_primero", 30],
      ["zeta", 1],
      ["envio_x", 50],
    ] as const;
    for (const [index, [kind, second]] of others.entries())
      await queueEmail(database.db, { kind, recipient: `otro.${index}@example.mx`, now: at(second) });
    // Neither due nor tried any more: left out, as before.
    const later = await queueEmail(database.db, {
      kind: "a_primero",
      recipient: "luego@example.mx",
      now: at(0),
    });
    const spent = await queueEmail(database.db, {
      kind: "a_primero",
      recipient: "agotado@example.mx",
      now: at(0),
    });
    await database.db
      .updateTable("emails")
      .set({ next_attempt_at: toTimestamp(new Date(Date.now() + 60 * 60_000)) })
      .where("id", "=", later ?? "")
      .execute();
    await database.db
      .updateTable("emails")
      .set({ attempts: MAX_ATTEMPTS, last_error: "550" })
      .where("id", "=", spent ?? "")
      .execute();
    const sent: string[] = [];
    const mailer: Mailer = {
      kind: "outbox",
      async send(message) {
        sent.push(message.to);
      },
    };
    const message = async () => ({ subject: "Hola", text: "Hola", html: "<p>Hola</p>" });
    const all = {
      a_primero: message,
      envio_x: message,
      zeta: message,
      masivo: message,
      [WAITLIST_OPENING_EMAIL]: message,
    };
    const now = new Date();
    // The first batch: the six others that can go, oldest first, then the oldest 13 notices.
    expect(await deliverPendingEmails(database.db, mailer, all, now, { bulkKinds })).toEqual({
      sent: MAIL_BATCH - 1,
      failed: 1,
    });
    const othersInOrder = [...others.entries()]
      .filter(([, [kind]]) => kind !== "sin_plantilla")
      .sort(([, a], [, b]) => a[1] - b[1])
      .map(([index]) => `otro.${index}@example.mx`);
    const notices = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `aviso.${from + i}@example.mx`);
    expect(sent).toEqual([...othersInOrder, ...notices(0, 13)]);
    const failed = await database.db
      .selectFrom("emails")
      .select(["attempts", "last_error"])
      .where("kind", "=", "sin_plantilla")
      .executeTakeFirstOrThrow();
    expect(failed).toEqual({ attempts: 1, last_error: "tipo de correo sin plantilla: sin_plantilla" });
    // The next batch: the rest of the notices, oldest first.
    expect(await deliverPendingEmails(database.db, mailer, all, now, { bulkKinds })).toEqual({
      sent: 12,
      failed: 0,
    });
    expect(sent.slice(MAIL_BATCH - 1)).toEqual(notices(13, 25));
    expect(sent).not.toContain("luego@example.mx");
    expect(sent).not.toContain("agotado@example.mx");
  });
});

describeEachDatabase("the mail queue's runs", (harness) => {
  it("one address refused does not stop the run: the next batch goes out in the same minute", async () => {
    const database = await harness.fresh();
    const to = (i: number) => `lista.${i}.${harness.dialect}@example.mx`;
    for (let i = 0; i < MAIL_BATCH + 5; i++) await paidBy(database, to(i));
    const delivered: string[] = [];
    const mailer: Mailer = {
      kind: "outbox",
      async send(message) {
        if (message.to === to(3)) throw new Error("550 buzón lleno");
        delivered.push(message.to);
      },
    };
    const queue = createMailQueue(database.db, mailer, templates(database), () => {});
    expect(await queue.deliver()).toEqual({ sent: MAIL_BATCH + 4, failed: 1 });
    expect(delivered).toHaveLength(MAIL_BATCH + 4);
  });

  it("an address its mail server says does not exist fails at once with why (she can be asked for another); a full quota is retried", async () => {
    const refusing = await startSmtp({
      refuse: (address) =>
        address.startsWith("no-existe.")
          ? [550, "5.1.1 El buzón no existe"]
          : address.startsWith("cuota.")
            ? [550, "5.4.5 Límite diario de envíos excedido"]
            : null,
    });
    try {
      const database = await harness.fresh();
      await paidBy(database, `no-existe.${harness.dialect}@example.mx`);
      await paidBy(database, `cuota.${harness.dialect}@example.mx`);
      const mailer = createSmtpMailer(`smtp://127.0.0.1:${refusing.port}`, "tienda@example.mx");
      expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
        sent: 0,
        failed: 2,
      });
      const rows = await database.db
        .selectFrom("emails")
        .select(["recipient", "attempts", "next_attempt_at", "last_error"])
        .orderBy("recipient")
        .execute();
      expect(rows[0]).toMatchObject({ recipient: `cuota.${harness.dialect}@example.mx`, attempts: 1 });
      expect(rows[0]?.next_attempt_at).not.toBeNull();
      expect(rows[1]).toMatchObject({
        recipient: `no-existe.${harness.dialect}@example.mx`,
        attempts: MAX_ATTEMPTS,
        next_attempt_at: null,
      });
      expect(rows[1]?.last_error).toMatch(
        /^Dirección rechazada por su servidor de correo \(no existe o está mal escrita\): 550 5\.1\.1/,
      );
    } finally {
      await refusing.close();
    }
  });

  it("a message readdressed while its batch was being sent (the buyer's e-mail corrected) goes to the new address, never the old", async () => {
    const database = await harness.fresh();
    await queueEmail(database.db, { kind: "aviso", recipient: "primera@example.mx" });
    await queueEmail(database.db, { kind: "aviso", recipient: "mal.escrita@example.mx" });
    const delivered: string[] = [];
    const mailer: Mailer = {
      kind: "outbox",
      async send(message) {
        delivered.push(message.to);
        // While the first goes out, the owner corrects the second's address.
        await database.db
          .updateTable("emails")
          .set({ recipient: "bien.escrita@example.mx" })
          .where("recipient", "=", "mal.escrita@example.mx")
          .execute();
      },
    };
    const aviso = { aviso: async () => ({ subject: "Aviso", text: "Hola", html: "<p>Hola</p>" }) };
    await deliverPendingEmails(database.db, mailer, aviso);
    await deliverPendingEmails(database.db, mailer, aviso);
    expect(delivered).toEqual(["primera@example.mx", "bien.escrita@example.mx"]);
  });

  it("with a daily limit, opening notices leave a quarter of it to orders' e-mails, and wait (in order) for the count of the last 24 hours to fall", async () => {
    const database = await harness.fresh();
    const db = database.db;
    const now = new Date();
    const hoursAgo = (hours: number) => toTimestamp(new Date(now.getTime() - hours * 3_600_000));
    // Earlier mail: 6 sent in the last 24 hours count; 3 sent 25 hours ago and 4 never sent
    // because no longer wanted do not.
    const earlier = async (count: number, sentAt: string, lastError: string | null) => {
      for (let i = 0; i < count; i++) {
        const id = await queueEmail(db, { kind: "pedido", recipient: `antes.${i}@example.mx` });
        await db
          .updateTable("emails")
          .set({ sent_at: sentAt, last_error: lastError })
          .where("id", "=", id ?? "")
          .execute();
      }
    };
    await earlier(6, hoursAgo(23), null);
    await earlier(3, hoursAgo(25), null);
    await earlier(4, hoursAgo(1), NOT_NEEDED);
    const tag = harness.dialect;
    for (let i = 0; i < 30; i++)
      await queueEmail(db, {
        kind: WAITLIST_OPENING_EMAIL,
        recipient: `aviso.${i}.${tag}@example.mx`,
        now: new Date(now.getTime() - 60_000 + i * 1000),
      });
    const message = async () => ({ subject: "¡Ya abrió Mareas!", text: "Hola", html: "<p>Hola</p>" });
    const lines: string[] = [];
    const queue = createMailQueue(
      db,
      createSmtpMailer(`smtp://127.0.0.1:${port}`, "tienda@example.mx"),
      { [WAITLIST_OPENING_EMAIL]: message, pedido: message },
      (line) => lines.push(line),
      { bulkKinds: [WAITLIST_OPENING_EMAIL], dailyLimit: 40 },
    );
    const noticesReceived = () =>
      received.filter((m) => m.to.some((to) => to.startsWith("aviso.") && to.endsWith(`.${tag}@example.mx`)));

    // 40 a day, 10 kept: 30 − the 6 counted = 24 notices go, the oldest first; 6 wait.
    expect(await queue.deliver(now)).toEqual({ sent: 24, failed: 0 });
    expect(noticesReceived().map((m) => m.to[0])).toEqual(
      Array.from({ length: 24 }, (_, i) => `aviso.${i}.${tag}@example.mx`),
    );
    expect(lines).toEqual([
      "Correos: los avisos masivos esperan; el límite diario (MAIL_DAILY_LIMIT=40) guarda 10 para pedidos y el resto de los correos",
    ]);
    // An order's confirmation still goes at once, into the reserve.
    await queueEmail(db, { kind: "pedido", recipient: `pedido.${tag}@example.mx`, now });
    expect(await queue.deliver(now)).toEqual({ sent: 1, failed: 0 });
    expect(received.some((m) => m.to.includes(`pedido.${tag}@example.mx`))).toBe(true);
    expect(noticesReceived()).toHaveLength(24);

    // Two hours on, the 6 sent 23 hours ago have left the count, not the 25 sent just now: 5 go.
    expect(await queue.deliver(new Date(now.getTime() + 2 * 3_600_000))).toEqual({ sent: 5, failed: 0 });
    expect(lines).toHaveLength(1);
    // A day on, the last one goes, and the log says the notices go again.
    expect(await queue.deliver(new Date(now.getTime() + 25 * 3_600_000))).toEqual({ sent: 1, failed: 0 });
    expect(noticesReceived().map((m) => m.to[0])).toEqual(
      Array.from({ length: 30 }, (_, i) => `aviso.${i}.${tag}@example.mx`),
    );
    expect(lines.at(-1)).toBe("Correos: los avisos masivos vuelven a salir");
  });

  it("one round at a time: asked during a round, it runs once more when that one ends, and what was queued meanwhile goes out", async () => {
    const database = await harness.fresh();
    for (let i = 0; i < 3; i++)
      await queueEmail(database.db, { kind: "aviso", recipient: `primera.${i}@example.mx` });
    // Each read of the due messages is a round's batch starting.
    let reads = 0;
    const counted = database.db.withPlugin({
      transformQuery({ node }) {
        if (node.kind === "SelectQueryNode") reads++;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    let release = () => {};
    let held = false;
    let sending = 0;
    let most = 0;
    const sent: string[] = [];
    const mailer: Mailer = {
      kind: "outbox",
      async send(message) {
        sending++;
        most = Math.max(most, sending);
        if (!held) {
          held = true;
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        }
        sent.push(message.to);
        sending--;
      },
    };
    const aviso = async () => ({ subject: "Aviso", text: "Aviso", html: "<p>Aviso</p>" });
    const queue = createMailQueue(counted, mailer, { aviso }, () => {});
    const first = queue.deliver();
    await vi.waitFor(() => expect(held).toBe(true));
    // While the first message is on its way: a payment's receipt is queued, and every webhook,
    // success page and job asks for a round.
    await queueEmail(database.db, { kind: "aviso", recipient: "durante@example.mx" });
    for (let i = 0; i < 10; i++) queue.sendSoon();
    const second = queue.deliver();
    const third = queue.deliver();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads).toBe(1);
    expect(sending).toBe(1);
    release();
    expect(await first).toEqual({ sent: 3, failed: 0 });
    // One more round for all who asked, which finds the receipt.
    expect(await second).toEqual({ sent: 1, failed: 0 });
    expect(await third).toEqual({ sent: 1, failed: 0 });
    expect(reads).toBe(2);
    expect(most).toBe(1);
    expect(sent).toEqual([
      "primera.0@example.mx",
      "primera.1@example.mx",
      "primera.2@example.mx",
      "durante@example.mx",
    ]);
    const left = await database.db.selectFrom("emails").select("id").where("sent_at", "is", null).execute();
    expect(left).toEqual([]);
    // Idle again: the next ask starts a round at once.
    await queueEmail(database.db, { kind: "aviso", recipient: "despues@example.mx" });
    expect(await queue.deliver()).toEqual({ sent: 1, failed: 0 });
  });

  it("stopping (drain) lets the message being sent finish and takes no other; the next start sends the rest", async () => {
    const database = await harness.fresh();
    for (let i = 0; i < 5; i++) await paidBy(database, `parada.${i}.${harness.dialect}@example.mx`);
    let release = () => {};
    let sending = false;
    const sent: string[] = [];
    const mailer: Mailer = {
      kind: "outbox",
      async send(message) {
        if (sent.length === 0) {
          sending = true;
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        }
        sent.push(message.to);
      },
    };
    const queue = createMailQueue(database.db, mailer, templates(database), () => {});
    const round = queue.deliver();
    await vi.waitFor(() => expect(sending).toBe(true));
    const drained = queue.drain();
    release();
    await drained;
    expect(await round).toEqual({ sent: 1, failed: 0 });
    const left = await database.db.selectFrom("emails").select("id").where("sent_at", "is", null).execute();
    expect(left).toHaveLength(4);
  });

  it("a slow mail server: each message is claimed from when it is taken, and a batch stops short of its claims' length", async () => {
    const database = await harness.fresh();
    for (let i = 0; i < MAIL_BATCH; i++) await paidBy(database, `lenta.${i}.${harness.dialect}@example.mx`);
    const start = Date.now();
    let clock = start;
    const spy = vi.spyOn(Date, "now").mockImplementation(() => clock);
    try {
      const mailer: Mailer = {
        kind: "outbox",
        async send() {
          clock += 25_000; // 25 s a message
        },
      };
      const done = await deliverPendingEmails(database.db, mailer, templates(database), new Date(start));
      // 8 messages take 200 s: past the 3 minutes a batch takes messages for, the rest wait.
      expect(done).toEqual({ sent: 8, failed: 0 });
    } finally {
      spy.mockRestore();
    }
    const rows = await database.db
      .selectFrom("emails")
      .select(["claimed_at", "attempts", "sent_at"])
      .orderBy("created_at")
      .execute();
    const claimed = rows
      .filter((r) => r.attempts === 1)
      .map((r) => new Date(r.claimed_at as string | Date).getTime());
    expect(claimed).toHaveLength(8);
    // The eighth was claimed 175 s after the batch began, not at its start.
    expect(claimed[7]).toBe(start + 7 * 25_000);
    expect(rows.filter((r) => r.attempts === 0)).toHaveLength(MAIL_BATCH - 8);
  });
});

it("retries wait longer after each failure, up to six hours", () => {
  expect([1, 2, 3, 4, 5, 6, 9, 10, 20].map(retryDelayMinutes)).toEqual([5, 5, 5, 8, 16, 32, 256, 360, 360]);
});

it("without SMTP every message is written to the outbox as an .eml file and logged", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-"));
  const logs: string[] = [];
  const mailer = createOutboxMailer(dir, '"Oro de Luna" <hola@orodeluna.mx>', (l) => logs.push(l));
  await mailer.send({ to: "ana@example.mx", subject: "Prueba de pedido", text: "Hola", html: "<p>Hola</p>" });
  const files = fs.readdirSync(dir);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/\.eml$/);
  const eml = fs.readFileSync(path.join(dir, files[0] ?? ""), "utf8");
  expect(eml).toContain("To: ana@example.mx");
  expect(eml).toContain("Subject: Prueba de pedido");
  // The log names the message and its file, not its recipient (the file does).
  expect(logs[0]).toContain("Prueba de pedido");
  expect(logs[0]).toContain(files[0] ?? "?");
  expect(logs[0]).not.toContain("ana@example.mx");
  // Nothing is left beside it once written.
  expect(fs.readdirSync(path.join(path.dirname(dir), `.${path.basename(dir)}-escribiendo`))).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

it("an outbox whose neighbour cannot be written (a mount of its own) still gets every message, written in place", async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-mount-"));
  const dir = path.join(parent, "outbox");
  // Where a message would wait before it moves in is taken by a file: no folder can be made there.
  fs.writeFileSync(path.join(parent, ".outbox-escribiendo"), "");
  const mailer = createOutboxMailer(dir, '"Oro de Luna" <hola@orodeluna.mx>', () => {});
  await mailer.send({ to: "luz@example.mx", subject: "Prueba", text: "Hola", html: "<p>Hola</p>" });
  const files = fs.readdirSync(dir);
  expect(files).toHaveLength(1);
  expect(fs.readFileSync(path.join(dir, files[0] ?? ""), "utf8")).toContain("To: luz@example.mx");
  fs.rmSync(parent, { recursive: true, force: true });
});
