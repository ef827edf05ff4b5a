import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { newId } from "~/lib/ids";
import { E2E_DATA_DIR } from "./support/env";
import { expect, expectAccessible, test, untilHydrated } from "./support/fixtures";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "drops-e2e-"));

/** A real photo on disk (a coloured square), as the owner would pick it. */
async function photo(name: string, colour: string): Promise<string> {
  const file = path.join(tmp, name);
  if (!fs.existsSync(file)) {
    await sharp({ create: { width: 1200, height: 1200, channels: 3, background: colour } })
      .jpeg()
      .toFile(file);
  }
  return file;
}

/** The drops desk's create and edit form, as the owner fills it. */
class DropFormUtil {
  constructor(private readonly page: Page) {}
  section(): Locator {
    return this.page.getByRole("group", { name: "La colección" });
  }
  product(n: number): Locator {
    return this.page.getByRole("group", { name: new RegExp(`^Producto ${n}`) });
  }
  async fillDrop(values: { name: string; start: [string, string]; end: [string, string] }) {
    const s = this.section();
    await s.getByLabel("Nombre").fill(values.name);
    await s.getByLabel("Inicio (fecha)").fill(values.start[0]);
    await s.getByLabel("Inicio (hora)").fill(values.start[1]);
    await s.getByLabel("Fin (fecha)").fill(values.end[0]);
    await s.getByLabel("Fin (hora)").fill(values.end[1]);
    await s.getByLabel("Descripción corta").fill(`Colección ${values.name} hecha a mano.`);
  }
  async dropImage(file: string) {
    await this.section()
      .getByLabel(/^(Subir imagen|Cambiar)$/)
      .first()
      .setInputFiles(file);
  }
  async fillProduct(n: number, values: { name: string; price: string; stock: string }) {
    const p = this.product(n);
    await p.getByLabel("Nombre").fill(values.name);
    await p.getByLabel("Precio (MXN)").fill(values.price);
    await p.getByLabel("Stock (piezas)").fill(values.stock);
    await p.getByLabel("Categoría").selectOption("Anillo");
    await p.getByLabel("Material").selectOption("Oro rosa");
  }
  async productImage(n: number, file: string) {
    await this.product(n)
      .getByLabel(/^(Subir imagen|Cambiar)$/)
      .setInputFiles(file);
    await expect(
      this.product(n).getByRole("img", { name: `Imagen principal del producto ${n}` }),
    ).toBeVisible();
  }
  async save(label: "Crear colección" | "Guardar cambios") {
    await this.page.getByRole("button", { name: label }).click();
  }
  /** On the edit page: a new drop is a draft until 'Publicar' (decision 38). */
  async publishNow() {
    await this.page.getByRole("button", { name: "Publicar ahora" }).click();
    await expect(this.page.getByRole("status").filter({ hasText: "Colección publicada." })).toBeVisible();
  }
}

const inDays = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return d.toISOString().slice(0, 10);
};

