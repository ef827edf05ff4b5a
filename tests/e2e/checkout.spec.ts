import { expect, fillDemoPayment, test } from "./support/fixtures";
import { outboxMessagesWith } from "./support/outbox";

test("add to cart → 'Pagar' → 'Redirigiendo...' → demo payment page → pay → /success with an empty cart", {
  tag: "@once",
}, async ({ page, shop, cart }) => {
  const { product } = await shop.piece({ name: "Collar Pago", priceCents: 980_000, stock: 3 });
  await cart.addFromProductPage(product.href);

  // Hold the checkout request a moment so the waiting state can be seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The browser solved the proof of work in the background and sends it with the checkout.
  let proof: string | null = null;
  await page.route("**/api/checkout", async (route) => {
    proof = route.request().headers()["x-altcha"] ?? null;
    await held;
    await route.continue();
  });
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  const waiting = cart.drawer.getByRole("button", { name: "Redirigiendo..." });
  await expect(waiting).toBeDisabled();
  release();

  await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/);
  expect(proof).toMatch(/^[A-Za-z0-9+/]+=*$/);
  const orderId = page.url().split("/").pop() ?? "";
  await expect(page.getByText("Página de pago de demostración.")).toBeVisible();
  await expect(page.getByText("Collar Pago × 1")).toBeVisible();
  expect(await shop.stockOf(product.id)).toBe(2); // held while paying

  // The form checks its fields before paying.
  await page.getByRole("button", { name: /^Pagar/ }).click();
  await expect(page.getByText("Escribe tu nombre completo.")).toBeVisible();
  await expect(page.getByText("El código postal tiene 5 dígitos.")).toBeVisible();
  await fillDemoPayment(page, { name: "Ana Pérez", email: "ana@example.mx" });
  await page.getByRole("button", { name: /^Pagar/ }).click();

  await expect(page).toHaveURL(/\/success\?pedido=OL-[A-Z0-9]{8}&firma=/);
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  await expect(cart.count()).toHaveCount(0);
  expect(await shop.stockOf(product.id)).toBe(2);
  // The confirmation e-mail is in the outbox (no SMTP configured), once.
  await expect.poll(() => outboxMessagesWith(orderId).length).toBe(1);
  const eml = outboxMessagesWith(orderId)[0] ?? "";
  expect(eml).toContain("To: ana@example.mx");
  expect(eml).toContain("Collar Pago");

  // A new cart, then this thanks page again (Back, a reloaded tab): the new cart stays.
  const thanks = page.url();
  await cart.addFromProductPage(product.href);
  await expect(cart.count()).toHaveText("1");
  await page.goto(thanks);
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  await expect(cart.count()).toHaveText("1");
});

test("cancelling on the payment page goes to /cancel and puts the pieces back", { tag: "@once" }, async ({
  page,
  shop,
  cart,
}) => {
  const { product } = await shop.piece({ name: "Anillo Arrepentido", priceCents: 300_000, stock: 2 });
  await cart.addFromProductPage(product.href, 2);
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(/\/pago-demo\//);
  expect(await shop.stockOf(product.id)).toBe(0);

  await page.getByRole("button", { name: "Cancelar" }).click();
  await expect(page).toHaveURL(/\/cancel\?pedido=OL-/);
  await expect(page.getByRole("heading", { name: "Algo salió mal" })).toBeVisible();
  expect(await shop.stockOf(product.id)).toBe(2);
  // The pieces are still in the cart to try again.
  await expect(cart.count()).toHaveText("2");
});
