import { CartUtil, expect, test } from "./support/fixtures";

/*
 * The opening's line in the drawer (decision 27): two shoppers ask for the last piece in the
 * drop's first seconds; both are told they are in the draw, then one goes to the payment page and
 * the other is told the piece is held and she is next in line.
 */
test("in the opening's first seconds 'Pagar' waits in the draw; then one shopper pays and the other is told she is next", async ({
  page,
  browser,
  shop,
  cart,
}) => {
  test.skip(test.info().project.name !== "phone", "drop day happens on phones; the draw takes 10 seconds");
  // The draw itself takes 10 seconds.
  test.setTimeout(90_000);
  // Opened a moment ago: its 10-second lottery is on.
  const drop = await shop.drop({
    timing: "running",
    startAt: new Date(Date.now() - 1_000),
    products: [{ name: "Anillo Sorteo", priceCents: 650_000, stock: 1 }],
  });
  const href = drop.products[0]?.href ?? "";
  // A second shopper: a browser of her own, on the same phone size.
  const other = await browser.newContext(test.info().project.use);
  const otherPage = await other.newPage();
  const otherCart = new CartUtil(otherPage);
  try {
    await cart.addFromProductPage(href);
    await otherCart.addFromProductPage(href);
    // Adding a piece opens the drawer.
    for (const c of [cart, otherCart]) await c.drawer.getByRole("button", { name: "Pagar" }).click();
    for (const c of [cart, otherCart]) {
      await expect(c.drawer.getByRole("status")).toContainText("Estás en la fila de la apertura.");
      await expect(c.drawer.getByRole("status")).toContainText("Llegar antes no da ventaja.");
      await expect(c.drawer.getByRole("button", { name: "En la fila..." })).toBeDisabled();
      // The place keeps the cart it was taken with: its lines cannot change meanwhile.
      await expect(c.drawer.getByRole("button", { name: "Quitar uno de Anillo Sorteo" })).toBeDisabled();
      await expect(
        c.drawer.getByRole("button", { name: "Eliminar Anillo Sorteo del carrito" }),
      ).toBeDisabled();
    }
    // After the draw: one of them on the payment page, the other told the piece is held.
    const paying = async (p: typeof page) => /\/pago-demo\//.test(p.url());
    await expect
      .poll(async () => (await paying(page)) || (await paying(otherPage)), { timeout: 20_000 })
      .toBe(true);
    const [winner, loser] = (await paying(page)) ? [page, otherCart] : [otherPage, cart];
    await expect(winner.getByText("Anillo Sorteo × 1")).toBeVisible();
    await expect(loser.drawer.getByRole("status")).toContainText("Eres la siguiente persona en la fila.");
    await expect(loser.drawer.getByRole("status")).toContainText(
      "Las piezas que quieres están apartadas por otras personas. Si alguna se libera, será para quien sigue en la fila.",
    );
    expect(await shop.stockOf(drop.products[0]?.id ?? "")).toBe(0);
  } finally {
    await other.close();
  }
});
