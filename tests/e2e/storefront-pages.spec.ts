import { BRAND } from "~/content/brand";
import { yearOf } from "~/lib/dates";
import { expect, expectAccessible, test } from "./support/fixtures";

test.describe("every public page renders, in Spanish, without accessibility problems", () => {
  test("home: hero, drops, process, brand, countdown to the running drop", async ({ page, shop }) => {
    const drop = await shop.drop({
      timing: "running",
      products: [{ name: "Anillo Portada", priceCents: 250_000, stock: 3 }],
    });
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: drop.name, exact: true })).toBeVisible();
    // Each drop's link says which collection it opens (a screen reader's list of links).
    await expect(page.getByRole("link", { name: `Ver colección ${drop.name}`, exact: true })).toHaveAttribute(
      "href",
      drop.href,
    );
    await expect(page.getByRole("heading", { name: "Hecho a mano, paso a paso" })).toBeVisible();
    const countdown = page.getByRole("link", { name: /termina en/ });
    await expect(countdown).toBeVisible();
    await expectAccessible(page);
  });

  test("/colecciones groups collections by year", async ({ page, shop }) => {
    const drop = await shop.drop({
      timing: "ended",
      products: [{ name: "Pulsera Archivo", priceCents: 150_000, stock: 1 }],
    });
    await page.goto("/colecciones");
    await expect(page.getByRole("heading", { name: "Colecciones", level: 1 })).toBeVisible();
    // The page groups by the year in Mexico City (on 1 January before 06:00 UTC, still last year).
    const year = String(yearOf(new Date()));
    const group = page.getByRole("region", { name: year });
    await expect(group.getByRole("heading", { name: drop.name })).toBeVisible();
    await expect(group.getByRole("link", { name: `Ver colección ${drop.name}` })).toHaveAttribute(
      "href",
      drop.href,
    );
    await expectAccessible(page);
  });

  test("/coleccion/{id}: name, description, filters and products", async ({ page, shop }) => {
    const drop = await shop.drop({
      timing: "running",
      products: [{ name: "Collar Rejilla", priceCents: 880_000, stock: 2 }],
    });
    await page.goto(drop.href);
    await expect(page.getByRole("heading", { name: drop.name, level: 1 })).toBeVisible();
    await expect(page.getByText(`Descripción de ${drop.name}`)).toBeVisible();
    // Phones keep the filters behind 'Filtrar'; wide screens show them open.
    const phone = (page.viewportSize()?.width ?? 0) < 1024;
    await expect(
      phone ? page.getByRole("button", { name: "Filtrar" }) : page.getByRole("group", { name: "Categoría" }),
    ).toBeVisible();
    await expect(page.getByRole("article", { name: "Collar Rejilla" })).toBeVisible();
    await expectAccessible(page);
  });

  test("/nosotros: story, timeline, before and after, process video", async ({ page }) => {
    await page.goto("/nosotros");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("region", { name: /historia/i }).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Antes y después", level: 2 })).toBeVisible();
    // The captions under each pair of photos, not the section heading that contains both words.
    await expect(page.getByText("Antes", { exact: true }).first()).toBeVisible();
    await expect(page.getByText("Después", { exact: true }).first()).toBeVisible();
    const process = page.getByRole("region", { name: "Así hacemos cada pieza" });
    await expect(process.getByRole("heading", { name: "Así hacemos cada pieza", level: 2 })).toBeVisible();
    await expect(process.getByRole("listitem")).toHaveCount(BRAND.process.length);
    await expectAccessible(page);
  });

  test("product page: gallery, stock, price, description, quantity and back link", async ({ page, shop }) => {
    const drop = await shop.drop({
      timing: "running",
      products: [
        {
          name: "Arracadas Brisa",
          priceCents: 1_250_000,
          stock: 4,
          categoria: "Arete",
          material: "Oro rosa",
        },
      ],
    });
    const product = drop.products[0];
    if (!product) throw new Error("no product");
    await page.goto(product.href);
    await expect(page.getByRole("heading", { name: "Arracadas Brisa", level: 1 })).toBeVisible();
    await expect(page.getByText("$12,500.00")).toBeVisible();
    await expect(page.getByTestId("stock")).toHaveText("Stock: 4 piezas");
    await expect(page.getByText("Pieza de prueba Arracadas Brisa")).toBeVisible();
    await expect(page.getByLabel("Cantidad")).toHaveValue("1");
    await expect(page.getByRole("link", { name: `← Volver a ${drop.name}` })).toHaveAttribute(
      "href",
      drop.href,
    );
    // Link previews and search engines get the product's data.
    const jsonLd = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
    );
    expect(jsonLd).toMatchObject({
      "@type": "Product",
      name: "Arracadas Brisa",
      offers: { price: "12500.00", priceCurrency: "MXN" },
    });
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      new RegExp(`${product.href}$`),
    );
    await expectAccessible(page);
  });

  test("/success thanks the shopper and empties the cart; /cancel says what went wrong", async ({
    page,
    shop,
    cart,
  }) => {
    const drop = await shop.drop({
      timing: "running",
      products: [{ name: "Anillo Gracias", priceCents: 100_000, stock: 2 }],
    });
    await page.goto(drop.products[0]?.href ?? "/");
    await page.getByRole("button", { name: "Agregar al carrito" }).click();
    await expect(cart.count()).toHaveText("1");

    await page.goto("/cancel");
    await expect(page.getByRole("heading", { name: "Algo salió mal" })).toBeVisible();
    await expect(page.getByText(/No pudimos procesar tu compra\.\.\./)).toBeVisible();
    await expect(page.getByRole("link", { name: "Volver a las colecciones" })).toHaveAttribute(
      "href",
      "/colecciones",
    );
    await expect(cart.count()).toHaveText("1");
    await expectAccessible(page);

    await page.goto("/success");
    await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
    await expect(page.getByText(/correo de confirmación/)).toBeVisible();
    await expect(page.getByRole("link", { name: "Seguir viendo colecciones" })).toHaveAttribute(
      "href",
      "/colecciones",
    );
    await expect(cart.count()).toHaveCount(0);
    await expectAccessible(page);
  });

  test("unknown drops and products answer 404 with the spec's messages", async ({ page }) => {
    const drop = await page.goto("/coleccion/noexiste");
    expect(drop?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Drop no encontrado" })).toBeVisible();
    const product = await page.goto("/drop/noexiste/product/tampoco");
    expect(product?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Producto no encontrado." })).toBeVisible();
    await expectAccessible(page);
  });
});

test("the header's background changes once the page is scrolled", async ({ page }) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header).toHaveAttribute("data-scrolled", "false");
  const before = await header.evaluate((el) => getComputedStyle(el).backgroundColor);
  await page.mouse.wheel(0, 800);
  await expect(header).toHaveAttribute("data-scrolled", "true");
  await expect.poll(() => header.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(before);
});

test("the like toggle works on the page and is not stored", async ({ page, shop }) => {
  const drop = await shop.drop({
    timing: "running",
    products: [{ name: "Anillo Favorito", priceCents: 100_000, stock: 1 }],
  });
  await page.goto(drop.href);
  const like = page.getByRole("button", { name: "Me gusta Anillo Favorito" });
  await expect(like).toHaveAttribute("aria-pressed", "false");
  await like.click();
  await expect(like).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(like).toHaveAttribute("aria-pressed", "false");
});
