import fs from "node:fs";
import { authSettings } from "~/auth/auth-config.server";
import { loadConfig } from "~/config/env.server";
import { createOrderPageLinks, orderPagePath } from "~/orders/order-page-link.server";
import { E2E_DATA_DIR, E2E_PORT } from "./support/env";
import { expect, expectAccessible, test, untilHydrated } from "./support/fixtures";

/*
 * 'Requiero factura' (issue 27): from 'Mi pedido' the buyer asks for her CFDI; a bad RFC is refused
 * in Spanish beside its field, a good one is received; the owner sees it in 'Facturas' and in the
 * accountant's export (and not among the sales for the global invoice).
 */

/** 'Mi pedido''s signed address of an order, signed as every e-mail signs it. */
function orderPageOf(orderId: string): string {
  const config = loadConfig({
    DATA_DIR: E2E_DATA_DIR,
    PORT: String(E2E_PORT),
    SESSION_SECRET: process.env.SESSION_SECRET,
  });
  // A new order: its link generation is still 0.
  return orderPagePath(createOrderPageLinks(authSettings(config).secret), { id: orderId, linkVersion: 0 });
}

test("from 'Mi pedido' to 'Requiero factura': a bad RFC refused beside its field, a good one received and in the owner's export", async ({
  page,
  browser,
  shop,
  admins,
}) => {
  const { orderId } = await shop.paidOrder({ customerName: "Xochilt Casas" });
  await page.goto(orderPageOf(orderId));
  await expect(page.getByRole("heading", { name: `Pedido ${orderId}` })).toBeVisible();
  await expect(page.getByTestId("invoice-note")).toContainText(
    "¿Necesitas factura (CFDI)? Puedes pedirla hasta el",
  );
  await page.getByRole("link", { name: "Requiero factura" }).click();

  await expect(page.getByRole("heading", { name: "Requiero factura", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Correo para recibir la factura")).toHaveValue(/^cliente-.+@example\.mx$/);
  await expectAccessible(page);

  const rfc = page.getByLabel("RFC", { exact: true });
  await rfc.fill("CACX7605101P9");
  await page.getByLabel("Nombre o razón social").fill("Xochilt Casas Chávez");
  await page.getByLabel("Código postal fiscal").fill("36257");
  await page
    .getByLabel("Régimen fiscal")
    .selectOption({ label: "612 · Personas Físicas con Actividades Empresariales y Profesionales" });
  await page.getByLabel("Uso del CFDI").selectOption({ label: "G03 · Gastos en general" });
  await page.getByRole("button", { name: "Pedir mi factura" }).click();
  // Refused beside the RFC, in Spanish, and nothing sent.
  await expect(rfc).toHaveAttribute("aria-invalid", "true");
  await expect(rfc).toHaveAccessibleDescription(
    /Revisa tu RFC: el último carácter \(dígito verificador\) no corresponde/,
  );
  await expect(page.getByText("Recibimos tu solicitud de factura")).toHaveCount(0);
  await expectAccessible(page);

  // The generic RFC is refused too, with its own reason, on leaving the field (the page's code).
  await untilHydrated(rfc);
  await rfc.fill("XAXX010101000");
  await rfc.blur();
  await expect(rfc).toHaveAccessibleDescription(/RFC genérico/);

  await rfc.fill("cacx7605101p8");
  await page.getByRole("button", { name: "Pedir mi factura" }).click();
  await expect(page.getByRole("heading", { name: "Recibimos tu solicitud de factura" })).toBeVisible();
  await expect(page.getByTestId("invoice-received")).toContainText("XOCHILT CASAS CHÁVEZ");
  await expect(page.getByTestId("invoice-received")).toContainText("CACX7605101P8");
  await expectAccessible(page);

  // Back on 'Mi pedido', it says what she asked for.
  await page.getByRole("link", { name: "Volver a mi pedido" }).click();
  await expect(page.getByTestId("invoice-note")).toContainText("RFC CACX7605101P8");
  await expect(page.getByRole("link", { name: "Ver o corregir mi solicitud de factura" })).toBeVisible();

  const owner = await browser.newContext();
  try {
    const desk = await owner.newPage();
    await admins.login(desk);
    await desk.goto("/admin/orders");
    await desk
      .getByRole("navigation", { name: "Administración" })
      .getByRole("link", { name: "Facturas" })
      .click();
    await expect(desk.getByRole("heading", { name: "Facturas", level: 1 })).toBeVisible();
    const row = desk.getByTestId("invoice-request-row").filter({ hasText: orderId });
    await expect(row).toContainText("CACX7605101P8");
    await expect(row).toContainText("612 · Personas Físicas con Actividades Empresariales y Profesionales");
    await expect(row).toContainText("G03 · Gastos en general");
    await expectAccessible(desk);

    const [requests] = await Promise.all([
      desk.waitForEvent("download"),
      desk.getByRole("link", { name: "Exportar solicitudes (CSV)" }).click(),
    ]);
    expect(requests.suggestedFilename()).toMatch(/^solicitudes-de-factura-\d{4}-\d{2}\.csv$/);
    const requestsCsv = fs.readFileSync((await requests.path()) ?? "", "utf8");
    expect(requestsCsv).toContain(`"${orderId}"`);
    expect(requestsCsv).toContain('"CACX7605101P8","XOCHILT CASAS CHÁVEZ","36257"');

    const [global] = await Promise.all([
      desk.waitForEvent("download"),
      desk.getByRole("link", { name: "Exportar ventas sin factura (CSV)" }).click(),
    ]);
    const globalCsv = fs.readFileSync((await global.path()) ?? "", "utf8");
    expect(globalCsv).toContain("Total del mes");
    expect(globalCsv).not.toContain(orderId);
  } finally {
    await owner.close();
  }
});
