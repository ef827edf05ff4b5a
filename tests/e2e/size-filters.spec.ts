import { expect, expectAccessible, test } from "./support/fixtures";

/*
 * The collection's 'Talla' filter (issue 24), on a phone (in the 'Filtrar' sheet) and on a desktop
 * (in the open panel): the group lists the sizes the collection's rings come in, smallest first,
 * and a size chosen keeps the rings that come in it; with 'Solo disponibles', the ones with that
 * size left.
 */

const ring = (name: string, sizes: Record<string, number>) => ({
  name,
  priceCents: 450_000,
  stock: Object.values(sizes).reduce((a, b) => a + b, 0),
  option: {
    name: "Talla" as const,
    values: Object.entries(sizes).map(([value, stock]) => ({ value, stock })),
  },
});

test("a collection with sized rings filters by 'Talla'", async ({ page, shop, viewport }) => {
  const phone = (viewport?.width ?? 0) < 1024;
  const drop = await shop.drop({
    timing: "running",
    products: [
      ring("Anillo Marea", { "8": 1, "6.5": 1, "7": 0 }),
      ring("Anillo Ola", { "7": 2 }),
      { name: "Collar Cima", priceCents: 300_000, stock: 2, categoria: "Collar" },
    ],
  });
  await page.goto(drop.href);
  await expect(page.getByRole("article")).toHaveCount(3);
  const filters = phone
    ? page.getByRole("dialog", { name: "Filtros" })
    : page.getByRole("form", { name: "Filtros" });
  if (phone) await page.getByRole("button", { name: "Filtrar", exact: true }).click();
  const talla = filters.getByRole("group", { name: "Talla" });
  await expect(talla).toBeVisible();
  await expect(talla.getByRole("checkbox")).toHaveCount(3);
  expect(await talla.locator("label").allTextContents()).toEqual(["6.5", "7", "8"]);
  await expectAccessible(page);

  await talla.getByText("7", { exact: true }).click();
  if (phone) await filters.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(/\?talla=7$/);
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(page.getByRole("article", { name: "Collar Cima" })).toHaveCount(0);

  // Only where size 7 itself is left: Anillo Marea's 7 is sold out.
  if (phone) await page.getByRole("button", { name: "Filtrar (1)" }).click();
  await filters.getByText("Solo disponibles").click();
  if (phone) await filters.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(/talla=7&disponibles=1/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(page.getByRole("article", { name: "Anillo Ola" })).toBeVisible();
});

test("a collection without sized pieces has no 'Talla' group", async ({ page, shop, viewport }) => {
  const drop = await shop.drop({
    timing: "running",
    products: [{ name: "Collar Cima", priceCents: 300_000, stock: 2, categoria: "Collar" }],
  });
  await page.goto(drop.href);
  if ((viewport?.width ?? 0) < 1024) await page.getByRole("button", { name: "Filtrar", exact: true }).click();
  await expect(page.getByRole("group", { name: "Categoría" }).first()).toBeVisible();
  await expect(page.getByRole("group", { name: "Talla" })).toHaveCount(0);
});
