import fs from "node:fs";
import path from "node:path";
import { createAdminAuth } from "~/auth/auth.server";
import { authSettings } from "~/auth/auth-config.server";
import { loadConfig } from "~/config/env.server";
import { type Database, openDatabase } from "~/db/database.server";
import { type RunningServer, startServer } from "../support/server-process";
import { AdminUtil, expect, expectAccessible, test } from "./support/fixtures";

/*
 * The set-up checklist as the owner meets it after signing in (issue 25). Editing the privacy
 * notice changes a legal page of the shop it runs on, so this spec runs its own app server (a
 * fresh SQLite file, no demo catalogue, one per project): the other specs, on the suite's server,
 * keep reading the model texts.
 */
const ENV = {
  DEMO_DATA: "false",
  DEMO_PAYMENTS: "true",
  SESSION_SECRET: "e2e-checklist-secret-0123456789abcdef",
};
const LEGAL = ["/aviso-de-privacidad", "/envios", "/cambios-y-devoluciones", "/terminos-y-condiciones"];

test.describe("the set-up checklist", () => {
  let server: RunningServer;
  let database: Database;
  let admins: AdminUtil;
  let dataDir: string;

  test.beforeAll(async ({ browserName: _ }, info) => {
    dataDir = path.resolve(`.tmp/e2e-checklist-${info.project.name}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    const env = { ...ENV, DATA_DIR: dataDir };
    server = await startServer(env);
    database = await openDatabase({ kind: "sqlite", file: path.join(dataDir, "shop.db") });
    admins = new AdminUtil(
      createAdminAuth(database, {
        ...authSettings(loadConfig({ ...env, ENV_FILE: "" })),
        quickPasswordHashes: server.quickPasswordHashes,
      }),
    );
  });
  test.afterAll(async () => {
    await database?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("lists the model legal texts, the outbox and the demo payments; editing the privacy notice removes its item @phone", async ({
    page,
  }) => {
    await admins.login(page);
    // The owner's first page after signing in.
    await page.goto(`${server.url}/admin`);
    await expect(page).toHaveURL(`${server.url}/admin/orders`);
    const checklist = page.getByRole("region", { name: /^Antes de vender: faltan \d+ pasos/ });
    await expect(checklist).toBeVisible();
    const item = (title: string) => checklist.getByRole("listitem").filter({ hasText: title });
    for (const label of [
      "Aviso de privacidad",
      "Envíos",
      "Cambios y devoluciones",
      "Términos y condiciones",
    ]) {
      await expect(item(`«${label}» sigue con el texto modelo`)).toBeVisible();
      await expect(
        item(`«${label}» sigue con el texto modelo`).getByRole("link", {
          name: `Editar «${label}» en Configuración`,
        }),
      ).toBeVisible();
    }
    await expect(item("Los correos se guardan en la bandeja de salida")).toContainText(
      "tus clientes no reciben la confirmación de su compra",
    );
    await expect(item("Los correos se guardan en la bandeja de salida")).toContainText("SMTP_URL");
    await expect(item("Los pagos son de demostración")).toContainText("STRIPE_SECRET_KEY");
    await expect(item("Los datos de la tienda siguen siendo los de demostración")).toBeVisible();
    // The orders desk is still the page's own: its heading follows the checklist.
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page);

    // Shoppers read the model texts with nothing of the model in them.
    for (const pathname of LEGAL) {
      await page.goto(`${server.url}${pathname}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByText(/Texto modelo|\[Dueño/)).toHaveCount(0);
    }

    // From the item to the field, in Configuración.
    await page.goto(`${server.url}/admin/orders`);
    await item("«Aviso de privacidad» sigue con el texto modelo")
      .getByRole("link", { name: "Editar «Aviso de privacidad» en Configuración" })
      .click();
    await expect(page).toHaveURL(`${server.url}/admin/settings#aviso-de-privacidad`);
    const privacy = page.getByLabel("Aviso de privacidad", { exact: true });
    await expect(privacy).toHaveValue(/\[Dueño de la tienda: agrega aquí tu nombre o razón social/);
    // Elsewhere the checklist is folded to its one line: the section comes first.
    await expect(page.getByRole("region", { name: /^Antes de vender/ }).getByRole("listitem")).toHaveCount(0);
    await privacy.fill(
      "## Responsable de tus datos\n\nJoyería Alba, S. A. de C. V., con domicilio en Calle Luna 1, Guadalajara, Jalisco, es responsable de tus datos personales.",
    );
    await page.getByRole("button", { name: "Guardar configuración" }).click();
    await expect(page.getByRole("status")).toHaveText(/^Configuración guardada/);

    await page.goto(`${server.url}/admin/orders`);
    await expect(checklist).toBeVisible();
    await expect(item("«Aviso de privacidad»")).toHaveCount(0);
    for (const label of ["Envíos", "Cambios y devoluciones", "Términos y condiciones"]) {
      await expect(item(`«${label}» sigue con el texto modelo`)).toBeVisible();
    }
    await expectAccessible(page);
    await page.goto(`${server.url}/aviso-de-privacidad`);
    await expect(
      page.getByText(/^Joyería Alba, S\. A\. de C\. V\., con domicilio en Calle Luna 1/),
    ).toBeVisible();
  });
});
