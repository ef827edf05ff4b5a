import { expect, it } from "vitest";
import { countMailByState, listMailLog } from "~/campaigns/mail-log.server";
import { campaignEmailTemplates, queueTestEmail, renderOpeningEmail } from "~/campaigns/opening-email.server";
import { campaignDrop, exportSignUpsCsv, listSignUps, upcomingCampaigns } from "~/campaigns/waitlists.server";
import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { deliverPendingEmails } from "~/mail/delivery.server";
import { CAMPAIGN_TEST_EMAIL, WAITLIST_OPENING_EMAIL } from "~/mail/kinds";
import type { Mailer, MailMessage } from "~/mail/mailer.server";
import { NOT_NEEDED, queueEmail, retryFailedEmail } from "~/mail/queue.server";
import { createWaitlistLinks } from "~/waitlist/links.server";
import { waitlistEmailTemplates } from "~/waitlist/templates.server";
import { confirmSubscription, queueOpeningNotices, signUp, unsubscribe } from "~/waitlist/waitlist.server";
import { runningPiece, upcomingDrop } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";

const SITE = "http://tienda.test:3000";
const FROM = { address: "203.0.113.10", proven: true };
const OWNER = "duena@orodeluna.mx";
const shop = loadConfig({}).shop;
const links = createWaitlistLinks("secreto-de-prueba-".repeat(3));

const templates = (database: Database) => ({
  ...waitlistEmailTemplates(database.db, () => shop, links, undefined),
  ...campaignEmailTemplates(database.db, () => shop, undefined),
});

/** A mailer that remembers what it sent, or refuses everything. */
function testMailer(options: { failing?: boolean } = {}): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    kind: "outbox",
    sent,
    async send(message) {
      if (options.failing) throw new Error("SMTP 550: buzón lleno");
      sent.push(message);
    },
  };
}

/** Cells of a CSV as toCsv writes it (every cell quoted, CRLF between rows). */
function parseCsv(text: string): string[][] {
  return text
    .split("\r\n")
    .filter((line) => line !== "")
    .map((line) =>
      [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => (m[1] ?? "").replace(/""/g, '"')),
    );
}

async function subscriptionId(database: Database, email: string): Promise<string> {
  const row = await database.db
    .selectFrom("waitlist_subscriptions")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return row.id;
}

