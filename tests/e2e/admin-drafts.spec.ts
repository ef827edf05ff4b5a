import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { newId } from "~/lib/ids";
import { expect, expectAccessible, test } from "./support/fixtures";

/* Drafts and publishing (issue 25, decision 38), as the owner and a shopper see them. */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "drafts-e2e-"));

async function photo(): Promise<string> {
  const file = path.join(tmp, "borrador.jpg");
  if (!fs.existsSync(file)) {
    await sharp({ create: { width: 800, height: 800, channels: 3, background: "#b08d57" } })
      .jpeg()
      .toFile(file);
  }
  return file;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A moment as the form's date and time fields take it, in Mexico City: ["2026-11-23", "14:05:07"]. */
function shopFields(at: Date): [string, string] {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: "America/Mexico_City",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return [`${parts.year}-${parts.month}-${parts.day}`, `${parts.hour}:${parts.minute}:${parts.second}`];
}

test.describe("drafts and publishing", () => {
  test("a new drop is a draft: absent for the public, shown in its preview; published from 'Visible desde' it appears by itself", async ({
    page,
    admins,
    browser,
  }) => {
    test.setTimeout(90_000);
    const name = `Alba ${newId(4)}`;
    await admins.login(page);
    await page.goto("/admin/drops/new-drop");
    const drop = page.getByRole("group", { name: "La colección" });
    await drop.getByLabel("Nombre").fill(name);
    await drop.getByLabel("Inicio (fecha)").fill(inDays(-1));
    await drop.getByLabel("Inicio (hora)").fill("00:00");
    await drop.getByLabel("Fin (fecha)").fill(inDays(20));
    await drop.getByLabel("Fin (hora)").fill("22:00");
    const product = page.getByRole("group", { name: /^Producto 1/ });
    await product.getByLabel("Nombre").fill(`Anillo ${name}`);
    await product.getByLabel("Precio (MXN)").fill("5200");
    await product.getByLabel("Stock (piezas)").fill("3");
    await product.getByLabel("Categoría").selectOption("Anillo");
    await product.getByLabel("Material").selectOption("Oro rosa");
    await product.getByLabel(/^(Subir imagen|Cambiar)$/).setInputFiles(await photo());
    await expect(product.getByRole("img", { name: "Imagen principal del producto 1" })).toBeVisible();
    await page.getByRole("button", { name: "Crear colección" }).click();

    // Listed under Próximas as 'Borrador', though its start has passed.
    await expect(page).toHaveURL(/\/admin\/drops\/show-upcoming-drops/);
    const row = page.getByRole("article", { name });
    await expect(row.getByText("Borrador", { exact: true })).toBeVisible();
    await expectAccessible(page);
    await row.getByRole("link", { name: "Editar" }).click();
    await expect(page.getByTestId("publication")).toHaveText(
      "Borrador: solo la ven los administradores y su vista previa.",
    );
    const editUrl = page.url();
    const dropId = editUrl.split("/").pop() ?? "";
    await expectAccessible(page);

    // The public: not on the home page, /colecciones or the sitemap; its address is a 404.
    const shopper = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const visitor = await shopper.newPage();
    await visitor.goto("/");
    await expect(visitor.getByRole("main")).not.toContainText(name);
    await visitor.goto("/colecciones");
    await expect(visitor.getByRole("main")).not.toContainText(name);
    expect(await (await visitor.request.get("/sitemap.xml")).text()).not.toContain(dropId);
    expect((await visitor.goto(`/coleccion/${dropId}`))?.status()).toBe(404);
    expect((await visitor.goto(`/coleccion/${dropId}?vista-previa=1`))?.status()).toBe(404);

    // The owner's preview: the drop's page as it will look, under a 'Vista previa' banner.
    await page.getByRole("link", { name: "Vista previa" }).click();
    await expect(page).toHaveURL(new RegExp(`/coleccion/${dropId}\\?vista-previa=1$`));
    await expect(page.getByRole("complementary", { name: "Vista previa" })).toContainText(
      "Es un borrador: el público todavía no ve esta colección.",
    );
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(`Anillo ${name}`) })).toBeVisible();
    await expectAccessible(page);
    // Ordering the preview keeps it a preview (a GET form replaces the whole query).
    await page.getByLabel("Ordenar").selectOption("Precio: menor a mayor");
    await expect(page).toHaveURL(/[?&]orden=precio-asc/);
    await expect(page).toHaveURL(/[?&]vista-previa=1/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(`Anillo ${name}`) })).toBeVisible();
    // So does a filter ticked on the open panel (a wide screen).
    await page.getByRole("form", { name: "Filtros" }).getByText("Anillos", { exact: true }).click();
    await expect(page).toHaveURL(/[?&]categoria=Anillo/);
    await expect(page).toHaveURL(/[?&]vista-previa=1/);
    await expect(page.getByRole("link", { name: new RegExp(`Anillo ${name}`) })).toBeVisible();

    // 'Publicar' from a moment a few seconds ahead (shop time, with seconds).
    await page.goto(editUrl);
    const moment = new Date(Math.ceil(Date.now() / 1000) * 1000 + 6_000);
    const [date, time] = shopFields(moment);
    await page.getByLabel("Visible desde (fecha)").fill(date);
    await page.getByLabel("Visible desde (hora)").fill(time);
    await page.getByRole("button", { name: "Publicar desde esa fecha" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Colección publicada: visible desde el" }),
    ).toBeVisible();
    await expect(page.getByTestId("publication")).toContainText("El público la verá desde el");

    // Nobody touches anything: once its moment passes, the shopper finds it on the home page.
    if (Date.now() < moment.getTime() - 1_000) {
      await visitor.goto("/");
      await expect(visitor.getByRole("main")).not.toContainText(name);
    }
    await expect(async () => {
      await visitor.goto("/");
      await expect(visitor.getByRole("main")).toContainText(name, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(moment.getTime());
    expect((await visitor.goto(`/coleccion/${dropId}`))?.status()).toBe(200);
    expect(await (await visitor.request.get("/sitemap.xml")).text()).toContain(dropId);
    await shopper.close();
  });

  test("a drop whose start passes moves to Activas by itself; an ended one stays there 'Finalizado' with 'Archivar'", async ({
    page,
    admins,
    shop,
  }) => {
    test.setTimeout(75_000);
    const opening = await shop.drop({
      timing: "upcoming",
      status: "proximamente",
      startAt: new Date(Date.now() + 5_000),
      endAt: new Date(Date.now() + 3_600_000),
      products: [{ name: `Arete ${newId(4)}`, priceCents: 300_000, stock: 2 }],
    });
    const ended = await shop.drop({
      timing: "ended",
      status: "activa",
      products: [{ name: `Collar ${newId(4)}`, priceCents: 300_000, stock: 2 }],
    });
    await admins.login(page);
    await page.goto("/admin/drops/show-upcoming-drops");
    await expect(page.getByRole("article", { name: opening.name }).getByText("Próximamente")).toBeVisible();

    // No save, no button: at its start it is listed under Activas.
    await expect(async () => {
      await page.goto("/admin/drops/show-active-drops");
      await expect(page.getByRole("article", { name: opening.name })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByRole("article", { name: opening.name }).getByText("Activo")).toBeVisible();
    await page.goto("/admin/drops/show-upcoming-drops");
    await expect(page.getByRole("article", { name: opening.name })).toHaveCount(0);

    // The ended one is under Activas, 'Finalizado', with 'Archivar' at hand.
    await page.goto("/admin/drops/show-active-drops");
    const old = page.getByRole("article", { name: ended.name });
    await expect(old.getByText("Finalizado")).toBeVisible();
    await expectAccessible(page);
    await old.getByRole("button", { name: "Archivar" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Colección archivada" })).toBeVisible();
    await expect(old).toHaveCount(0);
    await page.goto("/admin/drops/show-archive-drops");
    await expect(page.getByRole("article", { name: ended.name })).toBeVisible();
  });
});
