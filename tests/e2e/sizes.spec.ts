import {
  expect,
  expectAccessible,
  fillDemoPayment,
  holdRouteScript,
  test,
  untilHydrated,
} from "./support/fixtures";
import { outboxMessagesWith } from "./support/outbox";

/*
 * A ring sold by size (issue 24, decision 34), the whole way: the size buttons with a sold-out
 * size disabled, the guide, a size required before adding, the address keeping the size, the
 * drawer's line, the demo payment page, and the size and the edition number in the e-mail, on the
 * admin's order, on the packing slip and on the certificate of authenticity.
 */

test("a ring by size: choose, see the guide, add, pay; the size and its number follow the order", async ({
  page,
  shop,
  cart,
  admins,
}) => {
  const drop = await shop.drop({
    timing: "running",
    products: [
      {
        name: "Anillo Oleaje",
        priceCents: 520_000,
        stock: 4,
        metal: { karat: 14, weightMg: 2_400, stones: null },
        editionSize: 30,
        option: {
          name: "Talla",
          values: [
            { value: "5", stock: 1 },
            { value: "6", stock: 0 },
            { value: "7", stock: 2 },
            { value: "8", stock: 1 },
          ],
        },
      },
    ],
  });
  const ring = drop.products[0];
  if (!ring) throw new Error("no ring");
  await page.goto(ring.href);

  // The sizes as buttons; the sold-out one is shown and cannot be chosen.
  const sizes = page.getByRole("group", { name: "Talla" });
  await expect(sizes.getByRole("radio")).toHaveCount(4);
  await expect(sizes.getByRole("radio", { name: "6 Agotada" })).toBeDisabled();
  await expect(sizes.getByRole("radio", { name: "7", exact: true })).toBeEnabled();

  // 'Agregar' without a size is refused in Spanish; nothing goes into the cart.
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(page.getByRole("alert")).toHaveText("Elige tu talla.");
  await expect(cart.count()).toHaveCount(0);

  // The guide: sizes with their inside diameter and circumference, and how to measure at home.
  await page.getByRole("button", { name: "Guía de tallas" }).click();
  const guide = page.getByRole("dialog", { name: "Guía de tallas" });
  await expect(guide.getByRole("row", { name: "7 17.3 mm 54.4 mm" })).toBeVisible();
  await expect(guide.getByRole("heading", { name: "Cómo medir tu talla en casa" })).toBeVisible();
  await expectAccessible(page);
  await guide.getByRole("button", { name: "Cerrar la guía" }).click();
  await expect(guide).toBeHidden();

  // Choosing a size: its own stock line, and the address keeps it.
  // (By its button: the closed guide, inside the same group, has a row named 7 too.)
  await sizes.locator("label").filter({ hasText: /^7$/ }).click();
  await expect(sizes.getByRole("radio", { name: "7", exact: true })).toBeChecked();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByTestId("stock")).toHaveText("Quedan 2");
  await expect(page).toHaveURL(/\?talla=7$/);
  await expectAccessible(page, { lighthouse: true });

  // A shared link opens with its size chosen. Another tapped before the page's code has run (a
  // slow phone) is the one chosen once it runs: its stock and address, not the link's.
  const release = await holdRouteScript(page, "product");
  await page.reload({ waitUntil: "commit" }); // the held script holds the page's load event
  await expect(sizes.getByRole("radio", { name: "7", exact: true })).toBeChecked();
  await sizes.locator("label").filter({ hasText: /^8$/ }).click();
  release();
  await untilHydrated(sizes.getByRole("radio", { name: "8", exact: true }));
  await expect(page.getByTestId("stock")).toHaveText("Queda 1");
  await expect(page).toHaveURL(/\?talla=8$/);
  await sizes.locator("label").filter({ hasText: /^7$/ }).click();
  await expect(page.getByTestId("stock")).toHaveText("Quedan 2");
  await page.getByRole("button", { name: "Uno más" }).click();
  await expect(page.getByRole("button", { name: "Uno más" })).toBeDisabled(); // 2 of size 7
  await page.getByRole("button", { name: "Uno menos" }).click();
  await page.getByRole("button", { name: "Agregar al carrito" }).click();

  // The drawer's line is the ring in its size.
  const line = cart.line("Anillo Oleaje talla 7");
  await expect(line).toContainText("Talla 7");
  await expect(line).toContainText("$5,200.00 x 1 = $5,200.00");
  await expectAccessible(page);

  // Pay on the demo page: the size is named there and in the confirmation e-mail, with its number.
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/);
  const orderId = page.url().split("/").pop() ?? "";
  await expect(page.getByText("Anillo Oleaje talla 7 × 1")).toBeVisible();
  expect(await shop.stockOf(ring.id)).toBe(3);
  await fillDemoPayment(page, { name: "Renata Ochoa", email: "renata@example.mx" });
  await page.getByRole("button", { name: /^Pagar/ }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  await expect.poll(() => outboxMessagesWith(orderId).length).toBe(1);
  const mail = outboxMessagesWith(orderId)[0] ?? "";
  expect(mail).toContain("Anillo Oleaje talla 7");
  expect(mail).toContain("Pieza 1 de 30");

  // The admin's order, its packing slip and the piece's certificate say the size and the number.
  await admins.login(page);
  await page.goto(`/admin/orders/${orderId}`);
  const lines = page.getByRole("region", { name: `Pedido ${orderId}` });
  await expect(lines).toContainText("Anillo Oleaje talla 7");
  await expect(lines).toContainText("Pieza 1 de 30");
  await page.getByRole("link", { name: "Hoja de empaque" }).click();
  await expect(page.getByRole("heading", { name: orderId, exact: true, level: 1 })).toBeVisible();
  await expect(page.getByText("Anillo Oleaje talla 7").first()).toBeVisible();
  const certificate = page.getByRole("article", { name: "Certificado de autenticidad" });
  await expect(certificate).toContainText("Anillo Oleaje talla 7");
  await expect(certificate).toContainText("Pieza 1 de 30");
  await expect(certificate).toContainText("Oro de 14 k (585)");
});