test.describe("the drops desk", () => {
  test("create with a product missing its main image is refused; with it the drop is created, listed and public", async ({
    page,
    admins,
  }) => {
    const form = new DropFormUtil(page);
    const name = `Bruma ${newId(4)}`;
    await admins.login(page);
    await page.goto("/admin/drops/new-drop");
    await expect(page.getByRole("link", { name: "Crear Colección" })).toHaveAttribute("aria-current", "page");
    await form.fillDrop({ name, start: [inDays(10), "10:00"], end: [inDays(20), "22:00"] });
    await form.dropImage(await photo("portada.jpg", "#c9a36b"));
    await expect(form.section().getByRole("img", { name: "Imagen de la colección" })).toBeVisible();
    await form.fillProduct(1, { name: `Anillo ${name}`, price: "4,500.00", stock: "3" });
    await form.productImage(1, await photo("anillo.jpg", "#b07a4a"));
    // What the photo shows starts as the product's name.
    await expect(form.product(1).getByLabel(/^Qué muestra la foto/)).toHaveValue(`Anillo ${name}`);
    await page.getByRole("button", { name: "Agregar producto" }).click();
    await form.fillProduct(2, { name: `Arete ${name}`, price: "2500", stock: "2" });

    await form.save("Crear colección");
    await expect(
      page.getByRole("alert").filter({ hasText: "Producto 2 no tiene imagen principal" }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/drops\/new-drop$/);
    // What was typed is still there.
    await expect(form.product(2).getByLabel("Nombre")).toHaveValue(`Arete ${name}`);
    // The error named the product by its place: once the list is reordered it no longer stands
    // under a product (it would be under the wrong one); the alert above still says it.
    const said = page.getByText("Producto 2 no tiene imagen principal");
    await expect(said).toHaveCount(2);
    await page.getByRole("button", { name: "Subir producto 2" }).click();
    await expect(said).toHaveCount(1);
    await page.getByRole("button", { name: "Bajar producto 1" }).click();
    await expect(form.product(2).getByLabel("Nombre")).toHaveValue(`Arete ${name}`);

    await form.productImage(2, await photo("arete.jpg", "#8a6218"));
    await form.save("Crear colección");
    await expect(page.getByRole("status").filter({ hasText: "Drop creado exitosamente" })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/drops\/show-upcoming-drops/);
    await expect(page.getByRole("article", { name })).toBeVisible();
    await expect(page.getByRole("article", { name }).getByText("Borrador")).toBeVisible();
    await page.getByRole("article", { name }).getByRole("link", { name: "Editar" }).click();
    await form.publishNow();

    await page.goto("/colecciones");
    const card = page.getByRole("article").filter({ hasText: name });
    await expect(card).toBeVisible();
    await expect(card.locator("img").first()).toHaveJSProperty("complete", true);
    expect(
      await card
        .locator("img")
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
  });

  test("editing dates and status to running sells the piece; replacing the drop image deletes the old file", async ({
    page,
    admins,
    shop,
  }) => {
    const form = new DropFormUtil(page);
    const name = `Marea ${newId(4)}`;
    await admins.login(page);
    await page.goto("/admin/drops/new-drop");
    await form.fillDrop({ name, start: [inDays(10), "10:00"], end: [inDays(20), "22:00"] });
    await form.dropImage(await photo("portada-1.jpg", "#d4b483"));
    await form.fillProduct(1, { name: `Collar ${name}`, price: "9800", stock: "4" });
    await form.productImage(1, await photo("collar.jpg", "#9c6b3c"));
    await form.save("Crear colección");
    await expect(page.getByText("Drop creado exitosamente")).toBeVisible();
    await page.getByRole("article", { name }).getByRole("link", { name: "Editar" }).click();
    await expect(page).toHaveURL(/\/admin\/drops\/edit-drop\//);
    const dropId = page.url().split("/").pop() ?? "";
    const oldCover = await form
      .section()
      .getByRole("img", { name: "Imagen de la colección" })
      .getAttribute("src");
    const oldFiles = fs.readdirSync(path.join(E2E_DATA_DIR, "media", "drops", dropId));

    await form
      .product(1)
      .getByLabel(/^Qué muestra la foto/)
      .fill("Collar de oro rosa con dije de ola");
    await form.section().getByLabel("Inicio (fecha)").fill(inDays(-1));
    await form.section().getByLabel("Estado").selectOption("activa");
    await form.dropImage(await photo("portada-2.jpg", "#5b3a1e"));
    await expect(form.section().getByRole("img", { name: "Imagen de la colección" })).not.toHaveAttribute(
      "src",
      oldCover ?? "",
    );
    await form.save("Guardar cambios");
    await expect(
      page.getByRole("status").filter({ hasText: "Drop actualizado correctamente" }),
    ).toBeVisible();
    // The form is rebuilt after a save: focus goes to what happened, not lost to the page's top.
    await expect(
      page.getByRole("status").filter({ hasText: "Drop actualizado correctamente" }),
    ).toBeFocused();

    // The replaced cover's files are gone from disk; the new ones are there.
    const oldCoverFile = path.basename(oldCover ?? "");
    const now = fs.readdirSync(path.join(E2E_DATA_DIR, "media", "drops", dropId));
    expect(oldFiles).toContain(oldCoverFile);
    expect(now).not.toContain(oldCoverFile);

    await form.publishNow();
    const productId = (await shop.productsOf(dropId))[0] ?? "";
    await page.goto(`/drop/${dropId}/product/${productId}`);
    await expect(page.getByRole("button", { name: "Agregar al carrito" })).toBeEnabled();
    await expect(page.getByRole("img", { name: "Collar de oro rosa con dije de ola" })).toBeVisible();
  });

  test("a text file named like a photo is refused with 'Error al subir la imagen' and nothing is stored", async ({
    page,
    admins,
  }) => {
    const fake = path.join(tmp, "foto.jpg");
    fs.writeFileSync(fake, "esto es texto, no una foto");
    await admins.login(page);
    await page.goto("/admin/drops/new-drop");
    const form = new DropFormUtil(page);
    // A file is taken by the page's code (which the desk waits for: it is disabled until then).
    await untilHydrated(form.product(1).getByLabel("Subir imagen"));
    await form.product(1).getByLabel("Subir imagen").setInputFiles(fake);
    await expect(form.product(1).getByRole("alert")).toContainText("Error al subir la imagen");
    await expect(form.product(1).getByRole("img")).toHaveCount(0);
  });

  test("an unknown drop to edit says 'Drop no encontrado.' and goes back to /admin/drops", async ({
    page,
    admins,
  }) => {
    await admins.login(page);
    await page.goto("/admin/drops/edit-drop/zzzzzzzzzzzzzzzz");
    await expect(page).toHaveURL(/\/admin\/drops\?aviso=no-encontrado$/);
    await expect(page.getByRole("alert")).toHaveText("Drop no encontrado.");
  });

  test("deleting a drop after confirming removes it from the admin and the public pages", async ({
    page,
    admins,
    shop,
  }) => {
    const drop = await shop.drop({
      timing: "running",
      products: [{ name: `Pulsera ${newId(4)}`, priceCents: 300_000, stock: 2 }],
    });
    await admins.login(page);
    await page.goto("/admin/drops/show-active-drops");
    const row = page.getByRole("article", { name: drop.name });
    await row.getByRole("button", { name: "Eliminar" }).click();
    const confirm = page.getByRole("alertdialog", { name: new RegExp(drop.name) });
    await expect(confirm).toContainText("no se puede deshacer");
    await confirm.getByRole("button", { name: "Eliminar colección" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Colección eliminada" })).toBeVisible();
    await expect(row).toHaveCount(0);
    const res = await page.goto(drop.href);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Drop no encontrado" })).toBeVisible();
  });
});

test.describe("the metal's facts", () => {
  test("the owner enters karat, weight and stones; a bad weight is refused in Spanish; the product page shows them", async ({
    page,
    admins,
    shop,
  }) => {
    const form = new DropFormUtil(page);
    const name = `Oro ${newId(4)}`;
    await admins.login(page);
    await page.goto("/admin/drops/new-drop");
    await form.fillDrop({ name, start: [inDays(-1), "00:00"], end: [inDays(20), "22:00"] });
    await form.fillProduct(1, { name: `Anillo ${name}`, price: "4,800.00", stock: "3" });
    await form.productImage(1, await photo("anillo-oro.jpg", "#c9a44c"));
    const product = form.product(1);
    // 'Quilates' starts with nothing chosen ('—'): the facts are optional.
    await expect(product.getByLabel("Quilates")).toHaveValue("");
    await product.getByLabel("Quilates").selectOption({ label: "14 k" });
    await product.getByLabel("Peso (g)").fill("2.355");
    await product.getByLabel("Piedras").fill("Zirconia blanca");
    await form.save("Crear colección");
    await expect(product.getByText("Escribe el peso en gramos, por ejemplo 2.35.")).toBeVisible();
    await expect(product.getByLabel("Peso (g)")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/admin\/drops\/new-drop$/);

    await product.getByLabel("Peso (g)").fill("2.35");
    await form.save("Crear colección");
    await expect(page.getByRole("status").filter({ hasText: "Drop creado exitosamente" })).toBeVisible();

    // Shown again when editing; made public.
    await page.getByRole("article", { name }).getByRole("link", { name: "Editar" }).click();
    await expect(form.product(1).getByLabel("Quilates")).toHaveValue("14");
    await expect(form.product(1).getByLabel("Peso (g)")).toHaveValue("2.35");
    await expect(form.product(1).getByLabel("Piedras")).toHaveValue("Zirconia blanca");
    await form.section().getByLabel("Estado").selectOption("activa");
    await form.save("Guardar cambios");
    await expect(
      page.getByRole("status").filter({ hasText: "Drop actualizado correctamente" }),
    ).toBeVisible();

    await form.publishNow();
    const dropId = page.url().split("/").pop() ?? "";
    const productId = (await shop.productsOf(dropId))[0] ?? "";
    await page.goto(`/drop/${dropId}/product/${productId}`);
    const facts = page.getByTestId("metal-facts");
    await expect(facts).toBeVisible();
    await expect(facts.locator("dt")).toHaveText(["Metal", "Peso", "Piedras"]);
    await expect(facts.locator("dd")).toHaveText(["Oro de 14 k (585)", "2.35 g", "Zirconia blanca"]);
    await expect(page.getByRole("button", { name: "Agregar al carrito" })).toBeEnabled();
    await expectAccessible(page);
  });
});

// Also on a phone: the owner checks her drops from it on drop day.
test.describe("the drops desk is accessible and fits the screen", { tag: "@phone" }, () => {
  test("the lists and the create form", async ({ page, admins }) => {
    await admins.login(page);
    await page.goto("/admin/drops/show-upcoming-drops");
    await expectAccessible(page);
    await page.goto("/admin/drops/new-drop");
    await expectAccessible(page);
  });
});
