import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  holdRouteScript,
  type ShopData,
  test,
  untilHydrated,
} from "./support/fixtures";

const pieces = [
  { name: "Anillo Alba", priceCents: 450_000, stock: 2, categoria: "Anillo" as const },
  { name: "Anillo Brasa", priceCents: 120_000, stock: 2, categoria: "Anillo" as const },
  { name: "Collar Cima", priceCents: 300_000, stock: 2, categoria: "Collar" as const },
  { name: "Anillo Duna", priceCents: 980_000, stock: 2, categoria: "Anillo" as const },
  { name: "Arete Eco", priceCents: 60_000, stock: 2, categoria: "Arete" as const },
];

const collection = (shop: ShopData) => shop.drop({ timing: "running", products: pieces });

/** The tiles as the shopper reads them: name and price (in pesos), top to bottom. */
async function tiles(page: Page) {
  return page.getByRole("article").evaluateAll((articles) =>
    articles.map((a) => ({
      name: a.querySelector("h3")?.textContent ?? "",
      price: Number((a.querySelector("h3 + p")?.textContent ?? "").replace(/[$,]/g, "")),
    })),
  );
}

test.describe("on a 360 px phone", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) > 400, "phone layout");

  test("the first piece shows on the first screen; 'Filtrar' opens a sheet that filters, counts and closes", async ({
    page,
    shop,
  }) => {
    const drop = await collection(shop);
    await page.goto(drop.href);
    const sheet = page.getByRole("dialog", { name: "Filtros" });
    const filtrar = page.getByRole("button", { name: "Filtrar", exact: true });
    await expect(filtrar).toBeVisible();
    await expect(sheet).toBeHidden();
    await untilHydrated(filtrar);
    const first = await page.getByRole("article").first().boundingBox();
    test.info().annotations.push({ type: "first tile top (px)", description: String(first?.y) });
    expect(first?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(740);
    await expectAccessible(page);

    // Opens as a modal: focus inside, the page behind does not scroll.
    await filtrar.click();
    await expect(sheet).toBeVisible();
    await expect(page.getByRole("button", { name: "Cerrar filtros" })).toBeFocused();
    expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
    await page.mouse.move(180, 40);
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expectAccessible(page);

    // Escape closes it, without applying what was ticked, and focus returns to the button.
    await sheet.getByText("Collares", { exact: true }).click();
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(filtrar).toBeFocused();
    await expect(page.getByRole("article")).toHaveCount(5);

    // One filter applied: only rings, and the button counts it.
    await filtrar.click();
    await expect(sheet.getByRole("checkbox", { name: "Collares" })).not.toBeChecked();
    await sheet.getByText("Anillos", { exact: true }).click();
    await sheet.getByRole("button", { name: "Aplicar" }).click();
    await expect(sheet).toBeHidden();
    await expect(page).toHaveURL(/categoria=Anillo/);
    await expect(page.getByRole("article")).toHaveCount(3);
    expect((await tiles(page)).every((t) => t.name.startsWith("Anillo"))).toBe(true);
    await expect(page.getByRole("button", { name: "Filtrar (1)" })).toBeVisible();

    // Sorted by price, cheapest first, the filter kept.
    await page.getByLabel("Ordenar").selectOption({ label: "Precio: menor a mayor" });
    await expect(page).toHaveURL(/categoria=Anillo.*orden=precio-asc/);
    await expect
      .poll(async () => (await tiles(page)).map((t) => t.name))
      .toEqual(["Anillo Brasa", "Anillo Alba", "Anillo Duna"]);
    expect((await tiles(page)).map((t) => t.price)).toEqual([1_200, 4_500, 9_800]);

    // 'Quitar filtros' brings every piece back and keeps the order.
    await page.getByRole("link", { name: "Quitar filtros" }).click();
    await expect(page.getByRole("article")).toHaveCount(5);
    await expect(page).toHaveURL(/\?orden=precio-asc$/);
    await expect(filtrar).toBeVisible();
    expect((await tiles(page)).map((t) => t.price)).toEqual([600, 1_200, 3_000, 4_500, 9_800]);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the sheet's form still filters, through the address", async ({ page, shop }) => {
      const drop = await collection(shop);
      await page.goto(`${drop.href}?orden=precio-desc`);
      // The fallback 'Ordenar' button must not widen the page.
      await expectNoSidewaysScroll(page);
      await page.getByRole("button", { name: "Filtrar", exact: true }).click();
      const sheet = page.getByRole("dialog", { name: "Filtros" });
      await sheet.getByText("Anillos", { exact: true }).click();
      await sheet.getByRole("button", { name: "Aplicar" }).click();
      await expect(page).toHaveURL(/categoria=Anillo&orden=precio-desc/);
      await expect(page.getByRole("button", { name: "Filtrar (1)" })).toBeVisible();
      expect((await tiles(page)).map((t) => t.price)).toEqual([9_800, 4_500, 1_200]);
    });
  });
});

test.describe("on a desktop", () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) < 1024, "desktop layout");

  test("the filters stay open beside the order and apply at once; no 'Filtrar' button", async ({
    page,
    shop,
  }) => {
    const drop = await collection(shop);
    // Tracking parameters and an unknown order are ignored (and share the clean view's cache entry).
    // An order picked and a box ticked before the page's code has run (a slow machine, their
    // buttons not pressed) both apply once it runs.
    const release = await holdRouteScript(page, "collection");
    await page.goto(`${drop.href}?orden=barato&utm_source=instagram`, { waitUntil: "commit" });
    await expect(page.getByRole("article")).toHaveCount(5);
    const panel = page.getByRole("form", { name: "Filtros" });
    await expect(panel.getByRole("group", { name: "Categoría" })).toBeVisible();
    await page.getByLabel("Ordenar").selectOption({ label: "Precio: mayor a menor" });
    await panel.getByText("Anillos", { exact: true }).click();
    release();
    await untilHydrated(page.getByLabel("Ordenar"));
    await expect(page).toHaveURL(/categoria=Anillo&orden=precio-desc/);
    await expect(page.getByRole("button", { name: /^Filtrar/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^(Ordenar|Aplicar filtros)$/ })).toHaveCount(0);
    await expect(page.getByRole("article")).toHaveCount(3);
    expect((await tiles(page)).map((t) => t.price)).toEqual([9_800, 4_500, 1_200]);
    await expect(page.getByText("3 piezas")).toBeVisible();
    await expectAccessible(page);

    // Once the code runs, each change applies at once.
    await panel.getByText("Anillos", { exact: true }).click();
    await expect(page).toHaveURL(/\?orden=precio-desc$/);
    await expect(page.getByRole("article")).toHaveCount(5);
  });
});
