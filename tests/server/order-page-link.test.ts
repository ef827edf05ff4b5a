import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { CONFIRMATION_EMAIL } from "~/mail/kinds";
import { postOrderDesk, signInAdmin } from "../support/admin-http";
import { runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { boughtOnDemoPage } from "../support/demo-purchase";
import { hold } from "../support/orders";
import { visibleText } from "../support/page-text";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * 'Mi pedido' links that can be renewed (decision 37) through HTTP: the owner's 'Renovar enlace de
 * «Mi pedido»' on the order's page, the old link (the page, its return form, its factura) answered
 * with a Spanish 410 that shows nothing of the order and leads to the look-up, and the e-mails
 * sent after it (the owner's 'Reenviar') carrying the new link. A corrected e-mail does the same.
 */

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-order-page-link-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describeEachDatabase("renewing a buyer's 'Mi pedido' link", (harness) => {
  let server: RunningServer;
  let database: Database;
  let outbox = "";
  let cookie = "";

  beforeAll(async () => {
    database = await harness.fresh();
    const dataDir = path.join(tmp, harness.dialect);
    outbox = path.join(dataDir, "outbox");
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The outbox's messages (quoted-printable undone enough to read links). */
  const messages = () =>
    (fs.existsSync(outbox) ? fs.readdirSync(outbox) : []).map((f) =>
      fs
        .readFileSync(path.join(outbox, f), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "="),
    );

  /** Every 'Mi pedido' link of the order the outbox holds, oldest first by their signature's first sight. */
  const linksIn = (orderId: string) => {
    const found = new Set<string>();
    const pattern = new RegExp(`/mi-pedido/${orderId}\\?firma=[\\w-]+`, "g");
    for (const message of messages()) for (const m of message.match(pattern) ?? []) found.add(m);
    return [...found];
  };

  async function sentEmails(orderId: string) {
    return database.db
      .selectFrom("emails")
      .select(["id", "sent_at"])
      .where("order_id", "=", orderId)
      .where("kind", "=", CONFIRMATION_EMAIL)
      .execute();
  }

  /** Posts a desk form on the order's page as a browser does without JavaScript. */
  const desk = (orderId: string, fields: Record<string, string>, withCookie = cookie) =>
    postOrderDesk(server, orderId, fields, withCookie);

  /** An order bought on the demo page, its confirmation sent: its number and the link it carried. */
  async function boughtAndConfirmed(name: string, email: string) {
    const orderId = await boughtOnDemoPage(
      server,
      database,
      { name: "Anillo Mío", priceCents: 420_000 },
      { name, email },
    );
    await expect.poll(() => linksIn(orderId).length, { timeout: 15_000 }).toBe(1);
    await expect
      .poll(async () => (await sentEmails(orderId)).every((e) => e.sent_at !== null), { timeout: 15_000 })
      .toBe(true);
    const link = linksIn(orderId)[0] ?? "";
    expect((await fetch(`${server.url}${link}`)).status).toBe(200);
    return { orderId, link };
  }

  /** An old link's answer: 410, in Spanish, leading to the look-up, nothing of the order. */
  async function expectGone(target: string, init?: RequestInit) {
    const res = await fetch(`${server.url}${target}`, init);
    expect(res.status, target).toBe(410);
    const text = visibleText(await res.text());
    expect(text, target).toContain("Este enlace ya no es válido");
    expect(text, target).toContain("búscalo con su número y el correo con que pagaste");
    expect(text, target).toContain("Buscar mi pedido");
    for (const secret of [
      "Anillo Mío",
      "$4,200.00",
      "Macedonio",
      "951 123 4567",
      "Inés Ríos",
      "Eva Luna",
      "@ex",
    ])
      expect(text, target).not.toContain(secret);
  }

  it("the owner renews it: the old link (page, return form, factura) is a Spanish 410 with nothing of the order; 'Reenviar' and the look-up give the new one", async () => {
    const email = `ines.${harness.dialect}@example.mx`;
    const { orderId, link } = await boughtAndConfirmed("Inés Ríos", email);
    const firma = new URL(link, server.url).searchParams.get("firma") ?? "";

    const page = visibleText(
      await (await fetch(`${server.url}/admin/orders/${orderId}`, { headers: { cookie } })).text(),
    );
    expect(page).toContain("Renovar enlace de «Mi pedido»");
    expect(page).toContain("el enlace anterior deja de funcionar");

    // Signed out, nothing changes.
    expect((await desk(orderId, { intent: "enlace" }, "")).status).toBe(401);
    expect((await fetch(`${server.url}${link}`)).status).toBe(200);

    const renewed = await desk(orderId, { intent: "enlace" });
    expect(renewed.status).toBe(200);
    expect(renewed.message).toContain("Enlace de «Mi pedido» renovado");
    expect(renewed.message).toContain("/mi-pedido");
    expect(visibleText(renewed.html)).toContain("Enlace de «Mi pedido» renovado");

    await expectGone(link);
    await expectGone(`/mi-pedido/${orderId}/devolucion?firma=${firma}`);
    await expectGone(`/mi-pedido/${orderId}/factura?firma=${firma}`);
    await expectGone(`/mi-pedido/${orderId}/devolucion?firma=${firma}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: "pieza-0=1&motivo=talla",
    });
    // A signature the shop never made is still "not found".
    expect((await fetch(`${server.url}/mi-pedido/${orderId}?firma=${"A".repeat(43)}`)).status).toBe(404);

    // The look-up by number and e-mail leads to the new link.
    const found = await fetch(`${server.url}/mi-pedido`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({ number: orderId, email }),
    });
    expect(found.status).toBe(302);
    const current = found.headers.get("location") ?? "";
    expect(current).not.toBe(link);
    const opened = await fetch(`${server.url}${current}`);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Anillo Mío");

    // 'Reenviar' of her confirmation: the copy carries the new link, which opens her page.
    const [confirmation] = await sentEmails(orderId);
    const resent = await desk(orderId, { intent: "reenviar", email: confirmation?.id ?? "" });
    expect(resent.status).toBe(200);
    await expect.poll(() => linksIn(orderId).length, { timeout: 15_000 }).toBe(2);
    const fresh = linksIn(orderId).find((l) => l !== link) ?? "";
    expect(fresh).toBe(current);
    expect((await fetch(`${server.url}${fresh}`)).status).toBe(200);

    // The owner's Historial says it.
    const history = visibleText(
      await (await fetch(`${server.url}/admin/orders/${orderId}`, { headers: { cookie } })).text(),
    );
    expect(history).toContain("Enlace de «Mi pedido» renovado");
  });

  it("a corrected e-mail stops the link the old address received", async () => {
    const { orderId, link } = await boughtAndConfirmed("Eva Luna", `eva.${harness.dialect}@exmaple.mx`);
    const corrected = await desk(orderId, {
      intent: "comprador",
      name: "Eva Luna",
      email: `eva.${harness.dialect}@example.mx`,
      phone: "951 123 4567",
      line1: "Calle Macedonio Alcalá 401",
      line2: "Centro",
      postalCode: "68000",
      city: "Oaxaca de Juárez",
      state: "Oaxaca",
    });
    expect(corrected.status, corrected.message).toBe(200);
    await expectGone(link);
  });

  it("an unpaid order cannot be renewed: a Spanish 409 (or 404 for none), never a 5xx", async () => {
    // A checkout never paid: held, its payment page open.
    const piece = await runningPiece(database, { stock: 2 });
    const { id: orderId } = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    const refused = await desk(orderId, { intent: "enlace" });
    expect(refused.status).toBe(409);
    expect(refused.message).toBe("Este pedido no se pagó: no tiene una página de «Mi pedido» que renovar.");
    expect((await desk("OL-ZZZZZZZZ", { intent: "enlace" })).status).toBe(404);
  });
});
