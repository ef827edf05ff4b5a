import { expect, expectAccessible, fillDemoPayment, test } from "./support/fixtures";

/*
 * 'Meses sin intereses' (issue 26), as the owner turns them on and a shopper meets them: the
 * product page and the drawer say 'Hasta 6 meses sin intereses' only where the total reaches the
 * owner's minimum, the demo payment page offers the plans, and the order keeps the one chosen.
 * The minimum here is far above every other test's pieces, so the shop's other pages stay as
 * they were for the tests running beside this one.
 */

test("'Hasta 6 meses sin intereses' on a piece from the owner's minimum, not on a small one; the plan chosen stays with the order", async ({
  page,
  browser,
  shop,
  cart,
  admins,
}) => {
  const drop = await shop.drop({
    timing: "running",
    products: [
      { name: "Collar Meses", priceCents: 6_000_000, stock: 2 },
      { name: "Arete Contado", priceCents: 200_000, stock: 2 },
    ],
  });
  const [collar, arete] = drop.products;
  if (!collar || !arete) throw new Error("no products");

  // The owner offers them in Configuración: up to 6 months, from $50,000.
  const owner = await browser.newContext();
  try {
    const desk = await owner.newPage();
    await admins.login(desk);
    await desk.goto("/admin/settings");
    // (By role: once changed, each field has a 'Restablecer …' button naming it too.)
    const offer = desk.getByRole("checkbox", { name: "Ofrecer meses sin intereses con tarjeta de crédito" });
    await offer.check();
    await desk.getByRole("textbox", { name: "Hasta cuántos meses", exact: true }).fill("6");
    await desk.getByRole("textbox", { name: "Desde un total de (pesos)", exact: true }).fill("50,000");
    await desk.getByRole("button", { name: "Guardar configuración" }).click();
    await expect(desk).toHaveURL(/aviso=guardado/);
    await expect(offer).toBeChecked();

    await page.goto(collar.href);
    await expect(page.getByTestId("installments")).toHaveText("Hasta 6 meses sin intereses");
    await expectAccessible(page);
    await page.goto(arete.href);
    await expect(page.getByRole("heading", { name: "Arete Contado" })).toBeVisible();
    await expect(page.getByTestId("installments")).toHaveCount(0);

    // The drawer says it once the subtotal reaches the minimum.
    await cart.addFromProductPage(arete.href);
    await expect(cart.line("Arete Contado")).toBeVisible();
    await expect(cart.drawer.getByTestId("installments")).toHaveCount(0);
    await cart.drawer.getByRole("button", { name: "Cerrar carrito" }).click();
    await cart.addFromProductPage(collar.href);
    await expect(cart.drawer.getByTestId("installments")).toHaveText(
      "Hasta 6 meses sin intereses con tarjeta de crédito",
    );
    await expect(cart.drawer.getByTestId("vat")).toHaveText("IVA incluido");
    await expectAccessible(page);

    // The payment page offers one payment or the plans up to 6 months; the shopper takes 6.
    await cart.drawer.getByRole("button", { name: "Pagar" }).click();
    await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/);
    const orderId = page.url().split("/").pop() ?? "";
    await expect(page.getByText("Total (MXN, IVA incluido)")).toBeVisible();
    await expect(page.getByLabel("Una sola exhibición de $62,000.00")).toBeChecked();
    await expect(page.getByLabel("3 meses sin intereses de $20,666.67")).toBeVisible();
    await expect(page.getByLabel("9 meses sin intereses", { exact: false })).toHaveCount(0);
    await page.getByLabel("6 meses sin intereses de $10,333.34").check();
    await expectAccessible(page);
    await fillDemoPayment(page, { name: "Marta Plazos", email: "marta.plazos@example.mx" });
    await page.getByRole("button", { name: /^Pagar/ }).click();
    await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();

    // The owner sees the plan on the order.
    await desk.goto(`/admin/orders/${orderId}`);
    await expect(desk.getByTestId("installment-plan")).toHaveText("· Pagado a 6 meses sin intereses");
  } finally {
    await owner.close();
  }
});
