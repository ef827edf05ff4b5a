import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { MAIL_LOG_PATH } from "~/campaigns/mail-log";
import { type Database, toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { CONFIRMATION_EMAIL, WAITLIST_OPENING_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import { signUp } from "~/waitlist/waitlist.server";
import { signInAdmin } from "../support/admin-http";
import { upcomingDrop } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { visibleText } from "../support/page-text";
import { paidOrder } from "../support/paid-order";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * Campañas over HTTP (decision 25): its actions ('Enviar prueba', 'Reenviar', the CSV export)
 * answer 401 signed out and 403 from another site, and change nothing; signed in they work.
 */
vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-campaigns-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const EVIL = "https://evil.example";
const HOUR = 3_600_000;

describeEachDatabase("Campañas through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let cookie = "";
  let dropId = "";

  beforeAll(async () => {
    database = await harness.fresh();
    server = await startServer({
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      MAIL_DAILY_LIMIT: "100",
    });
    cookie = await signInAdmin(server, database);
    dropId = (await upcomingDrop(database, "Luna de Octubre", 24 * HOUR)).id;
    await signUp(database.db, {
      dropId,
      email: "ana@example.mx",
      consent: "si",
      siteUrl: server.url,
      from: { address: "127.0.0.1", proven: true },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A message whose last attempt failed (given up: the server's own rounds leave it alone). */
  async function failedEmail(): Promise<string> {
    const id = await queueEmail(database.db, {
      kind: "campana_prueba",
      recipient: "falla@example.mx",
      payload: { dropId, siteUrl: server.url },
    });
    await database.db
      .updateTable("emails")
      .set({
        attempts: 30,
        last_error: "SMTP 550",
        next_attempt_at: new Date(Date.now() + HOUR).toISOString(),
      })
      .where("id", "=", id ?? "")
      .execute();
    return id ?? "";
  }

  /** Everything an action could change: the e-mails and the lists. */
  async function snapshot() {
    return {
      emails: await database.db
        .selectFrom("emails")
        .select(["id", "kind", "recipient", "attempts", "last_error", "sent_at"])
        .orderBy("id")
        .execute(),
      lists: await database.db.selectFrom("waitlist_subscriptions").selectAll().orderBy("id").execute(),
    };
  }

  const post = (pathname: string, fields: Record<string, string>, headers: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    });

  async function everyAction(): Promise<{ path: string; fields: Record<string, string> }[]> {
    const failed = await failedEmail();
    return [
      { path: "/admin/campains", fields: { intent: "prueba", drop: dropId } },
      { path: "/admin/campains", fields: { intent: "reenviar", email: failed } },
      { path: "/admin/campains/correos", fields: { intent: "reenviar", email: failed } },
      { path: "/admin/campains/exportar.csv", fields: { drop: dropId } },
      { path: "/admin/campains", fields: { intent: "baja", email: "ana@example.mx" } },
    ];
  }

  it("signed out: the page sends to /login, every action answers 401 and nothing changes", async () => {
    const actions = await everyAction();
    const before = await snapshot();
    // The mail log, at its address and at the one it had before.
    for (const address of ["/admin/campains/correos", "/admin/campains?vista=correos"]) {
      const page = await fetch(`${server.url}${address}`, { redirect: "manual" });
      expect(page.status, address).toBe(302);
      expect(page.headers.get("location"), address).toBe(`/login?redirectTo=${encodeURIComponent(address)}`);
    }
    for (const action of actions) {
      const res = await post(action.path, action.fields, { origin: server.url });
      expect(res.status, action.path).toBe(401);
      expect(await res.text(), action.path).toContain("Tu sesión terminó");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("from another site with a valid session: every action answers 403 and nothing changes", async () => {
    const actions = await everyAction();
    const before = await snapshot();
    for (const action of actions) {
      for (const headers of [
        { cookie, origin: EVIL },
        { cookie, "sec-fetch-site": "cross-site" },
        { cookie },
      ] as Record<string, string>[]) {
        const res = await post(action.path, action.fields, headers);
        expect(res.status, `${action.path} ${JSON.stringify(headers)}`).toBe(403);
        const body = await res.text();
        expect(body).toContain("no permitida");
        expect(body).not.toContain("ana@example.mx");
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("signed in: the sign-ups a cap kept from being mailed are counted on the drop's list, by cap", async () => {
    const join = (email: string, address: string) =>
      signUp(database.db, {
        dropId,
        email,
        consent: "si",
        siteUrl: server.url,
        from: { address, proven: true },
      });
    // ana@example.mx had one confirmation: two more plus-addresses reach the mailbox's three.
    for (const tag of ["1", "2", "3", "4"]) await join(`ana+${tag}@example.mx`, "198.51.100.1");
    // Thirty-one from one IPv6 /64: the last is past the address's hour.
    for (let i = 0; i < 31; i++) await join(`vecino${i}@example.mx`, `2001:db8:5:6::${(i + 1).toString(16)}`);
    const page = await fetch(`${server.url}/admin/campains?drop=${dropId}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const text = (await page.text()).replaceAll("<!-- -->", "");
    expect(text).toContain("Registros sin correo por límite: <strong>3</strong>");
    expect(text).toContain("(buzón: 2 · dirección: 1 · tienda: 0)");
    // The capped addresses are not on the list.
    expect(text).not.toContain("ana+3@example.mx");
    expect(text).toContain("ana+2@example.mx");
  });

  it("signed in: the list, its CSV, a test e-mail to the owner and 'Reenviar' work; bad input is a Spanish 4xx", async () => {
    const page = await fetch(`${server.url}/admin/campains?drop=${dropId}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("ana@example.mx");
    // The preview is a sandboxed frame: the e-mail's markup runs nothing in the admin's page.
    expect(html).toMatch(/<iframe[^>]*sandbox=""[^>]*srcDoc=|<iframe[^>]*srcdoc=[^>]*sandbox=""/i);

    const csv = await post("/admin/campains/exportar.csv", { drop: dropId }, { cookie, origin: server.url });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(csv.headers.get("content-disposition")).toMatch(
      /^attachment; filename="avisame-[a-z0-9]{16}-[\d-]+\.csv"$/,
    );
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toContain('"ana@example.mx","Sin confirmar"');
    // The address alone (a link, a GET) exports nothing.
    expect((await fetch(`${server.url}/admin/campains/exportar.csv`, { headers: { cookie } })).status).toBe(
      405,
    );
    expect(
      (await post("/admin/campains/exportar.csv", { drop: "nope" }, { cookie, origin: server.url })).status,
    ).toBe(404);

    const test = await post(
      "/admin/campains",
      { intent: "prueba", drop: dropId },
      { cookie, origin: server.url },
    );
    expect(test.status).toBe(200);
    const queued = await database.db
      .selectFrom("emails")
      .select(["recipient"])
      .where("kind", "=", "campana_prueba")
      .where("recipient", "like", "admin-%")
      .execute();
    expect(queued).toHaveLength(1);

    const failed = await failedEmail();
    const copies = async () =>
      (
        await database.db
          .selectFrom("emails")
          .select("id")
          .where("recipient", "=", "falla@example.mx")
          .execute()
      ).length;
    const before = await copies();
    // A double click: both presses answer calmly, the message goes again once (no copy).
    // The log's own address and the one its page posted to before take it alike.
    const presses = await Promise.all(
      ["/admin/campains/correos", "/admin/campains"].map((pathname) =>
        post(pathname, { intent: "reenviar", email: failed }, { cookie, origin: server.url }),
      ),
    );
    expect(presses.map((r) => r.status)).toEqual([200, 200]);
    expect(await copies()).toBe(before);
    // The server sends it at once (sendSoon): one attempt, one message.
    let row: { attempts: number; sent_at: unknown } = { attempts: -1, sent_at: null };
    for (let i = 0; i < 100 && row.sent_at === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = await database.db
        .selectFrom("emails")
        .select(["attempts", "sent_at"])
        .where("id", "=", failed)
        .executeTakeFirstOrThrow();
    }
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(1);

    for (const pathname of ["/admin/campains", "/admin/campains/correos"]) {
      for (const fields of [{ intent: "nada" }, {}] as Record<string, string>[]) {
        expect((await post(pathname, fields, { cookie, origin: server.url })).status, pathname).toBe(400);
      }
    }
    for (const [pathname, fields] of [
      ["/admin/campains", { intent: "prueba", drop: "zzzzzzzzzzzzzzzz" }],
      ["/admin/campains", { intent: "reenviar", email: "no-es-un-id" }],
      ["/admin/campains/correos", { intent: "reenviar", email: "no-es-un-id" }],
    ] as [string, Record<string, string>][]) {
      expect((await post(pathname, fields, { cookie, origin: server.url })).status, pathname).toBe(404);
    }
    const badFilter = await fetch(`${server.url}/admin/campains/correos?estado=%00`, {
      headers: { cookie },
    });
    expect(badFilter.status).toBe(400);
    expect(await badFilter.text()).toContain("Estado: elige Todos");
    // The log's old address (?vista=correos) leads to its own, filter and page kept.
    const moved = await fetch(`${server.url}/admin/campains?vista=correos&estado=fallido&pagina=2`, {
      headers: { cookie },
      redirect: "manual",
    });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/admin/campains/correos?estado=fallido&pagina=2");
    const oldBadFilter = await fetch(`${server.url}/admin/campains?vista=correos&estado=%00`, {
      headers: { cookie },
    });
    expect(oldBadFilter.status).toBe(400);
    expect(await oldBadFilter.text()).toContain("Estado: elige Todos");
    expect(
      (await fetch(`${server.url}/admin/campains?drop=zzzzzzzzzzzzzzzz`, { headers: { cookie } })).status,
    ).toBe(404);
  });

  it("signed in: an order's e-mail that did not go out is told on every admin page, with a link to the failed ones, until 'Reenviar' sends it", async () => {
    const notice = "1 correo de un pedido no ha salido (últimos 7 días).";
    const pageText = async (pathname: string) =>
      visibleText(await (await fetch(`${server.url}${pathname}`, { headers: { cookie } })).text());
    expect(await pageText("/admin/orders")).not.toContain("no ha salido");

    const order = await paidOrder(database, { buyer: { name: "Ana Pérez", email: "ana.aviso@example.mx" } });
    // Her confirmation, as it stands after failed attempts: written so, since one queued to fail
    // later could be sent first by the server's own minute round.
    const confirmation = { id: newId() };
    await database.db
      .insertInto("emails")
      .values({
        id: confirmation.id,
        kind: CONFIRMATION_EMAIL,
        recipient: "ana.aviso@example.mx",
        order_id: order.id,
        dedupe_key: null,
        payload: "{}",
        created_at: toTimestamp(new Date()),
        claimed_at: null,
        next_attempt_at: toTimestamp(new Date(Date.now() + HOUR)),
        sent_at: null,
        attempts: 4,
        last_error: "SMTP 451 intenta más tarde",
        subject: null,
      })
      .execute();

    for (const pathname of ["/admin/orders", "/admin/drops", "/admin/settings"]) {
      expect(await pageText(pathname), pathname).toContain(notice);
    }
    const html = await (await fetch(`${server.url}/admin/orders`, { headers: { cookie } })).text();
    expect(html).toMatch(
      /<a[^>]*href="\/admin\/campains\/correos\?estado=fallido&amp;tipo=pedidos"[^>]*>Ver los correos que fallaron<\/a>/,
    );
    // It leads to the failed messages about orders, hers among them (which ones: undelivered-mail.db).
    const linked = await pageText("/admin/campains/correos?estado=fallido&tipo=pedidos");
    expect(linked).toContain("Solo los correos de pedidos");
    expect(linked).toContain("ana.aviso@example.mx");
    expect(linked).toContain("Ver todos los correos");
    const wrongScope = await fetch(`${server.url}/admin/campains/correos?tipo=spam`, { headers: { cookie } });
    expect(wrongScope.status).toBe(400);
    expect(visibleText(await wrongScope.text())).toContain("Tipo: elige Todos o Pedidos.");

    const resent = await post(
      "/admin/campains/correos",
      { intent: "reenviar", email: confirmation.id },
      { cookie, origin: server.url },
    );
    expect(resent.status).toBe(200);
    // The server sends it at once; the notice is gone from the next page.
    let sent: unknown = null;
    for (let i = 0; i < 100 && sent === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      sent = (
        await database.db
          .selectFrom("emails")
          .select("sent_at")
          .where("id", "=", confirmation.id)
          .executeTakeFirstOrThrow()
      ).sent_at;
    }
    expect(sent).not.toBeNull();
    expect(await pageText("/admin/orders")).not.toContain("no ha salido");
  });

  it("signed in: 'Dar de baja' takes an address asked by other means off every list; a bad address is a Spanish 400", async () => {
    await signUp(database.db, {
      dropId,
      email: "bruno@example.mx",
      consent: "si",
      siteUrl: server.url,
      from: { address: "127.0.0.1", proven: true },
    });
    const leave = (email: string) =>
      post("/admin/campains", { intent: "baja", email }, { cookie, origin: server.url });
    const left = await leave("  Bruno@Example.MX ");
    expect(left.status).toBe(200);
    expect(await left.text()).toContain("Listo: bruno@example.mx dejó 1 lista y no recibirá más avisos.");
    const row = await database.db
      .selectFrom("waitlist_subscriptions")
      .select(["status", "unsubscribed_at"])
      .where("email", "=", "bruno@example.mx")
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("baja");
    expect(row.unsubscribed_at).not.toBeNull();
    // Again: nothing to do, and it says so.
    expect(await (await leave("bruno@example.mx")).text()).toContain(
      "bruno@example.mx no estaba en ninguna lista (o ya se había dado de baja): no recibe avisos.",
    );
    const bad = await leave("bruno@");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Escribe un correo electrónico válido");
    // The page offers it.
    const page = await (await fetch(`${server.url}/admin/campains`, { headers: { cookie } })).text();
    expect(page).toContain("Dar de baja un correo");
  });
  it("signed in: the mail log tells the daily limit, the last 24 hours' count and the opening notices waiting for it", async () => {
    const pageText = async () =>
      visibleText(await (await fetch(`${server.url}${MAIL_LOG_PATH}`, { headers: { cookie } })).text());
    const limit =
      /Tu servicio de correo envía hasta 100 correos en 24 horas \(MAIL_DAILY_LIMIT\); en las últimas 24 horas salieron (\d+)\. Los avisos de Avísame usan hasta 75; el resto queda para pedidos y tus correos\./;
    const before = Number((await pageText()).match(limit)?.[1]);
    expect(before).toBeLessThan(75);
    expect(await pageText()).not.toContain("esperan al límite diario");

    // A day's mail up to the notices' share, then three opening notices due.
    const rows = (count: number, fields: { kind: string; sent: boolean }) =>
      Array.from({ length: count }, (_, i) => ({
        id: newId(),
        kind: fields.kind,
        recipient: `cupo.${i}@example.mx`,
        order_id: null,
        dedupe_key: null,
        payload: "{}",
        created_at: toTimestamp(new Date(Date.now() - HOUR)),
        claimed_at: null,
        next_attempt_at: null,
        sent_at: fields.sent ? toTimestamp(new Date(Date.now() - HOUR)) : null,
        attempts: fields.sent ? 1 : 0,
        last_error: null,
        subject: fields.sent ? "Tu pedido" : null,
      }));
    const sent = rows(75 - before, { kind: CONFIRMATION_EMAIL, sent: true });
    const notices = rows(3, { kind: WAITLIST_OPENING_EMAIL, sent: false });
    await database.db
      .insertInto("emails")
      .values([...sent, ...notices])
      .execute();
    try {
      const text = await pageText();
      expect(text).toMatch(limit);
      expect(Number(text.match(limit)?.[1])).toBeGreaterThanOrEqual(75);
      expect(text).toContain(
        "3 avisos de Avísame esperan al límite diario: salen solos, en orden, a medida que se libera.",
      );
      // The server's own rounds leave them waiting.
      const waiting = await database.db
        .selectFrom("emails")
        .select("id")
        .where("kind", "=", WAITLIST_OPENING_EMAIL)
        .where("sent_at", "is", null)
        .execute();
      expect(waiting).toHaveLength(3);
    } finally {
      await database.db
        .deleteFrom("emails")
        .where(
          "id",
          "in",
          [...sent, ...notices].map((r) => r.id),
        )
        .execute();
    }
  });
});
