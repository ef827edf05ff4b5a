import { LIMIT_RULES } from "~/rate-limits/request-limits.server";
import { CartUtil, expect, test } from "./support/fixtures";

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

test("'Pagar' shows the server's message when a piece sold out meanwhile", { tag: "@once" }, async ({
  page,
  shop,
  cart,
}) => {
  const { product } = await shop.piece({ name: "Anillo Último", priceCents: 100_000, stock: 1 });
  // The drawer re-checks stock as it opens; the sale must happen after that check, not before.
  const checked = page.waitForResponse((response) => response.url().includes("/api/cart"));
  await cart.addFromProductPage(product.href);
  await expect(cart.drawer).toBeVisible();
  await checked;
  await shop.update(product.id, { stock: 0 }); // someone else bought it
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(cart.drawer.getByRole("alert")).toHaveText(
    "No hay piezas suficientes: Anillo Último (agotado).",
  );
  await expect(cart.drawer.getByRole("button", { name: "Pagar" })).toBeEnabled();
});

test("'Máximo 2 por persona' is refused when adding, in Spanish, not first at 'Pagar'; the drawer's plus stops at it", {
  tag: "@once",
}, async ({ page, shop, cart, database }) => {
  const drop = await shop.drop({
    timing: "running",
    name: `Límite ${Date.now()}`,
    maxPerOrder: 2,
    products: [
      { name: "Arete Límite", priceCents: 100_000, stock: 5 },
      { name: "Anillo Límite", priceCents: 100_000, stock: 5 },
    ],
  });
  const [arete, anillo] = drop.products;
  if (!arete || !anillo) throw new Error("no products");
  await page.goto(arete.href);
  await expect(page.getByText("Máximo 2 por persona")).toBeVisible();
  await page.getByRole("button", { name: "Uno más" }).click();
  await expect(page.getByRole("button", { name: "Uno más" })).toBeDisabled();
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(cart.line("Arete Límite")).toContainText("x 2");
  // The drop's pieces are all in the cart: plus stops, and the line says why.
  await expect(
    cart.line("Arete Límite").getByRole("button", { name: "Agregar uno de Arete Límite" }),
  ).toBeDisabled();
  await expect(cart.line("Arete Límite")).toContainText("Máximo 2 por persona en su colección");
  await cart.drawer.getByRole("button", { name: "Cerrar carrito" }).click();

  // Another piece of the same drop: refused on its page, in the shopper's words.
  await page.goto(anillo.href);
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    `Máximo 2 por persona en ${drop.name}: ya tienes 2 piezas de esta colección en tu carrito.`,
  );
  await expect(cart.drawer).toBeHidden();
  await expect(cart.count()).toHaveText("2");
  // Over to the other piece from 'Más piezas': a page of its own, without this one's refusal.
  await page
    .getByRole("region", { name: `Más piezas de ${drop.name}` })
    .getByRole("article", { name: "Arete Límite" })
    .getByRole("link")
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Arete Límite");
  await expect(page.getByRole("alert")).toBeHidden();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anillo Límite");

  // With room again, the add goes through.
  await cart.open();
  await cart.minus("Arete Límite");
  await cart.drawer.getByRole("button", { name: "Cerrar carrito" }).click();
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(cart.line("Anillo Límite")).toContainText("x 1");
  await expect(cart.count()).toHaveText("2");

  // A limit lowered by the owner after the cart was filled is still refused at 'Pagar'.
  await database.db.updateTable("drops").set({ max_per_order: 1 }).where("id", "=", drop.id).execute();
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(cart.drawer.getByRole("alert")).toHaveText(
    `Máximo 1 por persona en ${drop.name}: deja hasta 1 pieza de esta colección en tu carrito.`,
  );
  expect(await shop.stockOf(arete.id)).toBe(5);
  // Within the limit, the checkout goes on to the payment page.
  await cart.remove("Arete Límite");
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(/\/pago-demo\/OL-/);
});

test("the drawer's subtotal reads '$12,500.00' beside its label, with the shop's shipping policy under it", async ({
  page,
  shop,
  cart,
}) => {
  const { product } = await shop.piece({ name: "Collar Subtotal", priceCents: 1_250_000, stock: 3 });
  await cart.addFromProductPage(product.href);
  await expect(cart.subtotal()).toHaveText("$12,500.00");
  const row = cart.drawer.locator("p", { has: page.getByTestId("subtotal") });
  await expect(row).toHaveText("Subtotal: $12,500.00");
  // Label and amount on one line, side by side.
  const [label, amount] = await Promise.all([
    row.getByText("Subtotal:", { exact: true }).boundingBox(),
    cart.subtotal().boundingBox(),
  ]);
  if (!label || !amount) throw new Error("no boxes");
  expect(Math.abs(label.y + label.height / 2 - (amount.y + amount.height / 2))).toBeLessThan(4);
  expect(amount.x).toBeGreaterThan(label.x + label.width);

  // Under it, what shipping costs, as Configuración's 'Envíos' page says it.
  const policy = cart.drawer.getByTestId("shipping-policy");
  await expect(policy).toHaveText(
    "El costo del envío depende de la opción que elijas, y lo ves en tu carrito antes de pagar.",
  );
  const said = (await policy.textContent()) ?? "";
  await page.goto("/envios");
  await expect(page.getByRole("main")).toContainText(said);

  await cart.open();
  await cart.plus("Collar Subtotal");
  await expect(cart.subtotal()).toHaveText("$25,000.00");
});

