import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { type Database, openDatabase, toTimestamp } from "~/db/database.server";
import { createMailQueue, deliverPendingEmails } from "~/mail/delivery.server";
import { WAITLIST_CONFIRM_EMAIL, WAITLIST_OPENING_EMAIL } from "~/mail/kinds";
import { createSmtpMailer, type Mailer, type MailMessage } from "~/mail/mailer.server";
import { queueEmail } from "~/mail/queue.server";
import { createWaitlistLinks } from "~/waitlist/links.server";
import { SIGN_UP_MESSAGES } from "~/waitlist/sign-up-input";
import { waitlistEmailTemplates } from "~/waitlist/templates.server";
import {
  CONFIRM_WITHIN_DAYS,
  confirmSubscription,
  queueOpeningNotices,
  RESEND_AFTER_MINUTES,
  signUp,
  unsubscribe,
} from "~/waitlist/waitlist.server";
import { upcomingDrop } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { readable, startSmtp } from "../support/smtp";

const HOUR = 3_600_000;
const SITE = "http://tienda.test:3000";
const shop = loadConfig({}).shop;
const links = createWaitlistLinks("secreto-de-prueba-".repeat(3));
const templates = (database: Database) => waitlistEmailTemplates(database.db, () => shop, links, undefined);

/** A mailer that only remembers what it was asked to send. */
function recordingMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    kind: "outbox",
    sent,
    async send(message) {
      sent.push(message);
    },
  };
}

/** Each sign-up from an address of its own: the caps (decision 31) have tests of their own. */
let signUps = 0;
const from = () => {
  signUps++;
  return { address: `10.${(signUps >> 16) & 255}.${(signUps >> 8) & 255}.${signUps & 255}`, proven: true };
};

const join = async (database: Database, dropId: string, email: unknown, options: { now?: Date } = {}) => {
  const result = await signUp(database.db, {
    dropId,
    email,
    consent: "si",
    siteUrl: SITE,
    from: from(),
    ...options,
  });
  if (result.ok && result.outcome === "limitada") throw new Error(`capped: ${result.cap}`);
  return result;
};

async function queued(database: Database, kind: string) {
  return database.db
    .selectFrom("emails")
    .selectAll()
    .where("kind", "=", kind)
    .orderBy("created_at")
    .execute();
}

/** The token of a link in a sent message's plain text. */
function tokenIn(message: MailMessage, path: string): string {
  const match = new RegExp(`${SITE}${path}\\?t=([A-Za-z0-9._-]+)`).exec(message.text);
  if (!match?.[1]) throw new Error(`no link to ${path} in: ${message.text}`);
  return match[1];
}

