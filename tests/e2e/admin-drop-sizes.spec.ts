import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { publishDrop } from "~/drops-desk/publish.server";
import { newId } from "~/lib/ids";
import { holdCart } from "~/orders/holds.server";
import { expect, expectAccessible, test } from "./support/fixtures";

/*
 * The drop form's sizes as the owner uses them (issue 24): she creates a ring in sizes 5–8 with a
 * stock for each, and edits size 7's stock while a shopper holds one of it: the hold is kept and
 * the stock saved is the one left plus what she added.
 */

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function photo(): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sizes-e2e-")), "anillo.jpg");
  await sharp({ create: { width: 800, height: 800, channels: 3, background: "#c9a44c" } })
    .jpeg()
    .toFile(file);
  return file;
}

/** The first product's sizes on the drop form. */
class SizesUtil {
  constructor(private readonly page: Page) {}
  product(): Locator {
    return this.page.getByRole("group", { name: /^Producto 1/ });
  }
  /** The j-th size's row (0 first), whatever it says yet. */
  row(j: number): Locator {
    return this.product()
      .getByRole("group", { name: /^Talla .+ del producto 1$/ })
      .nth(j);
  }
  /** The row of the size that reads `value`. */
  size(value: string): Locator {
    return this.product().getByRole("group", { name: `Talla ${value} del producto 1` });
  }
  async fill(j: number, value: string, stock: string) {
    await this.row(j).getByLabel("Talla", { exact: true }).fill(value);
    await this.row(j).getByLabel("Piezas").fill(stock);
  }
}

// Also on a phone: the owner fixes a size's stock from it on drop day.
test.describe("the drops desk's sizes", { tag: "@phone" }, () => {
  test("the owner creates a ring in sizes 5–8 and edits size 7's stock while a shopper holds one: the hold is kept", async ({
    page,
    admins,
    database,
  }) => {
    const sizes = new SizesUtil(page);
    const name = `Tallas ${newId(4)}`;
    await admins.login(page);
    await page.goto("/admin/drops/new-drop");
    const drop = page.getByRole("group", { name: "La colección" });
    await drop.getByLabel("Nombre").fill(name);
    await drop.getByLabel("Inicio (fecha)").fill(inDays(-1));
    await drop.getByLabel("Inicio (hora)").fill("00:00");
    await drop.getByLabel("Fin (fecha)").fill(inDays(20));
    await drop.getByLabel("Fin (hora)").fill("22:00");

    const product = sizes.product();
    await product.getByLabel("Nombre").fill(`Anillo ${name}`);
    await product.getByLabel("Precio (MXN)").fill("4,800.00");
    await product.getByLabel("Categoría").selectOption("Anillo");
    await product.getByLabel("Material").selectOption("Oro rosa");
    await product.getByLabel(/^(Subir imagen|Cambiar)$/).setInputFiles(await photo());
    await expect(product.getByRole("img", { name: "Imagen principal del producto 1" })).toBeVisible();

    // Sizes: the stock is no longer typed but added up.
    await expect(product.getByLabel("Stock (piezas)")).toBeEditable();
    await product.getByLabel("Tallas o largos").selectOption("Talla");
    await expect(product.getByLabel("Stock (piezas)")).not.toBeEditable();
    await sizes.fill(0, "5", "1");
    const more: [string, string][] = [
      ["6", "2"],
      ["7", "3"],
      ["7", "4"],
    ];
    for (const [j, [value, stock]] of more.entries()) {
      await product.getByRole("button", { name: "Agregar talla" }).click();
      await sizes.fill(j + 1, value, stock);
    }
    await expect(product.getByLabel("Stock (piezas)")).toHaveValue("10");

    // Size 7 twice: refused in Spanish beside the second one, and nothing typed is lost.
    await page.getByRole("button", { name: "Crear colección" }).click();
    const twice = "La talla 7 está dos veces: escribe cada una una vez.";
    await expect(page.getByRole("alert")).toHaveText(twice);
    await expect(sizes.row(3).getByText(twice)).toBeVisible();
    await expect(sizes.row(3).getByLabel("Talla", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await sizes.row(3).getByLabel("Talla", { exact: true }).fill("8");
    await page.getByRole("button", { name: "Crear colección" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Drop creado exitosamente" })).toBeVisible();

    // Stored: each size with its stock, the ring's own stock their sum. The drop goes on sale.
    const { dropId, productId } = await database.db
      .selectFrom("products")
      .innerJoin("drops", "drops.id", "products.drop_id")
      .select(["drops.id as dropId", "products.id as productId"])
      .where("drops.name", "=", name)
      .executeTakeFirstOrThrow();
    const stored = async () => {
      const rows = await database.db
        .selectFrom("product_options")
        .select(["id", "value", "stock"])
        .where("product_id", "=", productId)
        .orderBy("position")
        .execute();
      const ring = await database.db
        .selectFrom("products")
        .select("stock")
        .where("id", "=", productId)
        .executeTakeFirstOrThrow();
      return { stock: ring.stock, sizes: rows };
    };
    const created = await stored();
    expect(created.stock).toBe(10);
    expect(created.sizes.map((s) => [s.value, s.stock])).toEqual([
      ["5", 1],
      ["6", 2],
      ["7", 3],
      ["8", 4],
    ]);
    await database.db.updateTable("drops").set({ status: "activa" }).where("id", "=", dropId).execute();
    // A new drop is a draft (decision 38): published, shoppers can hold its pieces.
    expect(await publishDrop(database.db, dropId, null)).toEqual({ ok: true });

    // The owner opens the drop to edit it: size 7 shows 3.
    await page.getByRole("article", { name }).getByRole("link", { name: "Editar" }).click();
    await expect(sizes.size("7").getByLabel("Piezas")).toHaveValue("3");
    await expect(product.getByLabel("Stock (piezas)")).toHaveValue("10");
    await expectAccessible(page);

    // Meanwhile a shopper's checkout holds one size 7.
    const seven = created.sizes.find((s) => s.value === "7");
    const held = await holdCart(database.db, {
      lines: [{ productId, dropId, quantity: 1, optionId: seven?.id }],
      provider: "demo",
    });
    if (!held.ok) throw new Error(held.message);

    // She saw 3 and types 5 (two more arrived) and saves: 2 left + 2 = 4.
    await sizes.size("7").getByLabel("Piezas").fill("5");
    await expect(product.getByLabel("Stock (piezas)")).toHaveValue("12");
    await page.getByRole("button", { name: "Guardar cambios" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Drop actualizado correctamente" }),
    ).toBeVisible();
    // The form opens again on what is stored: 4 of size 7, one of them held, 11 in all.
    await expect(sizes.size("7").getByLabel("Piezas")).toHaveValue("4");
    await expect(sizes.size("7")).toContainText("1 apartada en pagos sin terminar.");
    await expect(product.getByLabel("Stock (piezas)")).toHaveValue("11");

    const after = await stored();
    expect(after).toEqual({
      stock: 11,
      sizes: created.sizes.map((s) => ({ ...s, stock: s.value === "7" ? 4 : s.stock })),
    });
    const line = await database.db
      .selectFrom("order_lines")
      .innerJoin("orders", "orders.id", "order_lines.order_id")
      .select(["orders.status", "order_lines.option_id", "order_lines.option_value"])
      .where("orders.id", "=", held.id)
      .executeTakeFirstOrThrow();
    expect(line).toEqual({ status: "esperando_pago", option_id: seven?.id, option_value: "7" });
  });
});
