import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { createAdminAuth } from "~/auth/auth.server";
import { authSettings } from "~/auth/auth-config.server";
import { loadConfig } from "~/config/env.server";
import { type Database, openDatabase } from "~/db/database.server";
import { type RunningServer, startServer } from "../support/server-process";
import { AdminUtil, expect, expectAccessible, test, untilHydrated } from "./support/fixtures";

/*
 * Configuración as the owner uses it. Renaming the shop changes every page of the shop it runs
 * on, so this spec runs its own two app servers on one database (a fresh SQLite file, no demo
 * catalogue), as behind a load balancer: the other specs, running beside it on the suite's
 * server, keep reading 'Oro de Luna'.
 */
const DATA_DIR = path.resolve(".tmp/e2e-settings");
const ENV = {
  DATA_DIR,
  DEMO_DATA: "false",
  DEMO_PAYMENTS: "true",
  SESSION_SECRET: "e2e-settings-secret-0123456789abcdef",
};

test.describe("Configuración", () => {
  // One pair of app servers on one database for both tests, one after the other.
  test.describe.configure({ mode: "serial" });
  let server: RunningServer;
  /** Another app server on the same database: it learns of a save by itself, within seconds. */
  let other: RunningServer;
  let database: Database;
  let admins: AdminUtil;

  test.beforeAll(async ({ browserName: _ }, info) => {
    // Once, on desktop: the form is the owner's, and the footer is the same on a phone.
    test.skip(info.project.name !== "desktop", "runs once, on desktop");
    fs.rmSync(DATA_DIR, { recursive: true, force: true });
    [server, other] = await Promise.all([startServer(ENV), startServer(ENV)]);
    database = await openDatabase({ kind: "sqlite", file: path.join(DATA_DIR, "shop.db") });
    admins = new AdminUtil(
      createAdminAuth(database, {
        ...authSettings(loadConfig({ ...ENV, ENV_FILE: "" })),
        quickPasswordHashes: server.quickPasswordHashes,
      }),
    );
  });
  test.afterAll(async () => {
    await database?.close();
    await Promise.all([server?.stop(), other?.stop()]);
    fs.rmSync(DATA_DIR, { recursive: true, force: true });
  });

  test("a new brand name and WhatsApp number show in the shop's footer; a bad address is refused in Spanish beside its field", async ({
    page,
  }) => {
    await admins.login(page);
    // The other server has the old name in its page cache.
    await page.goto(`${other.url}/`);
    await expect(page.getByRole("contentinfo")).toContainText("Oro de Luna. Todos los derechos reservados.");
    await page.goto(`${server.url}/admin/settings`);
    await expect(page.getByRole("heading", { name: "Configuración", level: 1 })).toBeVisible();
    const name = page.getByLabel("Nombre de la tienda", { exact: true });
    await expect(name).toHaveValue("Oro de Luna");

    await name.fill("Luna Nueva Joyería");
    await page.getByLabel("WhatsApp", { exact: true }).fill("+52 1 55 9876 5432");
    await page.getByRole("button", { name: "Guardar configuración" }).click();
    await expect(page.getByRole("status")).toHaveText(/^Configuración guardada/);
    // Stored as digits only, and offered back to the environment's value.
    await expect(page.getByLabel("WhatsApp", { exact: true })).toHaveValue("5215598765432");
    await expect(page.getByRole("button", { name: "Restablecer Nombre de la tienda" })).toBeVisible();
    // 'Restablecer' applies alone and reloads the stored values: with other changes typed, it asks first.
    await page.getByLabel("WhatsApp", { exact: true }).fill("5215500000000");
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "Restablecer Nombre de la tienda" }).click();
    expect(asked).toEqual([expect.stringContaining("Tienes cambios sin guardar")]);
    await expect(page.getByLabel("WhatsApp", { exact: true })).toHaveValue("5215500000000");
    await expect(page.getByLabel("Nombre de la tienda", { exact: true })).toHaveValue("Luna Nueva Joyería");

    const footer = page.getByRole("contentinfo");
    await page.goto(`${server.url}/`);
    await expect(footer).toContainText("Luna Nueva Joyería. Todos los derechos reservados.");
    await expect(footer.getByRole("link", { name: "WhatsApp +5215598765432" })).toHaveAttribute(
      "href",
      "https://wa.me/5215598765432",
    );
    // The other app server shows it too, within seconds and without a restart.
    const saved = Date.now();
    await expect(async () => {
      await page.goto(`${other.url}/`);
      await expect(footer).toContainText("Luna Nueva Joyería. Todos los derechos reservados.", {
        timeout: 500,
      });
    }).toPass({ timeout: 10_000 });
    await expect(footer.getByRole("link", { name: "WhatsApp +5215598765432" })).toHaveAttribute(
      "href",
      "https://wa.me/5215598765432",
    );
    expect(Date.now() - saved).toBeLessThan(10_000);

    // A web address that is not http(s): refused beside its field, what was typed stays.
    await page.goto(`${server.url}/admin/settings`);
    await page.getByLabel("Nombre de la tienda", { exact: true }).fill("Nombre a medias");
    const agency = page.getByLabel("Sitio de la agencia", { exact: true });
    await agency.fill("ftp://agencia.example");
    await page.getByRole("button", { name: "Guardar configuración" }).click();
    await expect(agency).toHaveAttribute("aria-invalid", "true");
    await expect(agency).toHaveAccessibleDescription(
      /^Sitio de la agencia: escribe una dirección web completa que empiece con https:\/\//,
    );
    await expect(page.getByLabel("Nombre de la tienda", { exact: true })).toHaveValue("Nombre a medias");
    await expect(agency).toHaveValue("ftp://agencia.example");
    await expectAccessible(page);

    // Nothing of it was saved.
    await page.goto(`${server.url}/`);
    await expect(page.getByRole("contentinfo")).toContainText("Luna Nueva Joyería.");

    // 'Restablecer' still applies with a field left invalid on the page (it reads only its own).
    await page.goto(`${server.url}/admin/settings`);
    await page.getByLabel("Sitio de la agencia", { exact: true }).fill("ftp://agencia.example");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Restablecer Nombre de la tienda" }).click();
    await expect(page.getByLabel("Nombre de la tienda", { exact: true })).toHaveValue("Oro de Luna");
  });

  test("the hero's title, text and an uploaded photo edited in 'Tienda en línea' show on the other server's home", async ({
    page,
  }) => {
    await admins.login(page);
    await page.goto(`${server.url}/admin/settings`);
    const story = page.getByRole("group", { name: "Tienda en línea" });
    await story.getByLabel("Título de la portada", { exact: true }).fill("Oro para todos los días");
    await story.getByLabel("Texto de la portada", { exact: true }).fill("Piezas pequeñas, hechas a mano.");
    const file = path.join(DATA_DIR, "portada.jpg");
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#c9a44c" } })
      .jpeg()
      .toFile(file);
    // While the photo uploads, the page cannot be saved (it would keep the old photo).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/admin/media", async (route) => {
      await held;
      await route.continue();
    });
    // A file is taken by the page's code (which the desk waits for: it is disabled until then).
    await untilHydrated(story.getByLabel("Subir imagen", { exact: true }));
    await story.getByLabel("Subir imagen", { exact: true }).setInputFiles(file);
    await expect(page.getByRole("button", { name: "Guardar configuración" })).toBeDisabled();
    await expect(page.getByText("Espera a que terminen de subir las fotos.")).toBeVisible();
    release();
    // The preview of the uploaded photo, and what it shows, asked at once.
    await expect(story.getByRole("img", { name: "Imagen de la portada" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Guardar configuración" })).toBeEnabled();
    await story.getByLabel("Qué muestra la foto (imagen de la portada)").fill("Un anillo sobre lino");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Guardar configuración" }).click();
    await expect(page.getByRole("status")).toHaveText(/^Configuración guardada/);
    await expect(story.getByRole("img", { name: "Imagen de la portada" })).toBeVisible();

    // The other app server's home, within seconds, without a restart.
    await expect(async () => {
      await page.goto(`${other.url}/`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oro para todos los días", {
        timeout: 500,
      });
    }).toPass({ timeout: 10_000 });
    await expect(page.getByText("Piezas pequeñas, hechas a mano.")).toBeVisible();
    const hero = page.getByRole("img", { name: "Un anillo sobre lino" });
    await expect(hero).toHaveAttribute("srcset", /\.webp 480w/);
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expectAccessible(page);
  });
});