describeEachDatabase("'Avísame' waitlist", (harness) => {
  it("a drop address that names no drop (a NUL, a made-up id) is 'not found', never a database error", async () => {
    const database = await harness.fresh();
    for (const dropId of ["\u0000", "%00", "x".repeat(500), ""]) {
      expect(await join(database, dropId, "ana@example.com"), JSON.stringify(dropId)).toEqual({
        ok: false,
        reason: "drop_no_encontrado",
      });
    }
  });

  it("double opt-in: a sign-up waits unconfirmed with a confirmation e-mail; its link confirms it, idempotently", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    const result = await join(database, drop.id, "  Ana.Perez@Example.MX ");
    expect(result).toMatchObject({ ok: true, outcome: "nueva" });
    const row = await database.db.selectFrom("waitlist_subscriptions").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: "ana.perez@example.mx", status: "pendiente", drop_id: drop.id });

    const mailer = recordingMailer();
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 1,
      failed: 0,
    });
    const [message] = mailer.sent;
    if (!message) throw new Error("no confirmation sent");
    expect(message.to).toBe("ana.perez@example.mx");
    expect(message.subject).toBe("Confirma tu aviso para Luna de Octubre");
    expect(message.text).toContain("Confirma tu correo con este enlace");
    expect(message.headers?.["List-Unsubscribe"]).toMatch(new RegExp(`^<${SITE}/avisame/baja\\?t=`));

    // Not confirmed: the opening notice skips the address.
    expect(await queueOpeningNotices(database.db, new Date(drop.opensAt.getTime() + 60_000))).toEqual({
      queued: 0,
    });

    const id = links.verify("confirmar", tokenIn(message, "/avisame/confirmar"));
    expect(id).toBe(row.id);
    // A forged or cross-purpose token names nobody.
    expect(links.verify("baja", tokenIn(message, "/avisame/confirmar"))).toBeNull();
    expect(links.verify("confirmar", `${row.id}.AAAA`)).toBeNull();
    expect(await confirmSubscription(database.db, row.id)).toEqual({
      ok: true,
      already: false,
      drop: { id: drop.id, name: "Luna de Octubre" },
      moment: "antes",
    });
    // The same link again (a second click, a mail scanner): nothing changes.
    expect(await confirmSubscription(database.db, row.id)).toMatchObject({ ok: true, already: true });
    expect(
      await database.db.selectFrom("waitlist_subscriptions").select("status").executeTakeFirstOrThrow(),
    ).toEqual({ status: "confirmada" });
  });

  it("confirmed once the drop opened or closed, the link says so: its notice comes now, or none will", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database, "Luna de Octubre", 3_600_000);
    const open = await join(database, drop.id, "abierta@example.mx", { now: new Date() });
    const closed = await join(database, drop.id, "cerrada@example.mx", { now: new Date() });
    if (!open.ok || !closed.ok) throw new Error("sign-up refused");
    const opened = new Date(drop.opensAt.getTime() + 60_000);
    expect(await confirmSubscription(database.db, open.subscriptionId, opened)).toMatchObject({
      ok: true,
      moment: "abierta",
    });
    // Its notice sent, the same link again says so, not that it comes.
    expect(await queueOpeningNotices(database.db, opened)).toMatchObject({ queued: 1 });
    expect(await confirmSubscription(database.db, open.subscriptionId, opened)).toMatchObject({
      ok: true,
      already: true,
      moment: "avisada",
    });
    // The drop lasts 48 hours: three days after its opening it has closed.
    const after = new Date(drop.opensAt.getTime() + 72 * 3_600_000);
    expect(await confirmSubscription(database.db, closed.subscriptionId, after)).toMatchObject({
      ok: true,
      moment: "cerrada",
    });
  });

  it("an opening notice held up until after its drop closed (a mail server down) is dropped, not sent", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database, "Luna de Octubre", 3_600_000);
    const signed = await join(database, drop.id, "tarde@example.mx", { now: new Date() });
    if (!signed.ok) throw new Error("sign-up refused");
    const opened = new Date(drop.opensAt.getTime() + 60_000);
    await confirmSubscription(database.db, signed.subscriptionId, opened);
    expect(await queueOpeningNotices(database.db, opened)).toMatchObject({ queued: 1 });
    await database.db.updateTable("drops").set({ status: "archivada" }).where("id", "=", drop.id).execute();
    const mailer = recordingMailer();
    await deliverPendingEmails(database.db, mailer, templates(database), opened);
    expect(mailer.sent.filter((m) => m.subject.includes("Luna de Octubre"))).toEqual([]);
    expect((await queued(database, WAITLIST_OPENING_EMAIL)).every((e) => e.sent_at !== null)).toBe(true);
  });

  it("a confirmation link confirms for 7 days after the latest confirmation e-mail; signing up again sends it anew", async () => {
    const database = await harness.fresh();
    // Opens in a month: the sign-up stays open past the link's week.
    const drop = await upcomingDrop(database, "Luna de Octubre", 30 * 24 * 3_600_000);
    const t0 = new Date();
    const result = await join(database, drop.id, "sol@example.mx", { now: t0 });
    if (!result.ok) throw new Error("sign-up refused");
    const late = new Date(t0.getTime() + (CONFIRM_WITHIN_DAYS * 24 + 1) * 3_600_000);
    expect(await confirmSubscription(database.db, result.subscriptionId, late)).toEqual({
      ok: false,
      reason: "vencido",
      drop: { id: drop.id, name: "Luna de Octubre" },
    });
    const status = () =>
      database.db.selectFrom("waitlist_subscriptions").select("status").executeTakeFirstOrThrow();
    expect(await status()).toEqual({ status: "pendiente" });
    // Signing up again re-sends the confirmation: the same link is good again from then on.
    expect(await join(database, drop.id, "sol@example.mx", { now: late })).toMatchObject({
      outcome: "reenviada",
    });
    expect(await confirmSubscription(database.db, result.subscriptionId, late)).toMatchObject({
      ok: true,
      already: false,
    });
    expect(await status()).toEqual({ status: "confirmada" });
    // Confirmed, an old link only says so, however late.
    const later = new Date(late.getTime() + 20 * 24 * 3_600_000);
    expect(await confirmSubscription(database.db, result.subscriptionId, later)).toMatchObject({
      ok: true,
      already: true,
    });
  });

  it("one sign-up per address and drop: repeats are answered alike and re-send the confirmation at most once per pause", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    const t0 = new Date();
    expect(await join(database, drop.id, "luz@example.mx", { now: t0 })).toMatchObject({ outcome: "nueva" });
    // Several repeats (another capitalisation too) within the pause: one row, one e-mail.
    for (const email of ["luz@example.mx", "LUZ@example.mx", " luz@example.mx"]) {
      expect(await join(database, drop.id, email, { now: new Date(t0.getTime() + 60_000) })).toMatchObject({
        ok: true,
        outcome: "ya_pendiente",
      });
    }
    expect(await queued(database, WAITLIST_CONFIRM_EMAIL)).toHaveLength(1);
    // After the pause, one more confirmation; racing repeats still send one.
    const later = new Date(t0.getTime() + (RESEND_AFTER_MINUTES + 1) * 60_000);
    const racing = await Promise.all(
      [1, 2, 3].map(() => join(database, drop.id, "luz@example.mx", { now: later })),
    );
    expect(racing.filter((r) => r.ok && r.outcome === "reenviada")).toHaveLength(1);
    expect(await queued(database, WAITLIST_CONFIRM_EMAIL)).toHaveLength(2);
    const rows = await database.db.selectFrom("waitlist_subscriptions").selectAll().execute();
    expect(rows).toHaveLength(1);

    // Confirmed: a repeat sends nothing at all, however late.
    await confirmSubscription(database.db, rows[0]?.id ?? "");
    expect(
      await join(database, drop.id, "luz@example.mx", { now: new Date(t0.getTime() + 30 * 60_000) }),
    ).toMatchObject({ ok: true, outcome: "ya_confirmada" });
    expect(await queued(database, WAITLIST_CONFIRM_EMAIL)).toHaveLength(2);
    // The queued confirmations are pointless now: dropped when their turn comes, never sent nor retried.
    const mailer = recordingMailer();
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(mailer.sent).toEqual([]);
    const dropped = await queued(database, WAITLIST_CONFIRM_EMAIL);
    expect(
      dropped.every((e) => e.sent_at !== null && e.last_error === "no se envió: ya no hacía falta"),
    ).toBe(true);
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 0,
      failed: 0,
    });

    // Many concurrent first sign-ups of one new address: one row.
    const crowd = await Promise.all(
      Array.from({ length: 8 }, () => join(database, drop.id, "sol@example.mx")),
    );
    expect(crowd.every((r) => r.ok)).toBe(true);
    expect(crowd.filter((r) => r.ok && r.outcome === "nueva")).toHaveLength(1);
    expect(
      await database.db
        .selectFrom("waitlist_subscriptions")
        .select("id")
        .where("email", "=", "sol@example.mx")
        .execute(),
    ).toHaveLength(1);
  });

  it("bad addresses, a missing consent and drops that are not upcoming are refused with Spanish reasons", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    for (const bad of [
      "",
      "   ",
      "ana",
      "ana@",
      "@example.mx",
      "ana@example",
      "ana perez@example.mx",
      "a@b..mx",
      `${"x".repeat(250)}@example.mx`,
      null,
      42,
      ["a@b.mx"],
    ]) {
      expect(await join(database, drop.id, bad)).toEqual({ ok: false, reason: "correo_invalido" });
    }
    expect(SIGN_UP_MESSAGES.correo_invalido).toBe(
      "Escribe un correo electrónico válido, por ejemplo nombre@correo.com.",
    );
    expect(
      await signUp(database.db, {
        dropId: drop.id,
        email: "ana@example.mx",
        consent: null,
        siteUrl: SITE,
        from: from(),
      }),
    ).toEqual({ ok: false, reason: "sin_consentimiento" });
    expect(SIGN_UP_MESSAGES.sin_consentimiento).toMatch(/aviso de privacidad/);
    expect(await join(database, "zzzzzzzzzzzzzzzz", "ana@example.mx")).toEqual({
      ok: false,
      reason: "drop_no_encontrado",
    });
    // Once the drop opened, the list is closed.
    expect(
      await join(database, drop.id, "ana@example.mx", { now: new Date(drop.opensAt.getTime() + 1000) }),
    ).toEqual({ ok: false, reason: "drop_no_proximo" });
    expect(SIGN_UP_MESSAGES.drop_no_proximo).toMatch(/ya abrió o terminó/);
    // Nothing was written for any of them.
    expect(await database.db.selectFrom("waitlist_subscriptions").selectAll().execute()).toEqual([]);
    expect(await database.db.selectFrom("emails").selectAll().execute()).toEqual([]);
  });

  it("unsubscribe: no login, idempotent, every list of the address, and a notice already queued is dropped", async () => {
    const database = await harness.fresh();
    const first = await upcomingDrop(database, "Luna de Octubre");
    const second = await upcomingDrop(database, "Marea Alta", 3 * HOUR);
    const a = await join(database, first.id, "rosa@example.mx");
    const b = await join(database, second.id, "rosa@example.mx");
    const other = await join(database, first.id, "iris@example.mx");
    if (!a.ok || !b.ok || !other.ok) throw new Error("sign-up refused");
    for (const s of [a, b, other]) await confirmSubscription(database.db, s.subscriptionId);
    const opened = new Date(first.opensAt.getTime() + 60_000);
    expect(await queueOpeningNotices(database.db, opened)).toEqual({ queued: 2 });

    expect(await unsubscribe(database.db, a.subscriptionId)).toEqual({
      ok: true,
      already: false,
      drop: { id: first.id, name: "Luna de Octubre" },
    });
    expect(await unsubscribe(database.db, a.subscriptionId)).toMatchObject({ ok: true, already: true });
    expect(await unsubscribe(database.db, "zzzzzzzzzzzzzzzz")).toEqual({
      ok: false,
      reason: "no_encontrado",
    });
    const statuses = await database.db
      .selectFrom("waitlist_subscriptions")
      .select(["email", "status", "drop_id"])
      .orderBy("email")
      .orderBy("drop_id")
      .execute();
    expect(statuses.filter((s) => s.email === "rosa@example.mx").map((s) => s.status)).toEqual([
      "baja",
      "baja",
    ]);
    expect(statuses.find((s) => s.email === "iris@example.mx")?.status).toBe("confirmada");
    // An old confirmation link does not put the address back.
    expect(await confirmSubscription(database.db, b.subscriptionId)).toEqual({
      ok: false,
      reason: "dado_de_baja",
    });

    const mailer = recordingMailer();
    await deliverPendingEmails(database.db, mailer, templates(database), new Date(Date.now() + HOUR));
    const openings = mailer.sent.filter((m) => m.subject === "¡Ya abrió Luna de Octubre!");
    expect(openings.map((m) => m.to)).toEqual(["iris@example.mx"]);
    // The second drop opening later sends nothing to the address that left.
    expect(await queueOpeningNotices(database.db, new Date(second.opensAt.getTime() + 60_000))).toEqual({
      queued: 0,
    });
    // Signing up again is a fresh double opt-in.
    expect(
      await join(database, second.id, "rosa@example.mx", { now: new Date(Date.now() + HOUR) }),
    ).toMatchObject({
      ok: true,
      outcome: "reenviada",
    });
  });

  it("a drop that opens sends exactly one e-mail to each confirmed address, with two servers running the job at once", async () => {
    const database = await harness.fresh();
    // A second app server: its own pool on PostgreSQL. On SQLite every writer of the file takes
    // the same lock (BEGIN IMMEDIATE), so the concurrent runs below share one handle.
    const second =
      harness.dialect === "postgres"
        ? await openDatabase({ kind: "postgres", url: harness.lastUrl() }, { poolMax: 10 })
        : database;
    try {
      const drop = await upcomingDrop(database);
      const confirmed: string[] = [];
      for (let i = 0; i < 130; i++) {
        const email = `persona${i}@example.mx`;
        const result = await join(database, drop.id, email);
        if (!result.ok) throw new Error(result.reason);
        // Every tenth stays unconfirmed, and one leaves: neither hears anything.
        if (i % 10 !== 0) {
          await confirmSubscription(database.db, result.subscriptionId);
          confirmed.push(email);
        }
        if (i === 7) {
          await unsubscribe(database.db, result.subscriptionId);
          confirmed.pop();
        }
      }
      // Before the opening: nothing.
      expect(await queueOpeningNotices(database.db)).toEqual({ queued: 0 });

      const opened = new Date(drop.opensAt.getTime() + 30_000);
      const runs = await Promise.all([
        queueOpeningNotices(database.db, opened),
        queueOpeningNotices(second.db, opened),
        queueOpeningNotices(database.db, opened),
        queueOpeningNotices(second.db, opened),
      ]);
      expect(runs.reduce((sum, r) => sum + r.queued, 0)).toBe(confirmed.length);
      // A later round (the next minute) finds nothing more.
      expect(await queueOpeningNotices(second.db, new Date(opened.getTime() + 60_000))).toEqual({
        queued: 0,
      });
      expect(await queued(database, WAITLIST_OPENING_EMAIL)).toHaveLength(confirmed.length);

      // Both servers send the queue at once, round after round.
      const mailer = recordingMailer();
      for (let round = 0; round < 20; round++) {
        const [x, y] = await Promise.all([
          deliverPendingEmails(database.db, mailer, templates(database), opened),
          deliverPendingEmails(second.db, mailer, templates(second), opened),
        ]);
        if (x.sent + y.sent + x.failed + y.failed === 0) break;
      }
      const openings = mailer.sent.filter((m) => m.subject === "¡Ya abrió Luna de Octubre!");
      expect(openings.map((m) => m.to).sort()).toEqual([...confirmed].sort());
      for (const m of openings) {
        expect(m.text).toContain(`${SITE}/coleccion/${drop.id}`);
        expect(m.text).toContain(`${SITE}/avisame/baja?t=`);
        expect(m.headers?.["List-Unsubscribe"]).toContain(`${SITE}/avisame/baja?t=`);
      }
      const rows = await database.db
        .selectFrom("waitlist_subscriptions")
        .select(["status", "notified_at"])
        .execute();
      expect(rows.filter((r) => r.notified_at !== null)).toHaveLength(confirmed.length);
      expect(rows.filter((r) => r.status !== "confirmada").every((r) => r.notified_at === null)).toBe(true);
    } finally {
      if (second !== database) await second.close();
    }
  });

  it("two drops opening together: the job tells the earliest sign-ups first, across both, a run's most at a time", async () => {
    const database = await harness.fresh();
    const a = await upcomingDrop(database, "Luna de Octubre");
    const b = await upcomingDrop(database, "Sol de Invierno");
    const start = Date.now();
    const order = [a, b, a, b, a, a, b].map((drop, i) => ({ drop, email: `orden${i}@example.mx` }));
    for (const [i, { drop, email }] of order.entries()) {
      const result = await join(database, drop.id, email, { now: new Date(start + (i + 1) * 1000) });
      if (!result.ok) throw new Error(result.reason);
      await confirmSubscription(database.db, result.subscriptionId, new Date(start + 10_000));
    }
    const opened = new Date(Math.max(a.opensAt.getTime(), b.opensAt.getTime()) + 60_000);
    const told = async () =>
      (
        await database.db
          .selectFrom("waitlist_subscriptions")
          .select("email")
          .where("notified_at", "is not", null)
          .execute()
      )
        .map((r) => r.email)
        .sort();
    const firsts = (n: number) => order.slice(0, n).map((s) => s.email);
    expect(await queueOpeningNotices(database.db, opened, { maxPerRun: 3 })).toEqual({ queued: 3 });
    expect(await told()).toEqual(firsts(3));
    expect(await queueOpeningNotices(database.db, opened, { maxPerRun: 3 })).toEqual({ queued: 3 });
    expect(await told()).toEqual(firsts(6));
    expect(await queueOpeningNotices(database.db, opened)).toEqual({ queued: 1 });
    expect(await told()).toEqual(firsts(7));
    expect(await queued(database, WAITLIST_OPENING_EMAIL)).toHaveLength(7);
  });

  it("a drop that ended before the job saw it, or was archived, sends no late notice", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    const result = await join(database, drop.id, "tarde@example.mx");
    if (!result.ok) throw new Error(result.reason);
    await confirmSubscription(database.db, result.subscriptionId);
    expect(await queueOpeningNotices(database.db, new Date(drop.opensAt.getTime() + 49 * HOUR))).toEqual({
      queued: 0,
    });
    await database.db.updateTable("drops").set({ status: "archivada" }).where("id", "=", drop.id).execute();
    expect(await queueOpeningNotices(database.db, new Date(drop.opensAt.getTime() + HOUR))).toEqual({
      queued: 0,
    });
    expect(toTimestamp(drop.opensAt)).toBeTruthy();
  });
});