test("past the browser's allowance of checkouts, 'Pagar' shows the Spanish 429 message with the wait", {
  tag: "@once",
}, async ({ page, shop, cart, baseURL }) => {
  // 'Pagar' waits for the browser's proof of work, which a busy machine solves slowly.
  test.slow();
  const { product } = await shop.piece({ name: "Anillo Prisa", priceCents: 100_000, stock: 5 });
  // The drawer's re-check and the proof of work's challenge are this browser's first /api
  // requests, sent together: each may set the browser cookie, so both are waited for.
  const checked = page.waitForResponse((response) => response.url().includes("/api/cart"));
  const challenged = page.waitForResponse((response) => response.url().includes("/api/reto"));
  await cart.addFromProductPage(product.href);
  await Promise.all([checked, challenged]);
  // The same browser (its cookie) has used up its checkouts for this minute.
  for (let i = 0; i < LIMIT_RULES.checkout.browser.points; i++) {
    await page.request.post("/api/checkout", { data: { cart: [] }, headers: { origin: baseURL ?? "" } });
  }
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(cart.drawer.getByRole("alert")).toHaveText(
    /^Demasiados intentos seguidos\. Intenta de nuevo en \d+ (segundos?|minutos?)\.$/,
    { timeout: 30_000 },
  );
  expect(await shop.stockOf(product.id)).toBe(5);
  await expect(cart.drawer.getByRole("button", { name: "Pagar" })).toBeEnabled();
});

test("the countdown ticks every second toward the end of the running drop", { tag: "@once" }, async ({
  page,
}) => {
  await page.goto("/");
  const countdown = page.getByTestId("countdown");
  await expect(countdown).toBeVisible();
  const before = await countdown.textContent();
  await expect.poll(() => countdown.textContent(), { timeout: 3000 }).not.toBe(before);
});

test("a /success page left open in one tab does not empty the cart filled in another", {
  tag: "@once",
}, async ({ page, context, shop, cart }) => {
  const { product } = await shop.piece({ name: "Arete Pestaña", priceCents: 120_000, stock: 3 });
  await page.goto("/success");
  const other = await context.newPage();
  const otherCart = new CartUtil(other);
  await otherCart.addFromProductPage(product.href);
  await expect(otherCart.count()).toHaveText("1");
  // The thank-you tab hears of the new cart and keeps it.
  await expect(cart.count()).toHaveText("1");
  await other.reload();
  await expect(otherCart.count()).toHaveText("1");
});

test("on a 360 px phone every control of the drawer is at least 44 × 44 px, and the page behind it stays still", async ({
  page,
  shop,
  cart,
}) => {
  test.skip(test.info().project.name !== "phone", "tap targets are a phone's matter");
  const { product } = await shop.piece({ name: "Anillo Pulgar", priceCents: 210_000, stock: 5 });
  await cart.addFromProductPage(product.href, 2);
  await expect(cart.drawer).toBeVisible();
  const controls = [
    cart.drawer.getByRole("button", { name: "Cerrar carrito" }),
    cart.line("Anillo Pulgar").getByRole("button", { name: "Quitar uno de Anillo Pulgar" }),
    cart.line("Anillo Pulgar").getByRole("button", { name: "Agregar uno de Anillo Pulgar" }),
    cart.line("Anillo Pulgar").getByRole("button", { name: "Eliminar Anillo Pulgar del carrito" }),
    ...["Términos y condiciones", "Aviso de privacidad", "Envíos", "Cambios y devoluciones"].map((name) =>
      cart.drawer.getByRole("link", { name }),
    ),
    cart.drawer.getByRole("button", { name: "Pagar" }),
  ];
  // 44 px, give or take the layout's sub-pixel rounding (a 44 px button measured 43.99998 once).
  const TOUCH = 44 - 0.01;
  for (const control of controls) {
    const box = await control.boundingBox();
    expect(box, String(control)).not.toBeNull();
    expect(box?.width, `width of ${control}`).toBeGreaterThanOrEqual(TOUCH);
    expect(box?.height, `height of ${control}`).toBeGreaterThanOrEqual(TOUCH);
  }
  await cart.drawer.getByRole("button", { name: "Cerrar carrito" }).click();
  await expect(cart.drawer).toBeHidden();

  // Down a long page, the drawer opens; wheel and swipe over the dimmed strip left of it.
  await page.goto("/");
  await page.evaluate(() => window.scrollTo({ top: 400, behavior: "instant" }));
  await page.waitForFunction(() => window.scrollY === 400);
  await cart.open();
  await page.mouse.move(20, 400);
  await page.mouse.wheel(0, 600);
  const touch = await page.context().newCDPSession(page);
  await touch.send("Input.synthesizeScrollGesture", {
    x: 20,
    y: 500,
    yDistance: -400,
    gestureSourceType: "touch",
    speed: 2000,
  });
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => window.scrollY)).toBe(400);
  // Closing it leaves the page where it was, free to scroll again.
  await cart.drawer.getByRole("button", { name: "Cerrar carrito" }).click();
  await expect(cart.drawer).toBeHidden();
  expect(await page.evaluate(() => window.scrollY)).toBe(400);
  await page.mouse.wheel(0, 200);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
});
