import { photographedPiecePath } from "./support/demo-pieces";
import { expectInSightUncovered, expectOnFirstScreen, productEssentials } from "./support/first-screen";
import { expect, test } from "./support/fixtures";

/*
 * A phone's first screen (360 × 740): a product page shows its first photo, name, price and
 * 'Agregar al carrito' without scrolling, and neither the running drop's bar (stuck to the
 * bottom) nor the header covers any of them, nor a carousel's card on home.
 */

test.beforeEach(() => {
  test.skip(test.info().project.name !== "phone", "the first screen of a 360 × 740 phone");
});

test("a product page's first screen holds the first photo, name, price, the sizes and 'Agregar al carrito', clear of the bar", async ({
  page,
  shop,
  database,
}) => {
  expect(page.viewportSize()).toEqual({ width: 360, height: 740 });
  // The demo's running drop: its first piece, a ring sold by size, has five photos (so the
  // thumbnails show too).
  const demoPiece = await photographedPiecePath(database);
  await page.goto(demoPiece);
  await expect(page.locator("[data-drop-bar]")).toBeVisible();
  await expect(page.getByRole("group", { name: "Talla" })).toBeVisible();
  await expectOnFirstScreen(page, productEssentials(page, { sizes: true }));

  // The longest case: a name on two lines, 'Máximo N por persona', sizes 5 to 8 with their halves
  // (two rows of buttons), a long description, photos.
  const drop = await shop.drop({
    timing: "running",
    maxPerOrder: 2,
    products: [
      {
        name: "Anillo Marea de Luna Creciente",
        priceCents: 1_250_000,
        stock: 7,
        description: "Argolla de oro amarillo de 14k, martillada a mano. ".repeat(12),
        option: {
          name: "Talla",
          values: ["5", "5.5", "6", "6.5", "7", "7.5", "8"].map((value) => ({ value, stock: 1 })),
        },
      },
    ],
  });
  const product = drop.products[0];
  if (!product) throw new Error("no product");
  const photo = await database.db
    .selectFrom("products")
    .select("image_id")
    .where("id", "=", demoPiece.split("/").pop() ?? "")
    .executeTakeFirstOrThrow();
  await database.db
    .updateTable("products")
    .set({ image_id: photo.image_id })
    .where("id", "=", product.id)
    .execute();
  await page.goto(product.href);
  await expect(page.getByText("Máximo 2 por persona")).toBeVisible();
  await expect(page.locator("[data-drop-bar]")).toBeVisible();
  const name = await page.getByRole("heading", { level: 1 }).boundingBox();
  expect(name?.height, "the name takes two lines").toBeGreaterThan(50);
  await expectOnFirstScreen(page, productEssentials(page, { sizes: true }));
  // The long text comes after the add button, not between the price and it.
  const [button, text] = await Promise.all([
    page.getByRole("button", { name: "Agregar al carrito" }).boundingBox(),
    page.getByText(/^Argolla de oro amarillo/).boundingBox(),
  ]);
  expect((text?.y ?? 0) > (button?.y ?? 0)).toBe(true);
});

test("home's first carousel card is never under the drop's bar, scrolled into view", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("[data-drop-bar]")).toBeVisible();
  const card = page.getByRole("main").getByRole("article").first();
  // Brought to the foot of the screen (where the bar is), as scrolling down to it does, and to
  // the middle.
  for (const block of ["end", "center"] as const) {
    await card.evaluate((el, b) => el.scrollIntoView({ block: b, behavior: "instant" }), block);
    await expectInSightUncovered(page, { [`first card, scrolled to its ${block}`]: card });
  }
});
