import { expect, expectAccessible, expectNoSidewaysScroll, fillDemoPayment, test } from "./support/fixtures";
import { outboxMessagesWith } from "./support/outbox";

/*
 * OXXO on the embedded defaults (issue 26, decision 42): the owner turns it on in Configuración; a
 * shopper pays a piece with a demo OXXO voucher from 'Pagar' to /success with its reference, gets
 * the voucher by e-mail (the outbox), and once the demo page's 'paid' button plays the store's
 * part, the order is 'Pendiente' on the owner's desk. The piece's drop opened 3 hours ago: every
 * other test's drop opened an hour ago and is still 'solo tarjeta', so their payment pages stay
 * as they were while OXXO is on.
 */

test("a demo OXXO voucher: from 'Pagar' to /success with its reference and e-mail, then paid and 'Pendiente'", async ({
  page,
  browser,
  shop,
  cart,
  admins,
}) => {
  const drop = await shop.drop({
    timing: "running",
    startAt: new Date(Date.now() - 3 * 3_600_000),
    products: [{ name: "Arracadas Ficha", priceCents: 350_000, stock: 1 }],
  });
  const [piece] = drop.products;
  if (!piece) throw new Error("no product");

  const owner = await browser.newContext();
  try {
    const desk = await owner.newPage();
    await admins.login(desk);
    await desk.goto("/admin/settings");
    const oxxo = desk.getByRole("checkbox", { name: "Aceptar pago en efectivo en OXXO" });
    await oxxo.check();
    await desk.getByRole("button", { name: "Guardar configuración" }).click();
    await expect(desk).toHaveURL(/aviso=guardado/);
    await expect(oxxo).toBeChecked();

    await cart.addFromProductPage(piece.href);
    await cart.drawer.getByRole("button", { name: "Pagar" }).click();
    await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/);
    const orderId = page.url().split("/").pop() ?? "";
    const email = `ficha-${orderId.toLowerCase()}@example.mx`;
    await fillDemoPayment(page, { name: "Rosa Efectivo", email });
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: "Pagar en OXXO", exact: true }).click();

    await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Paga tu pedido: Efectivo en OXXO" })).toBeVisible();
    const reference = (await page.getByTestId("voucher-reference").textContent())?.trim() ?? "";
    expect(reference).toMatch(/^9300\d{10}$/);
    await expect(page.getByText(/Apartamos tus piezas hasta el .* a las 23:59/)).toBeVisible();
    await expect(page.getByTestId("order-email")).toContainText(email);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);

    // The voucher reached the buyer's mailbox with the same reference.
    await expect.poll(() => outboxMessagesWith(email).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const [voucherMail] = outboxMessagesWith(email);
    expect(voucherMail).toContain(reference);
    expect(voucherMail).toContain("OXXO");

    // The piece stays held: the product page says it is gone for now.
    await page.goto(piece.href);
    await expect(page.getByRole("button", { name: "Agregar al carrito" })).toHaveCount(0);

    // The store's part, on the demo page: paid.
    await page.goto(`/pago-demo/${orderId}`);
    await expect(
      page.getByRole("heading", { name: "Ficha de demostración: Efectivo en OXXO" }),
    ).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Simular pago recibido" }).click();
    await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();

    await desk.goto(`/admin/orders/${orderId}`);
    await expect(desk.getByText("Pendiente", { exact: true }).first()).toBeVisible();
    await desk.goto("/admin/orders?tab=pendiente");
    await expect(desk.getByRole("link", { name: orderId })).toBeVisible();
    await expect
      .poll(() => outboxMessagesWith(email).some((m) => m.includes("gracias por tu compra")), {
        timeout: 10_000,
      })
      .toBe(true);
  } finally {
    await owner.close();
  }
});
