import type { Page, Response } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/*
 * The signed browser cookie and the proof of work made for it (decision 30), in a real browser:
 * the shopper never sees either, whatever happens to the cookie.
 */

/** The checkout requests' answers: status and the proof refusal's reason, if any. */
function checkoutAnswers(page: Page): { status: number; refused: string | null }[] {
  const answers: { status: number; refused: string | null }[] = [];
  page.on("response", (response: Response) => {
    if (!response.url().endsWith("/api/checkout")) return;
    answers.push({ status: response.status(), refused: response.headers()["x-reto-rechazado"] ?? null });
  });
  return answers;
}

const SIGNED = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

test("a returning shopper with an old unsigned cookie is given a signed one, and her first 'Pagar' reaches the payment page", {
  tag: "@once",
}, async ({ page, context, shop, cart, baseURL }) => {
  test.slow(); // the proof of work at the shop's own difficulty
  // The cookie as the shop issued it before it signed them: no browser now.
  await context.addCookies([{ name: "navegador", value: "AbCdEfGhIjKlMnOpQrStUv", url: baseURL ?? "" }]);
  const { product } = await shop.piece({ name: "Anillo Firmado", priceCents: 120_000, stock: 2 });
  const answers = checkoutAnswers(page);
  // Her first /api requests, the drawer's check and the challenge, go out together and each is
  // given a cookie: the drawer's answer is held back here so that it comes last, and its cookie
  // is the one the browser keeps, not the one the challenge was made for.
  let challenges = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/reto")) challenges++;
  });
  // Both answers pass through the test, so the order holds on a busy machine too (waiting for
  // the challenge's response event once let it slip by and held the drawer's for the next one).
  let challengeAnswered: () => void = () => {};
  const firstChallenge = new Promise<void>((resolve) => {
    challengeAnswered = resolve;
  });
  await page.route(
    "**/api/reto",
    async (route) => {
      await route.fulfill({ response: await route.fetch() });
      challengeAnswered();
    },
    { times: 1 },
  );
  await page.route("**/api/cart?*", async (route) => {
    const response = await route.fetch();
    await firstChallenge;
    await route.fulfill({ response });
  });
  await cart.addFromProductPage(product.href);
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/, { timeout: 30_000 });
  // The challenge came with a new cookie, so the page asked again once solved, learned the
  // cookie had changed and solved one for it: the first checkout went through.
  expect(answers).toEqual([{ status: 200, refused: null }]);
  expect(challenges).toBeGreaterThanOrEqual(3);
  const cookie = (await context.cookies()).find((c) => c.name === "navegador");
  expect(cookie?.value).toMatch(SIGNED);
  expect(cookie?.httpOnly).toBe(true);
});

test("a proof made for a cookie since lost is refused, and the page solves one for the new cookie on its own", {
  tag: "@once",
}, async ({ page, context, shop, cart }) => {
  test.slow();
  const { product } = await shop.piece({ name: "Arete Perdido", priceCents: 90_000, stock: 2 });
  // The browser has its cookie before the cart fills: its challenge is made for that one.
  await page.goto("/");
  await page.request.get("/api/cart");
  const challenged = page.waitForResponse((response) => response.url().endsWith("/api/reto"));
  const answers = checkoutAnswers(page);
  await cart.addFromProductPage(product.href);
  await challenged;
  // The cookie is lost (cleared, expired) while the proof is solved, and another one is issued.
  await context.clearCookies();
  await page.request.get("/api/cart");
  await cart.drawer.getByRole("button", { name: "Pagar" }).click();
  await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/, { timeout: 30_000 });
  expect(answers).toEqual([
    { status: 400, refused: "ajeno" },
    { status: 200, refused: null },
  ]);
});
