import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { archiveOrder, shipOrder } from "~/orders/desk.server";
import { confirmPayment } from "~/orders/payment.server";
import { refundOrder } from "~/orders/refunds.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { DEFAULT_DELIVERY_DAYS } from "~/settings/settings";
import { actionMessage, signInAdmin } from "../support/admin-http";
import { oaxacaAddress, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";
import { type RunningServer, startServer } from "../support/server-process";

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-orders-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const INCOMPLETE = "Por favor completa todos los campos.";
const EVIL = "https://evil.example";

interface TestOrder {
  id: string;
  email: string;
  stock(): Promise<number | undefined>;
}

/** The page's text as a person reads it (scripts and tags left out). */
function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

/** Cells of a CSV as toCsv writes it: every cell quoted, CRLF between rows, no line breaks inside. */
function parseCsv(text: string): string[][] {
  return text
    .split("\r\n")
    .filter((line) => line !== "")
    .map((line) =>
      [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => (m[1] ?? "").replace(/""/g, '"')),
    );
}

/** A .eml as written to the outbox, its quoted-printable parts decoded (soft breaks, UTF-8 bytes). */
function readEml(file: string): string {
  const bytes = fs
    .readFileSync(file, "latin1")
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The text of the 'Pedidos' link in the admin menu, where the pending count is shown. */
function ordersMenuItem(html: string): string {
  const menu = html.match(/<nav aria-label="Administración"[\s\S]*?<\/nav>/)?.[0] ?? "";
  const link = menu.match(/<a[^>]*href="\/admin\/orders"[^>]*>([\s\S]*?)<\/a>/)?.[1] ?? "";
  return visibleText(link).trim();
}

describeEachDatabase("the orders desk through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let dataDir: string;
  let cookie = "";

  beforeAll(async () => {
    database = await harness.fresh();
    dataDir = path.join(tmp, harness.dialect);
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

  /** A paid order (status pendiente) of `quantity` pieces from a fresh drop with 5 in stock. */
  async function paidOrder(name = "Renata Quiroga", quantity = 2): Promise<TestOrder> {
    const piece = await runningPiece(database, { stock: 5 });
    const held = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity }],
      provider: "demo",
    });
    const email = `cliente-${newId(8)}@example.com`;
    const outcome = await confirmPayment(database.db, {
      orderId: held.id,
      customerName: name,
      customerEmail: email,
      shipping: oaxacaAddress(name, "951 123 4567"),
    });
    expect(outcome).toBe("paid");
    return { id: held.id, email, stock: piece.stock };
  }

  async function shippedOrder(name?: string): Promise<TestOrder> {
    const order = await paidOrder(name);
    const shipped = await shipOrder(database.db, order.id, {
      carrier: "Estafeta",
      trackingNumber: "EST-0001",
    });
    expect(shipped.ok).toBe(true);
    return order;
  }

  /** The customer has received every message about the order (as the server's mail job would). */
  async function delivered(order: TestOrder): Promise<TestOrder> {
    await database.db
      .updateTable("emails")
      .set({ sent_at: new Date().toISOString() })
      .where("order_id", "=", order.id)
      .where("sent_at", "is", null)
      .execute();
    return order;
  }

  async function archivedOrder(name?: string): Promise<TestOrder> {
    const order = await shippedOrder(name);
    expect((await archiveOrder(database.db, order.id)).ok).toBe(true);
    return order;
  }

  /**
   * Everything a desk action could change about an order. E-mails by row, not by sent_at: the
   * server's mail job may send a queued one at any moment.
   */
  async function state(order: TestOrder) {
    const row = await database.db
      .selectFrom("orders")
      .select(["status", "carrier", "tracking_number"])
      .where("id", "=", order.id)
      .executeTakeFirst();
    const emails = await database.db
      .selectFrom("emails")
      .select(["kind", "recipient"])
      .where("order_id", "=", order.id)
      .orderBy("kind")
      .orderBy("created_at")
      .execute();
    const events = await database.db
      .selectFrom("order_events")
      .select("kind")
      .where("order_id", "=", order.id)
      .orderBy("kind")
      .execute();
    return {
      order: row ?? null,
      stock: await order.stock(),
      emails,
      events: events.map((e) => e.kind),
    };
  }

  async function emailsOf(orderId: string, kind: string) {
    return database.db
      .selectFrom("emails")
      .select(["id", "recipient", "sent_at"])
      .where("order_id", "=", orderId)
      .where("kind", "=", kind)
      .execute();
  }

  const get = (pathname: string, withCookie = cookie) =>
    fetch(`${server.url}${pathname}`, {
      redirect: "manual",
      headers: withCookie ? { cookie: withCookie } : {},
    });

  /**
   * Posts a desk form as a browser does without JavaScript (same origin, form-encoded). The answer
   * is the order's page, with the action's status and its message in the page's data.
   */
  async function desk(
    orderId: string,
    fields: Record<string, string>,
    headers: Record<string, string> = { cookie, origin: server.url },
  ) {
    const res = await fetch(`${server.url}/admin/orders/${orderId}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    });
    const html = await res.text();
    return { status: res.status, location: res.headers.get("location"), message: actionMessage(html), html };
  }

  const shipment = (trackingNumber: string) => ({ carrier: "Estafeta", otherCarrier: "", trackingNumber });

  /** One order in the status each intent starts from, and the form that intent would post. */
  async function everyIntent() {
    const pending = await paidOrder("Inés Pendiente");
    const shipped = await shippedOrder("Óscar Enviado");
    const archived = await archivedOrder("Eva Archivada");
    const confirmation = (await emailsOf(pending.id, "confirmacion"))[0]?.id ?? "";
    const attempts: { order: TestOrder; fields: Record<string, string> }[] = [
      { order: pending, fields: { intent: "atender", ...shipment("GUIA-12345") } },
      { order: shipped, fields: { intent: "corregir", ...shipment("GUIA-67890"), notify: "on" } },
      { order: shipped, fields: { intent: "archivar" } },
      { order: pending, fields: { intent: "eliminar" } },
      { order: archived, fields: { intent: "borrar", volver: "/admin/orders?estado=archivado" } },
      { order: pending, fields: { intent: "reenviar", email: confirmation } },
    ];
    const snapshot = async () => Promise.all([pending, shipped, archived].map(state));
    return { pending, attempts, snapshot };
  }

  it("signed out: the desk's pages send to /login, every action and POST answers 401, nothing changes", async () => {
    const { pending, attempts, snapshot } = await everyIntent();
    const before = await snapshot();

    for (const page of [
      "/admin/orders",
      "/admin/orders?estado=enviado&q=renata",
      `/admin/orders/${pending.id}`,
      `/admin/orders/${pending.id}/imprimir`,
    ]) {
      const res = await get(page, "");
      expect(res.status, page).toBe(302);
      expect(res.headers.get("location"), page).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);
    }
    // A spreadsheet link followed without a session: a 401 with the reason, not the sign-in page
    // saved as a .csv.
    const csv = await get("/admin/orders/exportar.csv?estado=enviado", "");
    expect(csv.status).toBe(401);
    expect(csv.headers.get("location")).toBeNull();
    expect(((await csv.json()) as { message: string }).message).toBe(
      "Tu sesión terminó. Inicia sesión de nuevo.",
    );

    for (const { order, fields } of attempts) {
      const res = await desk(order.id, fields, { origin: server.url });
      expect(res.status, fields.intent).toBe(401);
      expect(res.location).toBeNull();
      // The owner is told to sign in again, not that something broke.
      expect(visibleText(res.html), fields.intent).toContain("Tu sesión terminó");
    }
    for (const pathname of [`/admin/orders/${pending.id}/imprimir`, "/admin/orders/exportar.csv"]) {
      const res = await fetch(`${server.url}${pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "eliminar" }),
      });
      expect(res.status, pathname).toBe(401);
    }
    // The export is a resource route: the guard's own answer comes back as it is.
    const exportPost = await fetch(`${server.url}/admin/orders/exportar.csv`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url },
    });
    expect(((await exportPost.json()) as { message: string }).message).toBe(
      "Tu sesión terminó. Inicia sesión de nuevo.",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("from another site with a valid session: every action is refused and nothing changes", async () => {
    const { pending, attempts, snapshot } = await everyIntent();
    const before = await snapshot();
    for (const { order, fields } of attempts) {
      // The server refuses a foreign Origin before any page runs…
      const foreign = await desk(order.id, fields, { cookie, origin: EVIL });
      expect(foreign.status, fields.intent).toBe(403);
      expect(visibleText(foreign.html), fields.intent).toContain("no permitida");
      // …and our guard refuses what it lets through: no Origin, or one the browser marks cross-site.
      const unsure: Record<string, string>[] = [{ cookie, "sec-fetch-site": "cross-site" }, { cookie }];
      for (const headers of unsure) {
        const res = await desk(order.id, fields, headers);
        expect(res.status, `${fields.intent} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.location).toBeNull();
        expect(visibleText(res.html), fields.intent).toContain("no permitida");
      }
    }
    // The export is a resource route: the guard itself answers there.
    const exportPost = await fetch(`${server.url}/admin/orders/exportar.csv`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: EVIL },
    });
    expect(exportPost.status).toBe(403);
    expect(((await exportPost.json()) as { message: string }).message).toBe(
      "Solicitud no permitida: no viene de la tienda.",
    );
    const printPost = await fetch(`${server.url}/admin/orders/${pending.id}/imprimir`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "sec-fetch-site": "cross-site" },
    });
    expect(printPost.status).toBe(403);
    expect(await snapshot()).toEqual(before);
    // The session itself is untouched.
    expect((await get("/admin/orders")).status).toBe(200);
  });

  it("'Atender pedido' without carrier or tracking number: 400 'Por favor completa todos los campos.', nothing changes", async () => {
    const order = await paidOrder();
    const before = await state(order);
    const incomplete: Record<string, string>[] = [
      { carrier: "", trackingNumber: "" },
      { carrier: "", trackingNumber: "GUIA-12345" },
      { carrier: "Estafeta", trackingNumber: "" },
      { carrier: "Estafeta", trackingNumber: "   " },
      { carrier: "Otra", otherCarrier: "", trackingNumber: "GUIA-12345" },
      { trackingNumber: "GUIA-12345" },
    ];
    for (const fields of incomplete) {
      const res = await desk(order.id, { intent: "atender", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.message, JSON.stringify(fields)).toBe(INCOMPLETE);
    }
    expect(await state(order)).toEqual(before);
  });

  it("control characters in the shipment form or the search box: a 400 that says so, nothing stored or searched", async () => {
    const order = await paidOrder("Renata Quiroga");
    const before = await state(order);
    const cases: { fields: Record<string, string>; message: string }[] = [
      {
        fields: { carrier: "Otra", otherCarrier: "Mensajería\u0000Oaxaca", trackingNumber: "GUIA-12345" },
        message: "Paquetería: contiene caracteres no permitidos.",
      },
      {
        fields: { carrier: "Otra", otherCarrier: "Mensajería\u001b[2J", trackingNumber: "GUIA-12345" },
        message: "Paquetería: contiene caracteres no permitidos.",
      },
      {
        fields: { carrier: "Estafeta", trackingNumber: "GUIA\u000012345" },
        message: "Número de guía: contiene caracteres no permitidos.",
      },
      {
        fields: { carrier: "Estafeta", trackingNumber: "GUIA\n12345" },
        message: "Número de guía: contiene caracteres no permitidos.",
      },
    ];
    for (const { fields, message } of cases) {
      for (const intent of ["atender", "corregir"]) {
        const res = await desk(order.id, { intent, ...fields });
        expect.soft(res.status, `${intent} ${JSON.stringify(fields)}`).toBe(400);
        expect.soft(res.message, `${intent} ${JSON.stringify(fields)}`).toBe(message);
      }
    }
    expect(await state(order)).toEqual(before);

    // The search box: refused (PostgreSQL would choke on a NUL), said on the page, nothing listed.
    for (const q of ["Renata%00", "Rena%07ta", "Renata%0AQuiroga", "%1B%5B2J"]) {
      const page = await get(`/admin/orders?estado=pendiente&q=${q}`);
      expect.soft(page.status, q).toBe(400);
      const html = await page.text();
      expect.soft(visibleText(html), q).toContain("Búsqueda: contiene caracteres no permitidos.");
      expect.soft(html, q).not.toContain(`href="/admin/orders/${order.id}"`);
      const csv = await get(`/admin/orders/exportar.csv?estado=pendiente&q=${q}`);
      expect.soft(csv.status, q).toBe(400);
      expect.soft(await csv.text(), q).toBe("Búsqueda: contiene caracteres no permitidos.");
    }
    // The same search without them finds the order.
    expect(await (await get("/admin/orders?estado=pendiente&q=Renata")).text()).toContain(
      `href="/admin/orders/${order.id}"`,
    );
  });

  it("'Atender pedido': 200 'Pedido marcado como enviado', the customer's notice goes out with the tracking number; a second time 409", async () => {
    const order = await paidOrder();
    const tracking = `EST${newId(10).toUpperCase()}`;
    const res = await desk(order.id, { intent: "atender", ...shipment(tracking) });
    expect(res.status).toBe(200);
    expect(res.message).toBe("Pedido marcado como enviado");

    const after = await state(order);
    expect(after.order).toEqual({ status: "enviado", carrier: "Estafeta", tracking_number: tracking });
    expect(after.stock).toBe(3); // shipped pieces stay sold
    // Kept with it: the days Configuración counts to its delivery now (decision 44).
    const kept = await database.db
      .selectFrom("orders")
      .select("delivery_days")
      .where("id", "=", order.id)
      .executeTakeFirst();
    expect(kept?.delivery_days).toBe(DEFAULT_DELIVERY_DAYS);
    expect(after.events).toEqual(["enviado"]);
    const link = `href="/admin/orders/${order.id}"`;
    expect(await (await get("/admin/orders?estado=enviado")).text()).toContain(link);
    expect(await (await get("/admin/orders?estado=pendiente")).text()).not.toContain(link);
    const notices = await emailsOf(order.id, "envio");
    expect(notices.map((e) => e.recipient)).toEqual([order.email]);

    // The outbox mailer writes each message as a .eml in DATA_DIR/outbox, right after the action.
    const outbox = path.join(dataDir, "outbox");
    let sent: string | undefined;
    for (let i = 0; i < 50 && !sent; i++) {
      const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
      sent = files.map((f) => readEml(path.join(outbox, f))).find((eml) => eml.includes(tracking));
      if (!sent) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(sent, "the shipment e-mail reached the outbox").toBeDefined();
    expect(sent).toContain(`To: ${order.email}`);
    expect(sent).toContain(`Subject: Tu pedido ${order.id} va en camino`);
    expect(sent).toContain(`Número de guía: ${tracking}`);

    const again = await desk(order.id, { intent: "atender", ...shipment("OTRA-GUIA-999") });
    expect(again.status).toBe(409);
    expect(again.message).toMatch(/^Error al marcar como enviado/);
    const unchanged = await state(order);
    expect(unchanged.order?.tracking_number).toBe(tracking);
    expect(await emailsOf(order.id, "envio")).toHaveLength(1);
  });

  it("'Atender seleccionados' from a pasted CSV: a bad line is a 400 by line number with nothing shipped; fixed, 200 and 20 e-mails in the outbox", async () => {
    const orders: TestOrder[] = [];
    for (let i = 0; i < 20; i++) orders.push(await paidOrder(`Cliente Lote ${i + 1}`, 1));
    const tag = newId(6).toUpperCase();
    const rows = orders.map((o, i) => `${o.id},LOTE-${tag}-${i + 1}`);
    const post = async (csv: string) => {
      const res = await fetch(`${server.url}/admin/orders`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url },
        body: new URLSearchParams({ intent: "atenderlote", carrier: "Estafeta", otherCarrier: "", csv }),
      });
      const html = await res.text();
      return { status: res.status, message: actionMessage(html), html };
    };
    const before = await Promise.all(orders.map(state));

    // Line 1 is the header; line 7 names an order never issued, line 12 has no tracking number.
    const bad = ["pedido,guía", ...rows];
    bad[6] = "OL-ZZZZZZZZ,LOTE-X";
    bad[11] = `${orders[10]?.id},`;
    const refused = await post(bad.join("\r\n"));
    expect(refused.status).toBe(400);
    expect(refused.message).toBe("No se atendió ningún pedido. Corrige esto y vuelve a intentarlo:");
    expect(refused.html).toContain("Línea 7: el pedido OL-ZZZZZZZZ no existe.");
    expect(refused.html).toContain(`Línea 12: falta el número de guía del pedido ${orders[10]?.id}.`);
    expect(await Promise.all(orders.map(state))).toEqual(before);

    const shipped = await post(["pedido,guía", ...rows].join("\n"));
    expect(shipped.status).toBe(200);
    expect(shipped.message).toBe("20 pedidos marcados como enviados");
    for (const [i, order] of orders.entries()) {
      expect((await state(order)).order).toEqual({
        status: "enviado",
        carrier: "Estafeta",
        tracking_number: `LOTE-${tag}-${i + 1}`,
      });
    }
    const listed = await (await get("/admin/orders?estado=enviado&q=Cliente%20Lote")).text();
    for (const order of orders) expect(listed).toContain(`href="/admin/orders/${order.id}"`);

    // Each buyer's notice, written to DATA_DIR/outbox by the shop's mailer (no SMTP).
    const outbox = path.join(dataDir, "outbox");
    const sent = () =>
      (fs.existsSync(outbox) ? fs.readdirSync(outbox) : [])
        .map((f) => readEml(path.join(outbox, f)))
        .filter((eml) => eml.includes(`LOTE-${tag}-`));
    for (let i = 0; i < 100 && sent().length < 20; i++) await new Promise((r) => setTimeout(r, 200));
    const emails = sent();
    expect(emails).toHaveLength(20);
    for (const [i, order] of orders.entries()) {
      const eml = emails.find(
        (e) =>
          e.includes(`Número de guía: LOTE-${tag}-${i + 1}\r`) ||
          e.includes(`Número de guía: LOTE-${tag}-${i + 1}\n`),
      );
      expect(eml, order.id).toContain(`To: ${order.email}`);
    }

    // A tracking number per selected order: a missing one is told by its order, nothing ships.
    const [first, second] = [await paidOrder("Sel Uno", 1), await paidOrder("Sel Dos", 1)];
    const selection = (guias: [string, string]) =>
      fetch(`${server.url}/admin/orders`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url },
        body: new URLSearchParams([
          ["intent", "atenderlote"],
          ["carrier", "DHL Express"],
          ["pedido", first.id],
          ["guia", guias[0]],
          ["pedido", second.id],
          ["guia", guias[1]],
        ]),
      });
    const missing = await selection([`SEL-${tag}-1`, ""]);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain(`Falta el número de guía del pedido ${second.id}.`);
    expect((await state(first)).order?.status).toBe("pendiente");
    expect((await selection([`SEL-${tag}-1`, `SEL-${tag}-2`])).status).toBe(200);
    expect((await state(second)).order).toEqual({
      status: "enviado",
      carrier: "DHL Express",
      tracking_number: `SEL-${tag}-2`,
    });

    // Again: every order is now shipped, so the whole batch is refused, each by its line.
    const again = await post(["pedido,guía", ...rows].join("\n"));
    expect(again.status).toBe(400);
    expect(again.html).toContain(`Línea 2: el pedido ${orders[0]?.id} ya no está pendiente`);
  });

  it("two 'Atender pedido' at once: exactly one 200 and one 409, one notice queued", async () => {
    const order = await paidOrder();
    const answers = await Promise.all([
      desk(order.id, { intent: "atender", ...shipment("PRIMERA-111") }),
      desk(order.id, { intent: "atender", ...shipment("SEGUNDA-222") }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200);
    expect(winner?.message).toBe("Pedido marcado como enviado");
    expect(answers.find((a) => a.status === 409)?.message).toMatch(/^Error al marcar como enviado/);
    const after = await state(order);
    expect(after.order?.status).toBe("enviado");
    expect(after.events).toEqual(["enviado"]);
    expect(await emailsOf(order.id, "envio")).toHaveLength(1);
  });

  it("'corregir' changes a shipped order's tracking, sending the notice again only when asked", async () => {
    const order = await shippedOrder();
    const quiet = await desk(order.id, { intent: "corregir", carrier: "FedEx", trackingNumber: "FDX-1000" });
    expect(quiet.status).toBe(200);
    expect(quiet.message).toBe("Guía corregida");
    expect((await state(order)).order).toEqual({
      status: "enviado",
      carrier: "FedEx",
      tracking_number: "FDX-1000",
    });
    expect(await emailsOf(order.id, "envio")).toHaveLength(1);

    // The first notice has not gone out: it will carry the new number, no second one is queued.
    const waiting = await desk(order.id, {
      intent: "corregir",
      carrier: "FedEx",
      trackingNumber: "FDX-1001",
      notify: "on",
    });
    expect(waiting.status).toBe(200);
    expect(waiting.message).toBe("Guía corregida; el aviso de envío que aún no sale llevará la guía nueva");
    expect(await emailsOf(order.id, "envio")).toHaveLength(1);
    await delivered(order);

    const told = await desk(order.id, {
      intent: "corregir",
      carrier: "Otra",
      otherCarrier: "Mensajería del Valle",
      trackingNumber: "MV-2000",
      notify: "on",
    });
    expect(told.status).toBe(200);
    expect(told.message).toBe("Guía corregida; el aviso de envío se mandó de nuevo");
    const after = await state(order);
    expect(after.order?.carrier).toBe("Mensajería del Valle");
    expect(after.events).toEqual(["enviado", "guia_corregida", "guia_corregida", "guia_corregida"]);
    expect(await emailsOf(order.id, "envio")).toHaveLength(2);

    const empty = await desk(order.id, { intent: "corregir", carrier: "FedEx", trackingNumber: "" });
    expect(empty.status).toBe(400);
    expect(empty.message).toBe(INCOMPLETE);

    const pending = await paidOrder();
    const before = await state(pending);
    const early = await desk(pending.id, { intent: "corregir", ...shipment("GUIA-12345"), notify: "on" });
    expect(early.status).toBe(409);
    expect(early.message).toMatch(/^Error al corregir la guía/);
    expect(await state(pending)).toEqual(before);
  });

  it("'Archivar': a pending order is refused with 409, a shipped one moves to archivado", async () => {
    const pending = await paidOrder();
    const before = await state(pending);
    const refused = await desk(pending.id, { intent: "archivar" });
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/^Error al archivar el pedido/);
    expect(await state(pending)).toEqual(before);

    const shipped = await shippedOrder();
    const res = await desk(shipped.id, { intent: "archivar" });
    expect(res.status).toBe(200);
    expect(res.message).toBe("Pedido archivado");
    expect((await state(shipped)).order?.status).toBe("archivado");
    const twice = await desk(shipped.id, { intent: "archivar" });
    expect(twice.status).toBe(409);
  });

  it("'Marcar entregado': a shipped order once, a pending one refused with 409", async () => {
    const pending = await paidOrder();
    const refused = await desk(pending.id, { intent: "entregado" });
    expect(refused.status).toBe(409);
    const shipped = await shippedOrder();
    const res = await desk(shipped.id, { intent: "entregado" });
    expect(res.status).toBe(200);
    expect(res.message).toBe("Pedido marcado como entregado");
    const marked = await database.db
      .selectFrom("orders")
      .select("delivered_at")
      .where("id", "=", shipped.id)
      .executeTakeFirst();
    expect(marked?.delivered_at).not.toBeNull();
    expect((await desk(shipped.id, { intent: "entregado" })).status).toBe(409);
  });

  it("'Marcar entregados' on selected orders: the shipped ones not yet marked, and says how many", async () => {
    const [a, b, pending] = [await shippedOrder(), await shippedOrder(), await paidOrder()];
    await desk(a.id, { intent: "entregado" });
    const body = new URLSearchParams({ intent: "entregadolote" });
    for (const id of [a.id, b.id, pending.id]) body.append("pedido", id);
    const res = await fetch(`${server.url}/admin/orders`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url },
      body,
    });
    expect(res.status).toBe(200);
    expect(actionMessage(await res.text())).toBe(
      "1 pedido marcado como entregado (2 ya lo estaban o no se ha enviado)",
    );
    const rows = await database.db
      .selectFrom("orders")
      .select(["id", "delivered_at"])
      .where("id", "in", [b.id, pending.id])
      .execute();
    expect(rows.find((r) => r.id === b.id)?.delivered_at).not.toBeNull();
    expect(rows.find((r) => r.id === pending.id)?.delivered_at).toBeNull();
  });

  it("'Eliminar pedido' of a paid order cancels it with its refund and puts its pieces back; 'Borrar del historial' of an archived one keeps its record and leaves stock", async () => {
    const pending = await paidOrder("Renata Quiroga", 2);
    expect(await pending.stock()).toBe(3);
    const removed = await desk(pending.id, { intent: "eliminar" });
    expect(removed.status).toBe(200);
    expect(removed.message).toMatch(
      /^Pedido cancelado: se reembolsaron \$[\d,]+\.\d\d y sus piezas volvieron al inventario$/,
    );
    const cancelled = await state(pending);
    // Kept for the accounts, cancelled, its buyer told.
    expect(cancelled.order?.status).toBe("cancelado");
    expect(cancelled.stock).toBe(5);
    expect(cancelled.emails.map((e) => e.kind)).toContain("cancelacion");
    expect(cancelled.events).toEqual(["cancelado"]);
    // Its refund is made: there is none for the owner to record as made by hand.
    const byHand = await desk(pending.id, { intent: "reembolsado" });
    expect(byHand.status).toBe(409);
    expect(byHand.message).toBe("Este pedido no tiene un reembolso pendiente.");
    // Cancelled is cancelled: a second try refunds nothing and gives nothing back twice.
    const again = await desk(pending.id, { intent: "eliminar" });
    expect(again.status).toBe(409);
    expect(again.message).toBe(
      "Error al eliminar el pedido: el pedido ahora está «cancelado». Recarga la página para ver su estado.",
    );
    expect(await pending.stock()).toBe(5);
    expect(visibleText(await (await get("/admin/orders?estado=cancelado", cookie)).text())).toContain(
      pending.id,
    );

    const archived = await delivered(await archivedOrder());
    const erased = await desk(archived.id, { intent: "borrar" });
    expect(erased.status).toBe(200);
    expect(erased.message).toBe(
      "Pedido borrado del historial; su registro queda en «Borrados del historial»",
    );
    expect((await state(archived)).order?.status).toBe("archivado");
    expect(await archived.stock()).toBe(3);
    const kept = visibleText(await (await get("/admin/orders?estado=borrado", cookie)).text());
    expect(kept).toContain(archived.id);
    expect(visibleText(await (await get("/admin/orders?estado=archivado", cookie)).text())).not.toContain(
      archived.id,
    );

    // A shipped order whose notice has not reached the customer yet is kept: the notice would be lost.
    const unsent = await shippedOrder();
    const refusedWhileSending = await desk(unsent.id, { intent: "borrar" });
    expect(refusedWhileSending.status).toBe(409);
    expect(refusedWhileSending.message).toContain(
      "Error al borrar el pedido del historial: su aviso de envío todavía no le llega al cliente",
    );
    expect((await state(unsent)).order).not.toBeNull();

    // From the order's own page, back to the tab it was on, which says what happened.
    const shipped = await delivered(await shippedOrder());
    const back = await desk(shipped.id, {
      intent: "borrar",
      volver: "/admin/orders?estado=enviado&q=renata",
    });
    expect(back.status).toBe(302);
    expect(back.location).toBe("/admin/orders?estado=enviado&q=renata&aviso=borrado");
    expect((await state(shipped)).order?.status).toBe("enviado");
    expect(await shipped.stock()).toBe(3);
    const list = await get(back.location ?? "", cookie);
    expect(visibleText(await list.text())).toContain("Pedido borrado del historial; su registro queda");
    // Only pages of the admin area: anywhere else is ignored.
    const other = await delivered(await shippedOrder());
    const elsewhere = await desk(other.id, { intent: "borrar", volver: "https://evil.example/admin" });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.location).toBeNull();
  });

  it("'Reenviar' queues an e-mail of the order again; one that is not the order's is 404", async () => {
    const order = await delivered(await paidOrder());
    const [confirmation] = await emailsOf(order.id, "confirmacion");
    expect(confirmation).toBeDefined();
    const res = await desk(order.id, { intent: "reenviar", email: confirmation?.id ?? "" });
    expect(res.status).toBe(200);
    expect(res.message).toBe("Correo en camino de nuevo");
    expect((await state(order)).events).toEqual(["correo_reenviado"]);

    const other = await paidOrder();
    const before = await state(other);
    for (const email of [confirmation?.id ?? "", newId(), "no-es-un-id", ""]) {
      const wrong = await desk(other.id, { intent: "reenviar", email });
      expect(wrong.status, email).toBe(404);
      expect(wrong.message, email).toBe("Ese correo no existe.");
    }
    expect(await state(other)).toEqual(before);
  });

  it("an unknown or malformed order number is 404 for every action and page, never a server error", async () => {
    const unknown = "OL-ZZZZZZZZ";
    const ids = [
      unknown,
      "ol-zzzzzzzz",
      "nope",
      "OL-ZZZZZZZZZ",
      "OL-%27%3B%20drop%20table%20orders%3B--",
      "%00",
      "x".repeat(300),
    ];
    const intents: Record<string, string>[] = [
      { intent: "atender", ...shipment("GUIA-12345") },
      { intent: "corregir", ...shipment("GUIA-12345"), notify: "on" },
      { intent: "archivar" },
      { intent: "eliminar" },
      { intent: "borrar" },
      { intent: "reenviar", email: newId() },
    ];
    for (const id of ids) {
      for (const fields of intents) {
        const res = await desk(id, fields);
        expect(res.status, `${fields.intent} ${id.slice(0, 40)}`).toBe(404);
      }
      for (const page of [`/admin/orders/${id}`, `/admin/orders/${id}/imprimir`]) {
        expect((await get(page)).status, page.slice(0, 60)).toBe(404);
      }
    }
    expect((await desk(unknown, { intent: "atender", ...shipment("GUIA-12345") })).message).toBe(
      "Error al marcar como enviado: el pedido no existe.",
    );
    expect((await desk(unknown, { intent: "archivar" })).message).toBe(
      "Error al archivar el pedido: el pedido no existe.",
    );
  });

  it("an unknown intent, a malformed body or one that is not a form is 400, never a server error", async () => {
    const order = await paidOrder();
    const before = await state(order);
    const unknown: Record<string, string>[] = [
      { intent: "nada" },
      { intent: "" },
      {},
      { intent: "ATENDER", ...shipment("GUIA-1") },
    ];
    for (const fields of unknown) {
      const res = await desk(order.id, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.message).toBe("Acción desconocida.");
    }
    const bodies: { type: string; body: string }[] = [
      { type: "application/json", body: JSON.stringify({ intent: "eliminar" }) },
      { type: "multipart/form-data; boundary=limite", body: "esto no es multipart" },
      { type: "multipart/form-data", body: "--limite\r\n" },
      { type: "text/plain", body: "intent=eliminar" },
      { type: "application/octet-stream", body: "\u0000\u0001" },
    ];
    for (const { type, body } of bodies) {
      const res = await fetch(`${server.url}/admin/orders/${order.id}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, origin: server.url, "content-type": type },
        body,
      });
      const html = await res.text();
      expect(res.status, type).toBe(400);
      expect(actionMessage(html), type).toBe("Envía el formulario.");
    }
    expect(await state(order)).toEqual(before);
  });

  it("an order still waiting for payment is 404 on its pages and absent from every tab, search and export", async () => {
    const piece = await runningPiece(database, { stock: 5 });
    const waiting = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    expect((await get(`/admin/orders/${waiting.id}`)).status).toBe(404);
    expect((await get(`/admin/orders/${waiting.id}/imprimir`)).status).toBe(404);
    for (const tab of ["pendiente", "enviado", "archivado"]) {
      const list = await (await get(`/admin/orders?estado=${tab}`)).text();
      expect(list, tab).not.toContain(waiting.id);
      // The search box shows the number typed; no order card links to it.
      const search = await (await get(`/admin/orders?estado=${tab}&q=${waiting.id}`)).text();
      expect(search, tab).not.toContain(`href="/admin/orders/${waiting.id}"`);
      expect(search, tab).toContain("No hay pedidos en esta sección.");
      const csv = await (await get(`/admin/orders/exportar.csv?estado=${tab}`)).text();
      expect(csv, tab).not.toContain(waiting.id);
    }
    // Nor can the desk act on it.
    const res = await desk(waiting.id, { intent: "atender", ...shipment("GUIA-12345") });
    expect(res.status).toBe(404);
    const row = await database.db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", waiting.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("esperando_pago");
    expect(await piece.stock()).toBe(4);
  });

  it("the desk lists a paid order under pendiente with its customer, finds it by name, and counts it beside 'Pedidos'", async () => {
    const renata = await paidOrder("Renata Quiroga");
    const luz = await paidOrder("Luz Ramírez");
    const page = await get("/admin/orders");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const html = await page.text();
    expect(html).toContain(`href="/admin/orders/${renata.id}"`);
    expect(html).toContain("Renata Quiroga");
    expect(html).toContain("Luz Ramírez");

    const found = await (await get("/admin/orders?estado=pendiente&q=renata")).text();
    expect(found).toContain(renata.id);
    expect(found).toContain("Renata Quiroga");
    expect(found).not.toContain(luz.id);
    // Case and accents are ignored; the order number is searched too.
    const accentless = await (await get("/admin/orders?q=RAMIREZ")).text();
    expect(accentless).toContain(luz.id);
    expect(accentless).not.toContain(renata.id);
    const byNumber = await (await get(`/admin/orders?q=${renata.id.toLowerCase()}`)).text();
    expect(byNumber).toContain(renata.id);
    expect(byNumber).not.toContain(luz.id);
    // Shipped orders are in their own tab only.
    expect(await (await get("/admin/orders?estado=enviado&q=renata")).text()).not.toContain(renata.id);

    const pending = async () =>
      Number(
        (
          await database.db
            .selectFrom("orders")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("status", "=", "pendiente")
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await pending();
    expect(n).toBeGreaterThanOrEqual(2);
    expect(ordersMenuItem(html)).toMatch(new RegExp(`^Pedidos ${n}\\b`));
    // Shipping one takes it off the count, on every admin page.
    expect((await desk(luz.id, { intent: "atender", ...shipment("GUIA-54321") })).status).toBe(200);
    const drops = await (await get("/admin/drops")).text();
    expect(ordersMenuItem(drops)).toMatch(new RegExp(`^Pedidos ${n - 1}\\b`));
  });

  it("exports the tab as a CSV: text/csv, attachment, UTF-8 BOM, header row, the address in its own columns", async () => {
    const order = await paidOrder("Renata Quiroga", 2);
    const res = await get("/admin/orders/exportar.csv?estado=pendiente&q=renata");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="pedidos-pendiente-[\d-]+\.csv"$/,
    );
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    // Response.text() would drop the byte-order mark: read the bytes.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
    const [header, ...body] = rows;
    expect(header).toEqual([
      "Pedido",
      "Fecha",
      "Estatus",
      "Cliente",
      "Correo",
      "Teléfono",
      "Calle y número",
      "Colonia",
      "Ciudad",
      "Estado",
      "Código postal",
      "País",
      "Piezas",
      "Piezas (MXN)",
      "Envío",
      "Envío (MXN)",
      "Total (MXN)",
      "Paquetería",
      "Guía",
      "Problema de stock",
      "Reembolso (MXN)",
      "Piezas faltantes reembolsadas (MXN)",
      "Devoluciones reembolsadas (MXN)",
      "Borrado del historial",
    ]);
    const row = body.find((cells) => cells[0] === order.id);
    expect(row).toBeDefined();
    const cell = (name: string) => row?.[header?.indexOf(name) ?? -1];
    expect(cell("Estatus")).toBe("Pendiente");
    expect(cell("Cliente")).toBe("Renata Quiroga");
    expect(cell("Correo")).toBe(order.email);
    expect(cell("Teléfono")).toBe("951 123 4567");
    expect(cell("Calle y número")).toBe("Calle Macedonio Alcalá 401");
    expect(cell("Colonia")).toBe("Centro");
    expect(cell("Ciudad")).toBe("Oaxaca de Juárez");
    expect(cell("Estado")).toBe("Oaxaca");
    expect(cell("Código postal")).toBe("68000");
    expect(cell("País")).toBe("MX");
    expect(cell("Piezas")).toBe("Anillo Marea x 2");
    expect(cell("Total (MXN)")).toBe("9000.00");
    expect(row).toHaveLength(header?.length ?? 0);

    // Another tab's export leaves it out.
    const shipped = await (await get("/admin/orders/exportar.csv?estado=enviado&q=renata")).text();
    expect(shipped).not.toContain(order.id);
  });

  it("the order's page shows its details and timeline, and the packing slip what goes where", async () => {
    const order = await paidOrder("Renata Quiroga", 2);
    expect((await desk(order.id, { intent: "atender", ...shipment("EST-778899") })).status).toBe(200);
    const page = await get(`/admin/orders/${order.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const text = visibleText(await page.text());
    for (const expected of [
      `Pedido ${order.id}`,
      "Renata Quiroga",
      order.email,
      "Calle Macedonio Alcalá 401",
      "Anillo Marea",
      "EST-778899",
      "Historial",
      "Pedido creado",
      "Pago confirmado",
      "Enviado",
      "Aviso de envío",
      "Confirmación de pedido",
    ]) {
      expect(text).toContain(expected);
    }

    const slip = await get(`/admin/orders/${order.id}/imprimir`);
    expect(slip.status).toBe(200);
    const slipText = visibleText(await slip.text());
    for (const expected of [
      order.id,
      "Enviar a",
      "Renata Quiroga",
      "Calle Macedonio Alcalá 401",
      "Oaxaca de Juárez",
      "68000",
      "Anillo Marea",
      "Estafeta",
      "EST-778899",
    ]) {
      expect(slipText).toContain(expected);
    }
  });

  it("'Cancelados': an order paid over 'Máximo 1 por persona' shows with its reason and its refund, and no buttons", async () => {
    const piece = await runningPiece(database, { stock: 3, maxPerOrder: 1 });
    const email = `limite-${newId(8)}@example.com`;
    const pay = async () => {
      const held = await hold(database.db, {
        lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
        provider: "demo",
      });
      const outcome = await confirmPayment(database.db, {
        orderId: held.id,
        customerName: "Sofía Ruiz",
        customerEmail: email,
        shipping: oaxacaAddress("Sofía Ruiz", "951 123 4567"),
      });
      return { id: held.id, outcome };
    };
    expect((await pay()).outcome).toBe("paid");
    const over = await pay();
    expect(over.outcome).toBe("cancelled_over_limit");
    expect(await refundOrder(database.db, createDemoPayments(database.db), over.id)).toBe("reembolsado");

    const list = await get("/admin/orders?estado=cancelado");
    expect(list.status).toBe(200);
    const html = await list.text();
    const text = visibleText(html);
    expect(html).toContain(`href="/admin/orders/${over.id}"`);
    expect(text).toContain("Cancelados");
    expect(text).toContain("Cancelado por el máximo por persona: «Mareas» permite 1 por persona");
    expect(text).toContain("con el mismo correo");
    expect(text).toContain(`Reembolso de $4,500.00 MXN hecho`);
    expect(text).toContain(`demo_re_${over.id}`);
    expect(html).not.toContain('value="atender"');
    // Not among the pending orders; its own page shows the same.
    expect(await (await get("/admin/orders?estado=pendiente")).text()).not.toContain(
      `href="/admin/orders/${over.id}"`,
    );
    const detail = await get(`/admin/orders/${over.id}`);
    expect(detail.status).toBe(200);
    expect(visibleText(await detail.text())).toContain("Reembolso de $4,500.00 MXN hecho");
  });
});
