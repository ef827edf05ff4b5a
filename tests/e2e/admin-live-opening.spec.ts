import type { Locator, Page } from "@playwright/test";
import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { demoPayment } from "../support/catalogue";
import { E2E_PORT } from "./support/env";
import { expect, expectAccessible, test } from "./support/fixtures";

// The owner watches a drop's opening live (routes/admin/drops/opening.tsx): while shoppers, here
// scripted over HTTP as their browsers would send them, start checkouts and pay, the page's
// figures move without the page being loaded again.

const BASE = `http://127.0.0.1:${E2E_PORT}`;

/**
 * One shopper's checkout as the cart drawer sends it: the browser cookie (the cart's first
 * request gives it), a proof of work solved in the background, then the checkout itself.
 */
async function scriptedCheckout(line: { productId: string; dropId: string; quantity: number }) {
  const cart = await fetch(`${BASE}/api/cart`);
  await cart.arrayBuffer();
  const cookie =
    (cart.headers.getSetCookie().find((c) => c.startsWith("navegador=")) ?? "").split(";")[0] ?? "";
  const challenge = (await (await fetch(`${BASE}/api/reto`, { headers: { cookie } })).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const res = await fetch(`${BASE}/api/checkout`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: BASE,
      cookie,
      "x-altcha": Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"),
    },
    body: JSON.stringify({
      cart: [{ product: { id: line.productId }, dropId: line.dropId, quantity: line.quantity }],
    }),
  });
  return { status: res.status, body: (await res.json()) as { url?: string; message?: string } };
}

/** A row of one of the page's tables, by the name in its first column. */
const row = (page: Page, name: string | RegExp) => page.getByRole("row", { name });
/** The number in a row's column (Apartadas, Vendidas, Quedan; or Por segundo, Último minuto, Total). */
const column = (r: Locator, index: number) => r.getByRole("cell").nth(index);

test("an admin watches a running drop's opening: held, sold, left and checkouts move without reloading", async ({
  page,
  shop,
  admins,
}) => {
  test.setTimeout(90_000);
  // Opened two hours ago: past its opening's own rules (the lottery, the per-address cap), so the
  // three scripted shoppers, all from this machine's one address, are served in turn.
  const drop = await shop.drop({
    timing: "running",
    startAt: new Date(Date.now() - 2 * 3_600_000),
    products: [
      { name: "Anillo Apertura", priceCents: 450_000, stock: 5 },
      { name: "Aretes Apertura", priceCents: 320_000, stock: 3 },
    ],
  });
  const [ring, earrings] = drop.products;
  if (!ring || !earrings) throw new Error("the drop has no products");
  await admins.login(page);

  // From the drops desk: a running drop offers its live page.
  await page.goto("/admin/drops");
  await page
    .getByRole("article", { name: drop.name })
    .getByRole("link", { name: "Apertura en vivo" })
    .click();
  await expect(page.getByRole("heading", { name: `Apertura en vivo: ${drop.name}` })).toBeVisible();
  await expect(page).toHaveURL(`/admin/drops/${drop.id}/apertura`);
  const ringRow = row(page, /^Anillo Apertura/);
  await expect(column(ringRow, 0)).toHaveText("0"); // apartadas
  await expect(column(ringRow, 1)).toHaveText("0"); // vendidas
  await expect(column(ringRow, 2)).toHaveText("5"); // quedan
  const started = row(page, /^Iniciados/);
  await expect(column(started, 2)).toHaveText("0");
  await expect(page.getByTestId("opening-chart").locator("canvas")).toBeVisible();
  await expectAccessible(page);
  // Anything that loads the page again would lose this.
  await page.evaluate(() => {
    (window as unknown as { sinRecargar: boolean }).sinRecargar = true;
  });

  // The opening: three shoppers check out, one of them asking for more earrings than there are.
  const answers = await Promise.all([
    scriptedCheckout({ productId: ring.id, dropId: drop.id, quantity: 2 }),
    scriptedCheckout({ productId: ring.id, dropId: drop.id, quantity: 1 }),
    scriptedCheckout({ productId: earrings.id, dropId: drop.id, quantity: 4 }),
  ]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 409]);

  await expect(column(ringRow, 0)).toHaveText("3");
  await expect(column(ringRow, 2)).toHaveText("2");
  await expect(column(started, 2)).toHaveText("3");
  await expect(column(row(page, /^Apartaron/), 2)).toHaveText("2");
  await expect(column(row(page, "Rechazados: Sin piezas"), 2)).toHaveText("1");
  // Per second over the last minute: the three started ones are there.
  await expect(column(started, 1)).toHaveText("3");
  await expect(
    page
      .getByRole("row", { name: /^p99 de respuesta/ })
      .getByRole("cell")
      .last(),
  ).toHaveText(/ms$/);

  // One of them pays on the payment page: sold, and paid.
  const payment = answers[1]?.body.url ?? "";
  const paid = await fetch(`${BASE}${payment}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: new URLSearchParams(demoPayment("Ana Pérez", "ana@example.mx")).toString(),
    redirect: "manual",
  });
  expect(paid.status).toBe(302);
  await expect(column(ringRow, 0)).toHaveText("2");
  await expect(column(ringRow, 1)).toHaveText("1");
  await expect(column(ringRow, 2)).toHaveText("2");
  await expect(column(row(page, /^Pagados/), 2)).toHaveText("1");

  expect(await page.evaluate(() => (window as unknown as { sinRecargar?: boolean }).sinRecargar)).toBe(true);
});

test("the live page's figures are the admin's only", async ({ request }) => {
  const answer = await request.get("/admin/drops/abcdefghijklmnop/apertura/datos", { maxRedirects: 0 });
  expect(answer.status()).toBe(401);
  expect(await answer.json()).toEqual({ message: "Tu sesión terminó. Inicia sesión de nuevo." });
});
