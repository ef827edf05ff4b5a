import { expect, test } from "./support/fixtures";

test("pieces of an upcoming drop are shown but cannot be bought yet", { tag: "@once" }, async ({
  page,
  shop,
}) => {
  const drop = await shop.drop({
    timing: "upcoming",
    status: "proximamente",
    products: [{ name: "Anillo Mañana", priceCents: 300_000, stock: 5 }],
  });
  await page.goto(drop.href);
  // The drop's own state line ("Próximamente · <fechas>"), not a tile's "Disponible próximamente".
  await expect(page.getByText(/^Próximamente · /)).toBeVisible();
  await expect(
    page.getByRole("article", { name: "Anillo Mañana" }).getByText("Disponible próximamente"),
  ).toBeVisible();
  await page.goto(drop.products[0]?.href ?? "/");
  await expect(page.getByText("Disponible próximamente")).toBeVisible();
  await expect(page.getByRole("button", { name: "Agregar al carrito" })).toHaveCount(0);
});

test("pieces of an ended drop cannot be bought", { tag: "@once" }, async ({ page, shop }) => {
  const drop = await shop.drop({
    timing: "ended",
    products: [{ name: "Anillo Ayer", priceCents: 300_000, stock: 5 }],
  });
  await page.goto(drop.href);
  await expect(
    page.getByRole("article", { name: "Anillo Ayer" }).getByText("Colección finalizada"),
  ).toBeVisible();
  await page.goto(drop.products[0]?.href ?? "/");
  await expect(page.getByText("Colección finalizada")).toBeVisible();
  await expect(page.getByRole("button", { name: "Agregar al carrito" })).toHaveCount(0);
  // Its own page and the list of collections call it ended too, as its pieces do, not 'Activo'.
  await page.goto(drop.href);
  await expect(page.getByRole("main").getByText(/^Finalizado · /)).toBeVisible();
  await expect(page.getByRole("main").getByText(/^Activo · /)).toHaveCount(0);
  await page.goto("/colecciones");
  await expect(page.getByRole("article", { name: drop.name })).toContainText("Finalizado");
});

test("an archived drop is off the home page and cannot be bought, even within its dates", {
  tag: "@once",
}, async ({ page, shop }) => {
  const drop = await shop.drop({
    timing: "running",
    status: "archivada",
    products: [{ name: "Anillo Guardado", priceCents: 300_000, stock: 5 }],
  });
  await page.goto("/");
  // Home rendered (this heading is always there), so the missing drop heading means something.
  await expect(page.getByRole("heading", { name: "Hecho a mano, paso a paso" })).toBeVisible();
  await expect(page.getByRole("heading", { name: drop.name, exact: true })).toHaveCount(0);
  await page.goto(drop.products[0]?.href ?? "/");
  await expect(page.getByText("Colección finalizada")).toBeVisible();
  await expect(page.getByRole("button", { name: "Agregar al carrito" })).toHaveCount(0);
  // Its own page and the list of collections call it ended too, as its pieces do, not 'Activo'.
  await page.goto(drop.href);
  await expect(page.getByRole("main").getByText(/^Finalizado · /)).toBeVisible();
  await expect(page.getByRole("main").getByText(/^Activo · /)).toHaveCount(0);
  await page.goto("/colecciones");
  await expect(page.getByRole("article", { name: drop.name })).toContainText("Finalizado");
});

test("a sold-out piece says so and cannot be added", { tag: "@once" }, async ({ page, shop }) => {
  const drop = await shop.drop({
    timing: "running",
    products: [{ name: "Anillo Agotado", priceCents: 300_000, stock: 0 }],
  });
  await page.goto(drop.products[0]?.href ?? "/");
  await expect(page.getByText("Producto agotado").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Agregar al carrito" })).toHaveCount(0);
});

test("a collection with no pieces yet says so, not that filters hid them", { tag: "@once" }, async ({
  page,
  shop,
}) => {
  const drop = await shop.drop({ timing: "running", products: [] });
  await page.goto(drop.href);
  await expect(page.getByText("Esta colección todavía no tiene piezas.")).toBeVisible();
  await expect(page.getByText("No hay productos disponibles con los filtros seleccionados.")).toHaveCount(0);
});
