import { expect, test, toggleFilter } from "./support/fixtures";

test("home → collection → filter → product → add → drawer → reload keeps the cart", async ({
  page,
  shop,
  cart,
}) => {
  const drop = await shop.drop({
    timing: "running",
    products: [
      { name: "Anillo Cauce", priceCents: 150_000, stock: 2, categoria: "Anillo", material: "Oro rosa" },
      {
        name: "Collar Ribera",
        priceCents: 1_250_000,
        stock: 5,
        categoria: "Collar",
        material: "Oro amarillo",
      },
      { name: "Aretes Remanso", priceCents: 600_000, stock: 0, categoria: "Arete", material: "Oro blanco" },
    ],
  });

  // Home: the drop's own section links to its collection.
  await page.goto("/");
  const section = page.getByRole("region", { name: drop.name, exact: true });
  await section.getByRole("link", { name: "Ver colección" }).click();
  await expect(page).toHaveURL(drop.href);
  await expect(page.getByRole("heading", { name: drop.name, level: 1 })).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(3);
  await expect(
    page.getByRole("article", { name: "Aretes Remanso" }).getByText("Producto agotado"),
  ).toBeVisible();

  // Filters live in the URL; each group matches any of its options.
  await toggleFilter(page, "Anillos");
  await expect(page).toHaveURL(/categoria=Anillo/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await toggleFilter(page, "Collares");
  await expect(page.getByRole("article")).toHaveCount(2);
  await toggleFilter(page, "$20,000 o más");
  await expect(page.getByText("No hay productos disponibles con los filtros seleccionados.")).toBeVisible();
  await toggleFilter(page, "$20,000 o más");
  await toggleFilter(page, "Solo disponibles");
  await expect(page).toHaveURL(/disponibles=1/);
  await expect(page.getByRole("article")).toHaveCount(2);
  // A filtered view can be shared: the same URL shows the same pieces straight from the server.
  const shared = await page.request.get(page.url());
  const html = await shared.text();
  expect(html.includes("Collar Ribera") && !html.includes("Aretes Remanso")).toBe(true);

  // Product page: add two rings, then the stock limit stops a third.
  await page.getByRole("article", { name: "Anillo Cauce" }).getByRole("link").click();
  await expect(page.getByRole("heading", { name: "Anillo Cauce", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Uno más" }).click();
  await expect(page.getByLabel("Cantidad")).toHaveValue("2");
  await expect(page.getByRole("button", { name: "Uno más" })).toBeDisabled();
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(cart.drawer).toBeVisible();
  await expect(cart.line("Anillo Cauce")).toContainText("$1,500.00 x 2 = $3,000.00");
  await page.keyboard.press("Escape");
  await expect(cart.drawer).toBeHidden();
  // Typed over: the field empties while she writes, and takes what she typed (not "11").
  const quantity = page.getByLabel("Cantidad");
  await quantity.press("End");
  await quantity.press("Backspace");
  await expect(quantity).toHaveValue("");
  await quantity.pressSequentially("1");
  await expect(quantity).toHaveValue("1");
  await quantity.blur();
  await expect(quantity).toHaveValue("1");
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(page.getByRole("alert")).toHaveText("No puedes agregar más. Stock disponible: 2");
  await expect(cart.count()).toHaveText("2");

  // A second piece from the collection.
  await page.getByRole("link", { name: `← Volver a ${drop.name}` }).click();
  // The collection's card, not the one under 'Más piezas' of the page being left.
  await expect(page.getByRole("heading", { name: drop.name, level: 1 })).toBeVisible();
  await page.getByRole("article", { name: "Collar Ribera" }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Collar Ribera");
  await expect(page.getByRole("alert")).toBeHidden();
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(cart.line("Collar Ribera")).toContainText("$12,500.00 x 1 = $12,500.00");
  await expect(cart.subtotal()).toHaveText("$15,500.00");
  // The spec's 'Subtotal: $' plus the sum.
  await expect(cart.drawer.getByText("Subtotal: $15,500.00")).toBeVisible();

  // Drawer: plus, minus, remove.
  await cart.plus("Collar Ribera");
  await expect(cart.line("Collar Ribera")).toContainText("$12,500.00 x 2 = $25,000.00");
  await expect(cart.subtotal()).toHaveText("$28,000.00");
  await cart.minus("Anillo Cauce");
  await expect(cart.line("Anillo Cauce")).toContainText("x 1 = $1,500.00");
  await cart.minus("Anillo Cauce");
  await expect(cart.line("Anillo Cauce")).toHaveCount(0);
  await expect(cart.subtotal()).toHaveText("$25,000.00");
  await expect(cart.count()).toHaveText("2");

  // A reload keeps the cart.
  await page.reload();
  await expect(cart.count()).toHaveText("2");
  await cart.open();
  await expect(cart.line("Collar Ribera")).toContainText("x 2 = $25,000.00");
  await cart.remove("Collar Ribera");
  await expect(cart.drawer.getByText("Tu carrito está vacío.")).toBeVisible();
  await expect(cart.drawer.getByRole("button", { name: "Pagar" })).toHaveCount(0);
});

test("the drawer brings prices and stock up to date when it opens", async ({ page, shop, cart }) => {
  const { product } = await shop.piece({ name: "Anillo Vigente", priceCents: 200_000, stock: 3 });
  await cart.addFromProductPage(product.href, 3);
  await expect(cart.line("Anillo Vigente")).toContainText("$2,000.00 x 3");
  await page.keyboard.press("Escape");

  await shop.update(product.id, { priceCents: 210_000, stock: 1 });
  await cart.open();
  await expect(cart.line("Anillo Vigente")).toContainText("$2,100.00 x 1 = $2,100.00");
  await expect(cart.drawer.getByRole("status")).toContainText("Actualizamos tu carrito");
});