describeEachDatabase("'Avísame' opening notices in the mail queue", (harness) => {
  it("a message queued during a large opening goes out before the notices", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    for (let i = 0; i < 30; i++) {
      const result = await join(database, drop.id, `masiva${i}@example.mx`);
      if (!result.ok) throw new Error(result.reason);
      await confirmSubscription(database.db, result.subscriptionId);
    }
    await database.db.deleteFrom("emails").execute();
    const opened = new Date(drop.opensAt.getTime() + 60_000);
    expect(await queueOpeningNotices(database.db, opened)).toEqual({ queued: 30 });
    await queueEmail(database.db, { kind: "urgente", recipient: "cliente@example.mx", now: opened });
    const mailer = recordingMailer();
    const withUrgent = {
      ...templates(database),
      urgente: async () => ({
        subject: "Tu pedido está confirmado",
        text: "Gracias",
        html: "<p>Gracias</p>",
      }),
    };
    const bulkKinds = [WAITLIST_OPENING_EMAIL];
    expect(await deliverPendingEmails(database.db, mailer, withUrgent, opened, { bulkKinds })).toEqual({
      sent: 20,
      failed: 0,
    });
    expect(mailer.sent[0]?.to).toBe("cliente@example.mx");
    expect(await deliverPendingEmails(database.db, mailer, withUrgent, opened, { bulkKinds })).toEqual({
      sent: 11,
      failed: 0,
    });
  });

  it("one round of the queue sends a large opening batch after batch, not 20 a minute", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    for (let i = 0; i < 45; i++) {
      const result = await join(database, drop.id, `ronda${i}@example.mx`);
      if (!result.ok) throw new Error(result.reason);
      // The first five never confirm: their confirmations are sent; the others' are dropped.
      if (i >= 5) await confirmSubscription(database.db, result.subscriptionId);
    }
    const opened = new Date(drop.opensAt.getTime() + 60_000);
    expect(await queueOpeningNotices(database.db, opened)).toEqual({ queued: 40 });
    const mailer = recordingMailer();
    const queue = createMailQueue(database.db, mailer, templates(database), () => {}, {
      bulkKinds: [WAITLIST_OPENING_EMAIL],
    });
    expect(await queue.deliver(opened)).toEqual({ sent: 45, failed: 0 });
    expect(mailer.sent.filter((m) => m.subject.startsWith("Confirma"))).toHaveLength(5);
  });
});

