import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { archiveOrder, shipOrder } from "~/orders/desk.server";
import { confirmPayment } from "~/orders/payment.server";
import { postOrderDesk, signInAdmin } from "../support/admin-http";
import { oaxacaAddress, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";
import { visibleText } from "../support/page-text";
import { type RunningServer, startServer } from "../support/server-process";

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-buyer-correction-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The correction form, filled in as the buyer's WhatsApp message says. */
function corrected(name: string, email: string, changes: Record<string, string> = {}) {
  const { phone, line1, line2, postalCode, city, state } = oaxacaAddress(name, "951 123 4567");
  return { intent: "comprador", name, email, phone, line1, line2, postalCode, city, state, ...changes };
}

describeEachDatabase("correcting a buyer's data through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let cookie = "";

  beforeAll(async () => {
    database = await harness.fresh();
    server = await startServer({
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A paid order (pendiente), shipped to Oaxaca. */
  async function paidOrder(name = "Renata Quiroga") {
    const piece = await runningPiece(database, { stock: 5 });
    const held = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    const email = `cliente-${newId(8)}@example.com`;
    expect(
      await confirmPayment(database.db, {
        orderId: held.id,
        customerName: name,
        customerEmail: email,
        shipping: oaxacaAddress(name, "951 123 4567"),
      }),
    ).toBe("paid");
    return { id: held.id, email, name };
  }

  async function buyerOf(orderId: string) {
    return database.db
      .selectFrom("orders")
      .select(["status", "customer_name", "customer_email", "ship_line1", "ship_postal_code", "ship_phone"])
      .where("id", "=", orderId)
      .executeTakeFirst();
  }

  async function events(orderId: string) {
    return database.db
      .selectFrom("order_events")
      .select(["kind", "detail"])
      .where("order_id", "=", orderId)
      .execute();
  }

  const get = (pathname: string, withCookie = cookie) =>
    fetch(`${server.url}${pathname}`, {
      redirect: "manual",
      headers: withCookie ? { cookie: withCookie } : {},
    });

  /** Posts the form as a browser does without JavaScript; the answer is the order's page. */
  const post = (orderId: string, fields: Record<string, string>, withCookie = cookie) =>
    postOrderDesk(server, orderId, fields, withCookie);

  it("a pending order offers the form with its data; posted, 200 and the new address on its page, its packing slip and its Historial", async () => {
    const order = await paidOrder();
    const page = await (await get(`/admin/orders/${order.id}`)).text();
    expect(visibleText(page)).toContain("Corregir datos del comprador");
    expect(page).toContain(`value="${order.email}"`);
    expect(page).toContain('value="Calle Macedonio Alcalá 401"');

    const res = await post(
      order.id,
      corrected(order.name, order.email, { line1: "Calle Macedonio Alcalá 410", postalCode: "68050" }),
    );
    expect(res.status).toBe(200);
    expect(res.message).toBe("Datos del comprador corregidos: Calle y número, Código postal.");
    expect(await buyerOf(order.id)).toMatchObject({
      status: "pendiente",
      ship_line1: "Calle Macedonio Alcalá 410",
      ship_postal_code: "68050",
    });

    for (const html of [res.html, await (await get(`/admin/orders/${order.id}`)).text()]) {
      const text = visibleText(html);
      expect(text).toContain("Calle Macedonio Alcalá 410");
      expect(text).toContain("68050 Oaxaca de Juárez, Oaxaca");
      expect(text).not.toContain("Calle Macedonio Alcalá 401");
      expect(text).toContain("Datos del comprador corregidos Calle y número, Código postal");
    }
    const slip = visibleText(await (await get(`/admin/orders/${order.id}/imprimir`)).text());
    expect(slip).toContain("Calle Macedonio Alcalá 410");
    expect(slip).not.toContain("Calle Macedonio Alcalá 401");
    expect(await events(order.id)).toEqual([
      { kind: "datos_corregidos", detail: "Calle y número, Código postal" },
    ]);
  });

  it("a corrected e-mail: the answer and the Historial say where the messages already sent went", async () => {
    const order = await paidOrder("Inés Quiroga");
    await database.db
      .updateTable("emails")
      .set({ sent_at: new Date().toISOString() })
      .where("order_id", "=", order.id)
      .execute();
    const res = await post(order.id, corrected(order.name, "ines.quiroga@example.com"));
    expect(res.status).toBe(200);
    expect(res.message).toBe(
      "Datos del comprador corregidos: Correo electrónico. Los correos que ya salieron fueron a la dirección anterior y no se mandan solos de nuevo: en el Historial, 'Reenviar' manda una copia a la nueva.",
    );
    const text = visibleText(await (await get(`/admin/orders/${order.id}`)).text());
    expect(text).toContain(`Enviado a ${order.email} (dirección anterior)`);
    expect(text).toContain("ines.quiroga@example.com");
    const emails = await database.db
      .selectFrom("emails")
      .select("recipient")
      .where("order_id", "=", order.id)
      .execute();
    expect(emails).toEqual([{ recipient: order.email }]);
  });

  it("bad input: 400 with its Spanish message beside its field, nothing changed", async () => {
    const order = await paidOrder();
    const before = await buyerOf(order.id);
    const res = await post(order.id, corrected(order.name, order.email, { postalCode: "6805" }));
    expect(res.status).toBe(400);
    expect(res.message).toBe("El código postal tiene 5 dígitos.");
    expect(res.html).toMatch(/<input[^>]*id="buyer-postalCode"[^>]*aria-invalid="true"/);
    expect(res.html).toContain('id="buyer-postalCode-error"');
    expect(visibleText(res.html)).toContain("El código postal tiene 5 dígitos.");

    const several = await post(order.id, corrected("", "no-es-correo", { phone: "12", line1: "" }));
    expect(several.status).toBe(400);
    expect(several.message).toBe("Escribe el nombre completo.");
    for (const message of [
      "Escribe un correo válido.",
      "Escribe un teléfono de 10 dígitos.",
      "Escribe la calle y el número.",
    ])
      expect(visibleText(several.html)).toContain(message);
    const control = await post(order.id, corrected(order.name, order.email, { city: "Oaxaca\u0000" }));
    expect(control.status).toBe(400);
    expect(control.message).toBe("El texto contiene caracteres no permitidos.");
    expect(await buyerOf(order.id)).toEqual(before);
    expect(await events(order.id)).toEqual([]);
  });

  it("a shipped or archived order: no form, and a post is a 409 that says why, nothing changed; an unpaid one is not found", async () => {
    const shipped = await paidOrder("Óscar Enviado");
    expect(
      await shipOrder(database.db, shipped.id, { carrier: "Estafeta", trackingNumber: "EST-0001" }),
    ).toEqual({
      ok: true,
    });
    const archived = await paidOrder("Eva Archivada");
    await shipOrder(database.db, archived.id, { carrier: "Estafeta", trackingNumber: "EST-0002" });
    expect(await archiveOrder(database.db, archived.id)).toEqual({ ok: true });

    for (const [order, label] of [
      [shipped, "enviado"],
      [archived, "archivado"],
    ] as const) {
      expect(visibleText(await (await get(`/admin/orders/${order.id}`)).text())).not.toContain(
        "Corregir datos del comprador",
      );
      const before = await buyerOf(order.id);
      const res = await post(order.id, corrected(order.name, order.email, { line1: "Calle Alcalá 410" }));
      expect(res.status, label).toBe(409);
      expect(res.message).toBe(
        `Los datos del comprador solo se corrigen antes de enviar el pedido, y este ahora está «${label}». Recarga la página para ver su estado.`,
      );
      expect(await buyerOf(order.id)).toEqual(before);
    }

    const piece = await runningPiece(database, { stock: 5 });
    const unpaid = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    const res = await post(unpaid.id, corrected("Nadie", "nadie@example.com"));
    expect(res.status).toBe(404);
    expect(await events(unpaid.id)).toEqual([]);
  });

  it("signed out: 401 and nothing changes", async () => {
    const order = await paidOrder();
    const before = await buyerOf(order.id);
    const res = await post(order.id, corrected(order.name, order.email, { line1: "Calle Alcalá 410" }), "");
    expect(res.status).toBe(401);
    expect(await buyerOf(order.id)).toEqual(before);
  });
});
