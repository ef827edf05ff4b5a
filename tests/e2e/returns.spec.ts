import { expect, expectAccessible, expectNoSidewaysScroll, fillDemoPayment, test } from "./support/fixtures";
import { outboxMessagesWith } from "./support/outbox";

/*
 * Returns (issue 27, decision 48): from the confirmation e-mail in the outbox to 'Mi pedido', the
 * buyer asks to return one of her two pieces; the owner accepts it in 'Devoluciones', receives it
 * and refunds its price; every step's e-mail reaches the buyer's outbox.
 */

test("from the confirmation e-mail, the buyer returns one piece; the owner accepts and refunds it; her e-mails arrive", async ({
  page,
  browser,
  shop,
  cart,
  admins,
}) => {
  const drop = await shop.drop({
    timing: "running",
    products: [
      { name: "Arete Brisa", priceCents: 210_000, stock: 3 },
      { name: "Collar Brisa", priceCents: 530_000, stock: 3 },
    ],
  });
  for (const product of drop.products) await cart.addFromProductPage(product.href);
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/);
  const orderId = page.url().split("/").pop() ?? "";
  const email = `brisa-${orderId.toLowerCase()}@example.mx`;
  await fillDemoPayment(page, { name: "Inés Brisa", email });
  await page
    .getByRole("button", { name: /^Pagar/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  await shop.delivered(orderId);

  await expect.poll(() => outboxMessagesWith(email).length, { timeout: 10_000 }).toBeGreaterThan(0);
  const link = /https?:\/\/[^\s"<>]+\/mi-pedido\/OL-[A-Z0-9]{8}\?firma=[\w-]+/.exec(
    outboxMessagesWith(email)[0] ?? "",
  )?.[0];
  await page.goto(link ?? "");
  await expect(page.getByTestId("order-status")).toHaveText("Entregado");
  await page.getByRole("link", { name: "Pedir una devolución" }).click();
  await expect(page.getByRole("heading", { name: "Pedir una devolución" })).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  // Nothing chosen: told beside the pieces, in Spanish.
  await page.getByRole("button", { name: "Pedir devolución" }).click();
  await expect(page.getByText("Elige al menos una pieza para devolver.")).toBeVisible();
  await page.getByLabel(/Arete Brisa/).selectOption("1");
  await page.getByRole("radio", { name: "No es lo que esperaba" }).check();
  await page.getByLabel("Cuéntanos más (opcional)").fill("Lo imaginaba más grande.");
  await page.getByRole("button", { name: "Pedir devolución" }).click();
  await expect(page.getByRole("heading", { name: `Pedido ${orderId}` })).toBeVisible();
  await expect(
    page.getByRole("status").filter({ hasText: "Recibimos tu solicitud de devolución" }),
  ).toBeVisible();
  await expect(page.getByTestId("return-status")).toHaveText("Solicitada");
  // While it is under way the page no longer invites another one.
  await expect(page.getByTestId("return-window")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Pedir una devolución" })).toHaveCount(0);
  await expectAccessible(page);
  // Without its anchor: going back to the very address would only scroll the page.
  const orderPage = page.url().replace(/#.*$/, "");

  const owner = await browser.newContext();
  try {
    const desk = await owner.newPage();
    await admins.login(desk);
    await desk.goto("/admin/devoluciones");
    const card = desk.getByTestId("return-card").filter({ hasText: orderId });
    await expect(card).toContainText("No es lo que esperaba");
    await expect(card).toContainText("Lo imaginaba más grande.");
    await card
      .getByLabel(/Mensaje para la clienta/)
      .fill("Envíalo a Calle del Taller 12, Oaxaca, con tu número de pedido.");
    await card.getByRole("button", { name: "Aceptar devolución" }).click();
    await expect(desk.getByText("Devolución aceptada; le avisamos por correo.")).toBeVisible();
    await expectAccessible(desk);
    await desk.getByRole("link", { name: /^Esperando piezas/ }).click();
    const waiting = desk.getByTestId("return-card").filter({ hasText: orderId });
    await expect(waiting.getByRole("checkbox", { name: /Arete Brisa/ })).toBeChecked();
    // She counts what arrived (all, by default); the refund on the button follows the count.
    const arrived = waiting.getByRole("spinbutton", { name: "Piezas de Arete Brisa que llegaron" });
    await expect(arrived).toHaveValue("1");
    await arrived.fill("0");
    await waiting.getByRole("button", { name: "Recibidas: reembolsar $0.00" }).click();
    await expect(desk.getByRole("alert")).toContainText("No llegó ninguna pieza");
    await expectAccessible(desk);
    await arrived.fill("1");
    await waiting.getByRole("button", { name: "Recibidas: reembolsar $2,100.00" }).click();
    await expect(desk.getByText("Piezas recibidas. Reembolso hecho; le avisamos por correo.")).toBeVisible();
  } finally {
    await owner.close();
  }

  await page.goto(orderPage);
  await expect(page.getByTestId("return-status")).toHaveText("Reembolsada");
  await expect(page.getByText(/Te reembolsamos \$2,100\.00/)).toBeVisible();
  // Her three e-mails: the request, the acceptance with where to send it, the refund.
  await expect
    .poll(() => outboxMessagesWith(email).filter((m) => m.includes("devoluci")).length, { timeout: 10_000 })
    .toBe(3);
  // (The outbox is read as bytes: the checks keep to plain letters.)
  const mails = outboxMessagesWith(email).join("\n");
  expect(mails).toContain("Recibimos tu solicitud para devolver piezas de tu pedido");
  expect(mails).toContain("a Calle del Taller 12, Oaxaca, con tu n");
  expect(mails).toContain("te reembolsamos $2,100.00 MXN");
});