test("a length someone is paying for is shown held and disabled on the page, and leaves the drawer with the shop's word for it", async ({
  page,
  shop,
  cart,
}) => {
  const drop = await shop.drop({
    timing: "running",
    products: [
      {
        name: "Collar Bruma",
        priceCents: 310_000,
        stock: 3,
        categoria: "Collar",
        option: {
          name: "Largo",
          values: [
            { value: "40 cm", stock: 1 },
            { value: "45 cm", stock: 2 },
          ],
        },
      },
    ],
  });
  const necklace = drop.products[0];
  if (!necklace) throw new Error("no necklace");
  // A shared link with its length: chosen, and added.
  await page.goto(`${necklace.href}?largo=40+cm`);
  const lengths = page.getByRole("group", { name: "Largo" });
  await expect(lengths.getByRole("radio", { name: "40 cm", exact: true })).toBeChecked();
  await expect(page.getByTestId("stock")).toHaveText("Queda 1");
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(cart.line("Collar Bruma largo 40 cm")).toContainText("Largo 40 cm");
  await page.keyboard.press("Escape");

  // Someone else's checkout takes the last 40 cm before she pays.
  await shop.holdElsewhere(drop, necklace.id, 1, "40 cm");
  await page.goto(necklace.href);
  await expect(lengths.getByRole("radio", { name: "40 cm Apartado" })).toBeDisabled();
  await expect(lengths.getByRole("radio", { name: "45 cm", exact: true })).toBeEnabled();
  // Said to the eye too, not only to screen readers: held, not struck out as sold for good.
  await expect(
    lengths.getByText("Con borde punteado: apartados, pueden volver a estar disponibles."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Guía de largos" }).click();
  await expect(
    page.getByRole("dialog", { name: "Guía de largos" }).getByRole("row", { name: /^45 cm/ }),
  ).toBeVisible();
  await page.keyboard.press("Escape");

  await cart.open();
  await expect(cart.drawer.getByRole("status")).toContainText(
    "«Collar Bruma largo 40 cm»: Apartado — puede volver a estar disponible. Otra persona",
  );
  await expect(cart.line("Collar Bruma largo 40 cm")).toHaveCount(0);
  await expectAccessible(page);
});