describeEachDatabase("'Avísame' over real SMTP", (harness) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());

  it("the confirmation and the opening notice arrive in Spanish, with their links and List-Unsubscribe", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database, "Sol de Invierno");
    const to = `marta.${harness.dialect}@example.mx`;
    const result = await join(database, drop.id, to);
    if (!result.ok) throw new Error(result.reason);
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${smtp.port}`, '"Oro de Luna" <hola@orodeluna.mx>');
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 1,
      failed: 0,
    });
    await confirmSubscription(database.db, result.subscriptionId);
    const opened = new Date(drop.opensAt.getTime() + 60_000);
    expect(await queueOpeningNotices(database.db, opened)).toEqual({ queued: 1 });
    expect(await deliverPendingEmails(database.db, mailer, templates(database), opened)).toEqual({
      sent: 1,
      failed: 0,
    });

    const raw = smtp.received.filter((m) => m.to.includes(to)).map((m) => m.raw);
    const mine = raw.map(readable);
    expect(mine).toHaveLength(2);
    // The headers as sent (unfolded): mail clients offer their own unsubscribe button from them.
    for (const message of raw) {
      const headers = (message.split("\r\n\r\n")[0] ?? "").replace(/\r\n[ \t]+/g, " ");
      expect(headers).toMatch(
        new RegExp(
          `^List-Unsubscribe: <${SITE}/avisame/baja\\?t=${result.subscriptionId}\\.[A-Za-z0-9_-]{43}>$`,
          "m",
        ),
      );
      expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    }
    const [confirmation, opening] = mine as [string, string];
    expect(confirmation).toContain("Subject: Confirma tu aviso para Sol de Invierno");
    expect(confirmation).toContain("Confirma tu correo con este enlace para recibir el aviso (vale 7 días):");
    expect(confirmation).toMatch(new RegExp(`${SITE}/avisame/confirmar\\?t=${result.subscriptionId}\\.`));
    expect(confirmation).toContain("Content-Type: text/html");
    expect(opening).toContain("Subject: ¡Ya abrió Sol de Invierno!");
    expect(opening).toContain(`${SITE}/coleccion/${drop.id}`);
    expect(opening).toContain("Date de baja");
  });
});
