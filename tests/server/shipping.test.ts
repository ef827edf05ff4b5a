import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { formValues, settingsFromEnvironment } from "~/settings/settings";
import { readStoredSettings } from "~/settings/settings.server";
import { signInAdmin } from "../support/admin-http";
import { demoPayment, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";
import { settingsFormBody } from "../support/settings-form";

/*
 * Shipping rates over HTTP (decision 43): Configuración refuses bad rates with a Spanish 400 and
 * saves good ones; the demo payment page offers them, refuses an option it did not offer (400)
 * and records the one chosen with the order, its total the pieces plus it; Reportes says the
 * shipping collected apart from the sales of pieces.
 */
vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-shipping-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const ENV = { SHOP_NAME: "Oro de Envíos" };

describeEachDatabase("shipping rates over HTTP", (harness) => {
  let database: Database;
  let server: RunningServer;
  let cookie: string;

  beforeAll(async () => {
    database = await harness.fresh();
    server = await startServer({
      ...ENV,
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

  const post = (url: string, body: URLSearchParams, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${url}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, ...headers },
      body,
    });
  const settingsForm = (changes: Record<string, string>) =>
    settingsFormBody(formValues(settingsFromEnvironment(loadConfig(ENV).shop)), changes);

  it("Configuración refuses bad rates in Spanish (400, nothing saved) and saves good ones, which the demo page offers and the order keeps", async () => {
    const before = await readStoredSettings(database.db);
    const bad = await post(
      "/admin/settings",
      settingsForm({ shippingStandardCost: "150.50", shippingExpressDays: "mañana", shippingFreeFrom: "-3" }),
      { cookie },
    );
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain(
      "Envío estándar: escribe el costo en pesos, sin centavos, de 0 a 10,000 (0 es gratis).",
    );
    expect(html).toContain(
      "Envío express: escribe los días hábiles de entrega, de 1 a 30, p. ej. «3 a 7» o «5».",
    );
    expect(html).toContain("Envío gratis desde: escribe un total en pesos");
    expect(await readStoredSettings(database.db)).toEqual(before);
    // An emptied cost is asked for (0 is free), not saved as the first $150.
    const emptied = await post("/admin/settings", settingsForm({ shippingExpressCost: "" }), { cookie });
    expect(emptied.status).toBe(400);
    expect(await emptied.text()).toContain(
      "Envío express: escribe el costo en pesos, sin centavos, de 0 a 10,000 (0 es gratis).",
    );
    expect(await readStoredSettings(database.db)).toEqual(before);

    // Express at $420; standard never free.
    const good = await post(
      "/admin/settings",
      settingsForm({ shippingExpressCost: "$420", shippingFreeFrom: "" }),
      {
        cookie,
      },
    );
    expect(good.status).toBe(302);
    expect((await readStoredSettings(database.db)).overrides).toEqual({
      shippingExpressCost: 420,
      shippingFreeFrom: null,
    });

    const piece = await runningPiece(database, { stock: 2, priceCents: 450_000 });
    const started = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cart: [{ product: { id: piece.id }, dropId: piece.dropId, quantity: 1 }] }),
    });
    const { url } = (await started.json()) as { url: string };
    const orderId = url.split("/").pop() ?? "";
    // The settings reach the page within seconds (every server reads them again when they change).
    await expect
      .poll(async () => (await (await fetch(`${server.url}${url}`)).text()).includes("$420.00"), {
        timeout: 10_000,
      })
      .toBe(true);
    const page = await (await fetch(`${server.url}${url}`)).text();
    expect(page).toContain("Envío estándar (3 a 7 días hábiles)");
    expect(page).toContain("Total con envío <!-- -->$4,650.00");

    const row = () =>
      database.db
        .selectFrom("orders")
        .select(["status", "total_cents", "shipping_cents", "shipping_method", "shipping_label"])
        .where("id", "=", orderId)
        .executeTakeFirstOrThrow();
    const details = demoPayment("Ana Pérez", "ana@example.mx");
    const refused = await post(url, new URLSearchParams({ ...details, envio: "avion" }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Elige un envío de la lista.");
    expect(await row()).toMatchObject({ status: "esperando_pago", total_cents: 450_000, shipping_cents: 0 });

    const paid = await post(url, new URLSearchParams({ ...details, envio: "express" }));
    expect(paid.status).toBe(302);
    expect(await row()).toEqual({
      status: "pendiente",
      total_cents: 492_000,
      shipping_cents: 42_000,
      shipping_method: "express",
      shipping_label: "Envío express (1 a 2 días hábiles)",
    });

    // Reportes: sales of pieces, and the shipping collected apart.
    const report = await (await fetch(`${server.url}/admin/reports`, { headers: { cookie } })).text();
    expect(report.replace(/<!-- -->/g, "")).toContain(
      "Envíos cobrados:</strong> 1 pedido, $420.00. Aparte de las ventas netas, que son solo de piezas.",
    );
    // And in the CSV the accountant downloads, as the page says it.
    const csv = await (await fetch(`${server.url}/admin/reports.csv`, { headers: { cookie } })).text();
    expect(csv).toContain('"Pedidos con envío cobrado","1"');
    expect(csv).toContain('"Envíos cobrados (MXN, fuera de las ventas netas)","420.00"');
  });
});
