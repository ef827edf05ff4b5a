import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type Database, toTimestamp } from "~/db/database.server";
import { formatMXN } from "~/lib/money";
import { signInAdmin } from "../support/admin-http";
import { describeEachDatabase } from "../support/databases";
import { boughtOnDemoPage } from "../support/demo-purchase";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * 'Requiero factura' (issue 27) through HTTP: the page opens only from 'Mi pedido''s signature (a
 * changed signature or order number is a 404 with nothing of any order, and records nothing); a
 * bad RFC is a 400 with its Spanish message beside the field; a good request is received, 'Mi
 * pedido' says so, and the owner's 'Facturas' and its exports have it.
 */

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-invoice-request-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const GOOD = {
  rfc: "CACX7605101P8",
  nombre: "Xochilt Casas Chávez",
  codigoPostal: "36257",
  regimen: "612",
  uso: "G03",
  correo: "xochilt@example.mx",
};

describeEachDatabase("'Requiero factura' through HTTP", (harness) => {
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
      REQUEST_LIMITS: "false",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A piece bought on the demo payment page: its order number and its 'Mi pedido' signature. */
  async function bought(email: string): Promise<{ orderId: string; firma: string }> {
    const orderId = await boughtOnDemoPage(
      server,
      database,
      { name: "Anillo Fiscal", priceCents: 232_000 },
      { name: "Xochilt Casas", email },
    );
    const found = await fetch(`${server.url}/mi-pedido`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({ number: orderId, email }),
    });
    const firma = new URL(found.headers.get("location") ?? "", server.url).searchParams.get("firma") ?? "";
    expect(firma).not.toBe("");
    return { orderId, firma };
  }

  const post = (target: string, fields: Record<string, string>) =>
    fetch(`${server.url}${target}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams(fields),
    });

  const stored = (orderId: string) =>
    database.db.selectFrom("invoice_requests").selectAll().where("order_id", "=", orderId).executeTakeFirst();

  it("opens only from its order's signature: a changed one or another number is a 404 that shows nothing", async () => {
    const { orderId, firma } = await bought(`firma.${harness.dialect}@example.mx`);
    const other = await bought(`otra.${harness.dialect}@example.mx`);
    const page = await fetch(`${server.url}/mi-pedido/${orderId}/factura?firma=${firma}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const html = await page.text();
    const order = await database.db
      .selectFrom("orders")
      .select("total_cents")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    const total = formatMXN(order.total_cents);
    expect(html).toContain("Requiero factura");
    expect(html).toContain(total);
    expect(html).toContain(`firma.${harness.dialect}@example.mx`);

    const changed = `${firma.slice(0, -2)}${firma.endsWith("AA") ? "BB" : "AA"}`;
    for (const wrong of [
      `/mi-pedido/${other.orderId}/factura?firma=${firma}`,
      `/mi-pedido/${orderId}/factura?firma=${changed}`,
      `/mi-pedido/${orderId}/factura`,
      `/mi-pedido/OL-ZZZZZZZZ/factura?firma=${firma}`,
    ]) {
      const res = await fetch(`${server.url}${wrong}`);
      expect(res.status, wrong).toBe(404);
      const body = await res.text();
      expect(body, wrong).not.toContain("Anillo Fiscal");
      expect(body, wrong).not.toContain(total);
      expect(body, wrong).not.toContain("@example.mx");
      // A good request under a wrong signature records nothing either.
      const posted = await post(wrong, GOOD);
      expect(posted.status, wrong).toBe(404);
      expect(await posted.text(), wrong).not.toContain(total);
    }
    expect(await stored(orderId)).toBeUndefined();
    expect(await stored(other.orderId)).toBeUndefined();
  });

  it("a bad RFC is a 400 with its Spanish message beside the field; a good request is received and on 'Mi pedido'", async () => {
    const { orderId, firma } = await bought(`rfc.${harness.dialect}@example.mx`);
    const target = `/mi-pedido/${orderId}/factura?firma=${firma}`;
    const bad = await post(target, { ...GOOD, rfc: "CACX7605101P9" });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("el último carácter (dígito verificador) no corresponde");
    // The message is the RFC field's description.
    const input = /<input[^>]*name="rfc"[^>]*>/.exec(badHtml)?.[0] ?? "";
    const describedBy = /aria-describedby="([^"]+)"/.exec(input)?.[1] ?? "";
    const errorId = describedBy.split(" ")[0] ?? "";
    expect(input).toContain('aria-invalid="true"');
    expect(badHtml).toMatch(new RegExp(`id="${errorId}"[^>]*>Revisa tu RFC: el último carácter`));
    const generic = await post(target, { ...GOOD, rfc: "XAXX010101000", codigoPostal: "123" });
    expect(generic.status).toBe(400);
    const genericHtml = await generic.text();
    expect(genericHtml).toContain("RFC genérico");
    expect(genericHtml).toContain("El código postal tiene 5 números");
    expect(await stored(orderId)).toBeUndefined();
    // Not a form at all: still a 4xx.
    const garbage = await fetch(`${server.url}${target}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: "{",
    });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);

    const good = await post(target, { ...GOOD, rfc: "cacx-760510-1p8" });
    expect(good.status).toBe(303);
    const location = good.headers.get("location") ?? "";
    expect(location).toBe(`${target}&aviso=recibida`);
    const received = await (await fetch(`${server.url}${location}`)).text();
    expect(received).toContain("Recibimos tu solicitud de factura");
    expect(received).toContain("XOCHILT CASAS CHÁVEZ");
    expect(await stored(orderId)).toMatchObject({ rfc: "CACX7605101P8", regimen: "612", uso: "G03" });

    // Her acknowledgement, with the signed page to correct it.
    const outbox = path.join(tmp, harness.dialect, "outbox");
    let message = "";
    await expect
      .poll(
        () => {
          const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
          message =
            files
              .map((f) =>
                fs
                  .readFileSync(path.join(outbox, f), "utf8")
                  .replace(/=\r?\n/g, "")
                  .replace(/=3D/g, "="),
              )
              .find((m) => m.includes(`solicitud de factura del pedido ${orderId}`)) ?? "";
          return message !== "";
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    expect(message).toContain("RFC: CACX7605101P8");
    expect(message).toContain(`/mi-pedido/${orderId}/factura?firma=${firma}`);

    const orderPage = await (await fetch(`${server.url}/mi-pedido/${orderId}?firma=${firma}`)).text();
    expect(orderPage).toContain("Ver o corregir mi solicitud de factura");
    expect(orderPage).toContain(`/mi-pedido/${orderId}/factura?firma=${firma}`);
    expect(orderPage).toContain("RFC CACX7605101P8");

    // Sent again at once (each sends an e-mail and asks the provider): a Spanish 429, nothing changed.
    const again = await post(target, { ...GOOD, nombre: "Otra Persona" });
    expect(again.status).toBe(429);
    expect(await again.text()).toContain("Espera un minuto antes de volver a corregirlos.");
    expect(await stored(orderId)).toMatchObject({ rfc: "CACX7605101P8", name: "XOCHILT CASAS CHÁVEZ" });
  });

  it("an order cancelled after her request: the page says no factura will be stamped, not that it will", async () => {
    const email = `cancelada.${harness.dialect}@example.mx`;
    const { orderId, firma } = await bought(email);
    const target = `/mi-pedido/${orderId}/factura?firma=${firma}`;
    expect((await post(target, GOOD)).status).toBe(303);
    await database.db.updateTable("orders").set({ status: "cancelado" }).where("id", "=", orderId).execute();
    const page = await (await fetch(`${server.url}${target}`)).text();
    expect(page).toContain("Ya pediste tu factura");
    expect(page).toContain("no hay una venta que facturar");
    expect(page).toContain("Con estos datos no se timbrará ninguna factura.");
    expect(page).not.toContain("Timbramos tu CFDI");
  });

  it("after the month of the payment: the page says why, and a request is a 409 that records nothing", async () => {
    const { orderId, firma } = await bought(`tarde.${harness.dialect}@example.mx`);
    await database.db
      .updateTable("orders")
      .set({ paid_at: toTimestamp(new Date("2025-01-15T18:00:00Z")) })
      .where("id", "=", orderId)
      .execute();
    const target = `/mi-pedido/${orderId}/factura?firma=${firma}`;
    const page = await (await fetch(`${server.url}${target}`)).text();
    expect(page).toContain("Tu compra se pagó en enero de 2025");
    expect(page).not.toContain("Pedir mi factura");
    const late = await post(target, GOOD);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("factura global del mes");
    expect(await stored(orderId)).toBeUndefined();
    const orderPage = await (await fetch(`${server.url}/mi-pedido/${orderId}?firma=${firma}`)).text();
    expect(orderPage).toContain("El plazo para pedir factura terminó");
    expect(orderPage).not.toContain("Requiero factura</a>");
  });

  it("the owner's 'Facturas' lists it; the exports hold it (requests) and leave it out (global invoice)", async () => {
    const asked = await bought(`pide.${harness.dialect}@example.mx`);
    const unasked = await bought(`no-pide.${harness.dialect}@example.mx`);
    expect(
      (
        await post(`/mi-pedido/${asked.orderId}/factura?firma=${asked.firma}`, {
          ...GOOD,
          rfc: "EKU9003173C9",
          nombre: "Escuela Kemper Urgate SA de CV",
          regimen: "601",
        })
      ).status,
    ).toBe(303);
    const get = (pathname: string, headers: Record<string, string> = { cookie }) =>
      fetch(`${server.url}${pathname}`, { redirect: "manual", headers });
    const page = await get("/admin/facturas");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(asked.orderId);
    expect(html).toContain("ESCUELA KEMPER URGATE");
    expect(html).toContain("601 · General de Ley Personas Morales");

    const requests = await get("/admin/facturas/solicitudes.csv");
    expect(requests.status).toBe(200);
    expect(requests.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(requests.headers.get("content-disposition")).toMatch(
      /^attachment; filename="solicitudes-de-factura-\d{4}-\d{2}\.csv"$/,
    );
    const requestsCsv = await requests.text();
    expect(requestsCsv).toContain(`"${asked.orderId}"`);
    expect(requestsCsv).toContain('"EKU9003173C9","ESCUELA KEMPER URGATE"');
    expect(requestsCsv).not.toContain(unasked.orderId);
    const global = await (await get("/admin/facturas/global.csv")).text();
    expect(global).toContain(`"${unasked.orderId}"`);
    expect(global).not.toContain(asked.orderId);

    // Signed out: 401, not the sign-in page; a month that cannot be read: a Spanish 400.
    expect((await get("/admin/facturas/global.csv", {})).status).toBe(401);
    const badMonth = await get("/admin/facturas/solicitudes.csv?mes=2026-13");
    expect(badMonth.status).toBe(400);
    expect(await badMonth.text()).toContain("Mes no válido");
    expect((await get("/admin/facturas?mes=ayer")).status).toBe(400);
  });
});