describeEachDatabase("Campañas", (harness) => {
  it("counts each upcoming drop's list by state and exports it whole as a CSV", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database, "Luna de Octubre", 5 * 3_600_000);
    const other = await upcomingDrop(database, "Sol de Invierno", 2 * 3_600_000);
    const running = await runningPiece(database, { stock: 2 });
    // 2026-01-15 18:00 UTC is noon in Mexico City.
    const t = (minutes: number) => new Date(Date.UTC(2026, 0, 15, 18, minutes));
    for (const [i, email] of [
      "ana@example.mx",
      "bea@example.mx",
      "cris@example.mx",
      "dora@example.mx",
    ].entries()) {
      expect(
        await signUp(database.db, {
          dropId: drop.id,
          email,
          consent: "si",
          siteUrl: SITE,
          from: FROM,
          now: t(i),
        }),
      ).toMatchObject({ ok: true, outcome: "nueva" });
    }
    await signUp(database.db, {
      dropId: other.id,
      email: "eva@example.mx",
      consent: "si",
      siteUrl: SITE,
      from: FROM,
    });
    await confirmSubscription(database.db, await subscriptionId(database, "ana@example.mx"), t(10));
    await confirmSubscription(database.db, await subscriptionId(database, "bea@example.mx"), t(11));
    await unsubscribe(database.db, await subscriptionId(database, "bea@example.mx"), t(20));

    const upcoming = await upcomingCampaigns(database.db);
    // Soonest first; the running drop takes no sign-ups and is not listed.
    expect(upcoming.map((d) => d.name)).toEqual(["Sol de Invierno", "Luna de Octubre"]);
    expect(upcoming.some((d) => d.id === running.dropId)).toBe(false);
    expect(upcoming[1]?.counts).toEqual({ total: 4, confirmadas: 1, pendientes: 2, bajas: 1 });
    expect(upcoming[0]?.counts).toEqual({ total: 1, confirmadas: 0, pendientes: 1, bajas: 0 });
    expect((await campaignDrop(database.db, running.dropId))?.counts).toEqual({
      total: 0,
      confirmadas: 0,
      pendientes: 0,
      bajas: 0,
    });
    expect((await listSignUps(database.db, drop.id)).map((s) => [s.email, s.status])).toEqual([
      ["dora@example.mx", "pendiente"],
      ["cris@example.mx", "pendiente"],
      ["bea@example.mx", "baja"],
      ["ana@example.mx", "confirmada"],
    ]);

    const csv = (await exportSignUpsCsv(database.db, drop.id)) ?? "";
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(parseCsv(csv.slice(1))).toEqual([
      ["Correo", "Estado", "Registro", "Confirmación", "Baja", "Aviso de apertura"],
      ["dora@example.mx", "Sin confirmar", "2026-01-15 12:03", "", "", ""],
      ["cris@example.mx", "Sin confirmar", "2026-01-15 12:02", "", "", ""],
      ["bea@example.mx", "Dada de baja", "2026-01-15 12:01", "2026-01-15 12:11", "2026-01-15 12:20", ""],
      ["ana@example.mx", "Confirmada", "2026-01-15 12:00", "2026-01-15 12:10", "", ""],
    ]);
    // Another drop's addresses stay out of it.
    expect(csv).not.toContain("eva@example.mx");
  });

  it("'Enviar prueba' queues the drop's opening e-mail to the owner, written by the opening job's own template", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database, "Luna de Octubre");
    expect(
      await queueTestEmail(database.db, { dropId: "zzzzzzzzzzzzzzzz", to: OWNER, siteUrl: SITE }),
    ).toEqual({
      ok: false,
      reason: "drop_no_encontrado",
    });
    const queued = await queueTestEmail(database.db, { dropId: drop.id, to: OWNER, siteUrl: SITE });
    expect(queued.ok).toBe(true);
    const rows = await database.db.selectFrom("emails").select(["kind", "recipient"]).execute();
    expect(rows).toEqual([{ kind: CAMPAIGN_TEST_EMAIL, recipient: OWNER }]);

    const mailer = testMailer();
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 1,
      failed: 0,
    });
    const [test] = mailer.sent;
    expect(test?.to).toBe(OWNER);
    expect(test?.subject).toBe("[Prueba] ¡Ya abrió Luna de Octubre!");
    expect(test?.text).toContain(`${SITE}/coleccion/${drop.id}`);

    // What a confirmed address gets when the drop opens: the same message but for its own
    // unsubscribe link (signed, one per address) and the subject's mark.
    await signUp(database.db, {
      dropId: drop.id,
      email: "ana@example.mx",
      consent: "si",
      siteUrl: SITE,
      from: FROM,
    });
    await confirmSubscription(database.db, await subscriptionId(database, "ana@example.mx"));
    await database.db.updateTable("emails").set({ sent_at: new Date().toISOString() }).execute();
    expect(await queueOpeningNotices(database.db, new Date(drop.opensAt.getTime() + 60_000))).toEqual({
      queued: 1,
    });
    await deliverPendingEmails(database.db, mailer, templates(database));
    const opening = mailer.sent.find((m) => m.to === "ana@example.mx");
    if (!opening || !test) throw new Error("the opening notice was not sent");
    const personal = /\/avisame\/baja\?t=[A-Za-z0-9._-]+/g;
    expect(test.html).toBe(opening.html.replace(personal, "/avisame/baja"));
    expect(test.text).toBe(opening.text.replace(personal, "/avisame/baja"));
    expect(test.subject).toBe(`[Prueba] ${opening.subject}`);
    // The page's preview is that message too.
    const preview = await renderOpeningEmail(
      {
        id: drop.id,
        name: "Luna de Octubre",
        startAt: drop.opensAt,
        endAt: (await campaignDrop(database.db, drop.id))?.endAt ?? new Date(),
      },
      shop,
      SITE,
    );
    expect(preview.html).toBe(test.html);

    // The mail log names both with the subject they went out with.
    const log = await listMailLog(database.db, { state: "enviado", page: 1 });
    expect(log.entries.map((e) => [e.kind, e.recipient, e.subject])).toEqual([
      [WAITLIST_OPENING_EMAIL, "ana@example.mx", opening.subject],
      ["avisame_confirmar", "ana@example.mx", null],
      [CAMPAIGN_TEST_EMAIL, OWNER, test.subject],
    ]);
  });

  it("'Reenviar' re-queues a failed e-mail once, however many times it is pressed; the log filters by state", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    const at = (minutes: number) => new Date(Date.now() - 60 * 60_000 + minutes * 60_000);
    const queueTest = (to: string, minutes: number) =>
      queueTestEmail(database.db, { dropId: drop.id, to, siteUrl: SITE, now: at(minutes) });
    await queueTest("falla@example.mx", 0);
    expect(
      await deliverPendingEmails(database.db, testMailer({ failing: true }), templates(database)),
    ).toEqual({ sent: 0, failed: 1 });
    await queueTest("sale@example.mx", 1);
    await deliverPendingEmails(database.db, testMailer(), templates(database));
    const waiting = await queueTest("espera@example.mx", 2);
    await queueEmail(database.db, {
      kind: "avisame_confirmar",
      recipient: "sobra@example.mx",
      payload: { id: "x" },
    });
    await deliverPendingEmails(database.db, testMailer(), templates(database), new Date(), {});

    expect(await countMailByState(database.db)).toEqual({
      pendiente: 0,
      enviado: 2,
      fallido: 1,
      descartado: 1,
    });
    const recipients = async (state: "pendiente" | "enviado" | "fallido" | "descartado" | null) =>
      (await listMailLog(database.db, { state, page: 1 })).entries.map((e) => e.recipient);
    expect(await recipients("fallido")).toEqual(["falla@example.mx"]);
    expect(await recipients("descartado")).toEqual(["sobra@example.mx"]);
    expect(await recipients(null)).toEqual([
      "sobra@example.mx",
      "espera@example.mx",
      "sale@example.mx",
      "falla@example.mx",
    ]);
    const [failed] = (await listMailLog(database.db, { state: "fallido", page: 1 })).entries;
    expect(failed).toMatchObject({ state: "fallido", attempts: 1, lastError: "SMTP 550: buzón lleno" });
    expect(failed?.nextAttemptAt).not.toBeNull();

    // A double click: both presses arrive, one re-queues it.
    const id = failed?.id ?? "";
    const presses = await Promise.all([retryFailedEmail(database.db, id), retryFailedEmail(database.db, id)]);
    expect(presses.filter((p) => p.ok)).toHaveLength(1);
    expect(presses.filter((p) => !p.ok)).toEqual([{ ok: false, reason: "no_fallido" }]);
    const row = await database.db
      .selectFrom("emails")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 0, last_error: null, next_attempt_at: null, sent_at: null });
    expect(await recipients("pendiente")).toEqual(["falla@example.mx"]);
    const mailer = testMailer();
    expect(await deliverPendingEmails(database.db, mailer, templates(database))).toEqual({
      sent: 1,
      failed: 0,
    });
    expect(mailer.sent.map((m) => m.to)).toEqual(["falla@example.mx"]);
    expect(
      await database.db
        .selectFrom("emails")
        .select("id")
        .where("recipient", "=", "falla@example.mx")
        .execute(),
    ).toHaveLength(1);

    // Sent, waiting or unknown: nothing to re-send.
    expect(await retryFailedEmail(database.db, id)).toEqual({ ok: false, reason: "no_fallido" });
    expect(await retryFailedEmail(database.db, waiting.ok ? waiting.emailId : "")).toEqual({
      ok: false,
      reason: "no_fallido",
    });
    expect(await retryFailedEmail(database.db, "zzzzzzzzzzzzzzzz")).toEqual({
      ok: false,
      reason: "no_encontrado",
    });
    expect(NOT_NEEDED).toBe("no se envió: ya no hacía falta");
  });

  it("the mail log pages through the newest 50 at a time", async () => {
    const database = await harness.fresh();
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < 53; i++) {
      await queueEmail(database.db, {
        kind: "confirmacion",
        recipient: `c${String(i).padStart(2, "0")}@example.mx`,
        now: new Date(base + i * 1000),
      });
    }
    const first = await listMailLog(database.db, { state: "pendiente", page: 1 });
    expect(first.entries).toHaveLength(50);
    expect(first.more).toBe(true);
    expect(first.entries[0]?.recipient).toBe("c52@example.mx");
    const second = await listMailLog(database.db, { state: "pendiente", page: 2 });
    expect(second.entries.map((e) => e.recipient)).toEqual([
      "c02@example.mx",
      "c01@example.mx",
      "c00@example.mx",
    ]);
    expect(second.more).toBe(false);
  });
});
