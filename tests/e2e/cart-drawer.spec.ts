import { expect, test } from "./support/fixtures";

test("the drawer opens from the header and closes by its button, Escape and the backdrop", async ({
  page,
  cart,
}) => {
  await page.goto("/colecciones");
  await cart.open();
  await expect(cart.drawer.getByRole("heading", { name: "Carrito de compras" })).toBeVisible();
  await expect(cart.drawer.getByText("Tu carrito está vacío.")).toBeVisible();
  // Focus is inside the drawer while it is open...
  await expect(cart.drawer.getByRole("button", { name: "Cerrar carrito" })).toBeFocused();
  await cart.drawer.getByRole("button", { name: "Cerrar carrito" }).click();
  await expect(cart.drawer).toBeHidden();
  // ...and returns to the cart button when it closes.
  await expect(cart.button()).toBeFocused();

  await cart.open();
  await page.keyboard.press("Escape");
  await expect(cart.drawer).toBeHidden();

  await cart.open();
  const viewport = page.viewportSize();
  await page.mouse.click(10, (viewport?.height ?? 600) / 2); // on the dimmed backdrop, left of the panel
  await expect(cart.drawer).toBeHidden();
});

test("'Pagar' shows 'Redirigiendo...' while it waits, then the checkout's message", async ({
  page,
  shop,
  cart,
}) => {
  const drop = await shop.drop({
    timing: "running",
    products: [{ name: "Anillo Pago", priceCents: 100_000, stock: 2 }],
  });
  await page.goto(drop.products[0]?.href ?? "/");
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(cart.drawer).toBeVisible();

  // Hold the checkout request so the waiting state can be seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/checkout", async (route) => {
    await held;
    await route.continue();
  });
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  const waiting = cart.drawer.getByRole("button", { name: "Redirigiendo..." });
  await expect(waiting).toBeVisible();
  await expect(waiting).toBeDisabled();
  release();
  // The payment endpoint answers with an error (it arrives with the checkout): the spec's message.
  await expect(cart.drawer.getByRole("alert")).toHaveText("Error validando stock o creando pago");
  await expect(cart.drawer.getByRole("button", { name: "Pagar" })).toBeEnabled();
  await expect(cart.line("Anillo Pago")).toBeVisible();
});

test("the home carousel pages through pieces and wraps around", async ({ page, shop }) => {
  const names = ["Uno", "Dos", "Tres", "Cuatro", "Cinco"].map((n) => `Pieza ${n}`);
  const drop = await shop.drop({
    timing: "running",
    products: names.map((name) => ({ name, priceCents: 100_000, stock: 1 })),
  });
  await page.goto("/");
  const carousel = page.getByRole("region", { name: `Piezas de ${drop.name}` });
  const first = carousel.getByRole("article").first();
  await expect(first).toHaveAccessibleName("Pieza Uno");
  await carousel.getByRole("button", { name: `Siguiente en Piezas de ${drop.name}` }).click();
  await expect(first).toHaveAccessibleName("Pieza Dos");
  await carousel.getByRole("button", { name: `Anterior en Piezas de ${drop.name}` }).click();
  await carousel.getByRole("button", { name: `Anterior en Piezas de ${drop.name}` }).click();
  await expect(first).toHaveAccessibleName("Pieza Cinco");
});

test("the countdown ticks every second toward the end of the running drop", async ({ page }) => {
  await page.goto("/");
  const countdown = page.getByTestId("countdown");
  await expect(countdown).toBeVisible();
  const before = await countdown.textContent();
  await expect.poll(() => countdown.textContent(), { timeout: 3000 }).not.toBe(before);
});
