import {
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  fillDemoPayment,
  OrdersDesk,
  test,
} from "./support/fixtures";
import { outboxMessagesWith } from "./support/outbox";

/*
 * 'Mi pedido' (issue 27): from the confirmation e-mail in the outbox to the buyer's order page
 * (where it is, its pieces, where it goes, what comes next), and the same page found by the
 * order's number and e-mail — a wrong e-mail told as an unknown number would be.
 */

test("from the confirmation e-mail to 'Mi pedido'; found again by number and e-mail; shipped and delivered, with the return window", async ({
  page,
  browser,
  shop,
  cart,
  admins,
}) => {
  const { product } = await shop.piece({ name: "Anillo Camino", priceCents: 380_000, stock: 1 });
  await cart.addFromProductPage(product.href);
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/);
  const orderId = page.url().split("/").pop() ?? "";
  const email = `camino-${orderId.toLowerCase()}@example.mx`;
  await fillDemoPayment(page, { name: "Nora Camino", email });
  await page
    .getByRole("button", { name: /^Pagar/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Ver mi pedido/ })).toBeVisible();

  // The confirmation e-mail's link opens the order's page.
  await expect.poll(() => outboxMessagesWith(email).length, { timeout: 10_000 }).toBeGreaterThan(0);
  const link = /https?:\/\/[^\s"<>]+\/mi-pedido\/OL-[A-Z0-9]{8}\?firma=[\w-]+/.exec(
    outboxMessagesWith(email)[0] ?? "",
  )?.[0];
  expect(link).toBeTruthy();
  await page.goto(link ?? "");
  await expect(page.getByRole("heading", { name: `Pedido ${orderId}` })).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("Pagado: lo estamos preparando");
  await expect(page.getByText("Anillo Camino × 1")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Lo enviamos a" })).toBeVisible();
  await expect(page.getByTestId("next-step")).toContainText("te escribimos con la paquetería");
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  // From the footer's 'Mi pedido': a wrong e-mail is told like an unknown number; the right one opens it.
  await page.goto("/");
  await page.getByRole("link", { name: "Mi pedido", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Mi pedido" })).toBeVisible();
  await page.getByLabel("Número de pedido").fill(orderId);
  await page.getByLabel("Correo electrónico").fill(`otra-${email}`);
  await page.getByRole("button", { name: "Ver mi pedido" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "No encontramos un pedido con ese número y ese correo. Revisa los dos en tu correo de confirmación.",
  );
  await expectAccessible(page);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Ver mi pedido" }).click();
  await expect(page.getByRole("heading", { name: `Pedido ${orderId}` })).toBeVisible();
  const orderPage = page.url();

  // The owner ships it and marks it delivered; the buyer's page shows both and her return window.
  const owner = await browser.newContext();
  try {
    const deskPage = await owner.newPage();
    await admins.login(deskPage);
    const desk = new OrdersDesk(deskPage);
    await desk.open("pendiente", orderId);
    await desk.ship(orderId, "DHL Express", `DHL${orderId.slice(3)}`);
    await expect(deskPage.getByText("Pedido marcado como enviado")).toBeVisible();
    await desk.open("enviado", orderId);
    await desk.order(orderId).getByRole("button", { name: "Marcar entregado" }).click();
    await expect(deskPage.getByText("Pedido marcado como entregado")).toBeVisible();
  } finally {
    await owner.close();
  }
  await page.goto(orderPage);
  await expect(page.getByTestId("order-status")).toHaveText("Entregado");
  await expect(page.getByText(`DHL Express, guía DHL${orderId.slice(3)}`)).toBeVisible();
  await expect(page.getByTestId("return-window")).toContainText("para pedir una devolución: 5 días hábiles");
  await expectAccessible(page);
});
