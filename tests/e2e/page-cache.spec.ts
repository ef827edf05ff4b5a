import type { Page, Response } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/** Opens `href` until the answer comes from the page cache (the first visit may render it). */
async function gotoCached(page: Page, href: string): Promise<Response> {
  for (let i = 0; i < 10; i++) {
    const response = await page.goto(href);
    if (response?.headers()["x-cache"] === "HIT") return response;
  }
  throw new Error(`${href} was never served from the cache`);
}

test("a product page served from the cache hydrates and runs with no CSP violation", {
  tag: "@once",
}, async ({ page, shop, cart }) => {
  // The `pageErrors` fixture fails the test on any console error, CSP violations included.
  const { product } = await shop.piece({ name: "Anillo Caché", priceCents: 320_000, stock: 4 });
  const response = await gotoCached(page, product.href);
  const csp = response.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
  expect(csp).not.toContain("nonce");
  // Hydrated: the quantity selector and the add button are React's, the drawer opens with the piece.
  await page.getByRole("button", { name: "Uno más" }).click();
  await page.getByRole("button", { name: "Agregar al carrito" }).click();
  await expect(cart.drawer).toBeVisible();
  await expect(cart.line("Anillo Caché")).toBeVisible();
  await expect(cart.count()).toHaveText("2");
});

test("a cached page's CSP still blocks an inline script injected into it", { tag: "@once" }, async ({
  browser,
}) => {
  // A page of its own: the violation this test provokes is an expected console error.
  const context = await browser.newContext();
  const page = await context.newPage();
  await gotoCached(page, "/colecciones");
  const outcome = await page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
    const script = document.createElement("script");
    script.textContent = "window.__injected = true;";
    document.body.append(script);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { ran: (window as { __injected?: boolean }).__injected === true, violations };
  });
  expect(outcome.ran).toBe(false);
  expect(outcome.violations).toEqual([expect.stringMatching(/^script-src(-elem)? inline$/)]);
  await context.close();
});
