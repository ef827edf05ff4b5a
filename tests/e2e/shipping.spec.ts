import {
  expect,
  expectAccessible,
  fillDemoPayment,
  holdRouteScript,
  test,
  untilHydrated,
} from "./support/fixtures";

/*
 * Shipping (issue 26, decision 43) on the shop's first values, which every other test shares:
 * standard $150 in 3 to 7 business days, express $350 in 1 to 2, standard free from $3,000 of
 * pieces. The drawer says the shipping line before 'Pagar' and what is missing for free shipping;
 * the demo payment page offers both; the order keeps the one chosen, apart from its pieces.
 */

test("the drawer's shipping line and free-shipping threshold; express chosen on the demo page lands on the order", async ({
  page,
  browser,
  shop,
  cart,
  admins,
}) => {
  const drop = await shop.drop({
    timing: "running",
    products: [
      { name: "Arete Envío", priceCents: 120_000, stock: 2 },
      { name: "Anillo Envío", priceCents: 200_000, stock: 2 },
    ],
  });
  const [arete, anillo] = drop.products;
  if (!arete || !anillo) throw new Error("no products");

  // Under the threshold: standard shipping is charged, and the drawer says how far free shipping is.
  await cart.addFromProductPage(arete.href);
  await expect(cart.line("Arete Envío")).toBeVisible();
  await expect(cart.drawer.getByTestId("shipping-line")).toHaveText(
    "Envío estándar (3 a 7 días hábiles): $150.00",
  );
  await expect(cart.drawer.getByTestId("free-shipping")).toHaveText("Te faltan $1,800.00 para envío gratis");
  await expect(cart.drawer.getByTestId("cart-total")).toHaveText("$1,350.00");
  await expect(cart.drawer.getByTestId("vat")).toHaveText("IVA incluido");
  await expectAccessible(page);

  // From $3,000 of pieces: free, and nothing left to reach.
  await cart.drawer.getByRole("button", { name: "Cerrar carrito" }).click();
  await cart.addFromProductPage(anillo.href);
  await expect(cart.subtotal()).toHaveText("$3,200.00");
  await expect(cart.drawer.getByTestId("shipping-line")).toHaveText(
    "Envío estándar (3 a 7 días hábiles): Gratis",
  );
  await expect(cart.drawer.getByTestId("free-shipping")).toHaveCount(0);
  await expect(cart.drawer.getByTestId("cart-total")).toHaveText("$3,200.00");

  // The demo payment page offers both, standard first (free here); the shopper takes express
  // before the page's code has run, as on a slow phone.
  const release = await holdRouteScript(page, "demo-payment");
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/);
  const orderId = page.url().split("/").pop() ?? "";
  const standard = page.getByRole("radio", { name: /^Envío estándar \(3 a 7 días hábiles\): Gratis/ });
  const express = page.getByRole("radio", { name: /^Envío express \(1 a 2 días hábiles\): \$350\.00/ });
  await expect(standard).toBeChecked();
  await expect(page.getByText("Total con envío $3,550.00")).toBeVisible();
  await express.check();
  release();
  await untilHydrated(express);
  // The summary above follows the shipping picked, picked before the code ran or after.
  await expect(page.getByTestId("shipping-line")).toHaveText("Envío express (1 a 2 días hábiles)$350.00");
  await expectAccessible(page);
  await fillDemoPayment(page, { name: "Paula Envíos", email: "paula.envios@example.mx" });
  await page.getByRole("button", { name: /^Pagar/ }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  // The receipt: the pieces, the shipping apart, and the total paid.
  await expect(page.getByTestId("shipping-line")).toHaveText("Envío express (1 a 2 días hábiles)$350.00");
  await expect(page.getByTestId("order-total")).toHaveText("$3,550.00");

  // The owner sees the shipping on the order, apart from the pieces.
  const owner = await browser.newContext();
  try {
    const desk = await owner.newPage();
    await admins.login(desk);
    await desk.goto(`/admin/orders/${orderId}`);
    await expect(desk.getByTestId("order-shipping")).toHaveText("Envío express (1 a 2 días hábiles)$350.00");
    await expect(desk.getByText("$3,550.00 MXN")).toBeVisible();
    await expectAccessible(desk);
  } finally {
    await owner.close();
  }
});
