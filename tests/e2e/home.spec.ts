import { DEMO_DROPS } from "../../app/demo/catalogue";
import { expect, test } from "./support/fixtures";

const running = DEMO_DROPS.find((d) => d.role === "running");
const archived = DEMO_DROPS.find((d) => d.role === "archived");

test("the home page shows the running demo drop, rendered by the server", async ({ page }) => {
  if (!running || !archived) throw new Error("demo catalogue lacks a running or archived drop");
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);

  const section = page.getByRole("region", { name: running.name, exact: true });
  await expect(section).toBeVisible();
  await expect(section.getByText("Activo", { exact: true })).toBeVisible();
  await expect(section.getByText(running.smallDescription)).toBeVisible();
  // Its pieces are listed with images that load once scrolled into view (they are lazy).
  const firstImage = section.getByRole("img", { name: running.products[0]?.name });
  await expect(firstImage).toHaveAttribute("loading", "lazy");
  await firstImage.scrollIntoViewIfNeeded();
  await expect
    .poll(() => firstImage.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  // Archived drops stay off the home page.
  await expect(page.getByRole("region", { name: archived.name, exact: true })).toHaveCount(0);

  // The HTML came from the server, not from JavaScript in the browser.
  const html = await (await page.request.get("/")).text();
  expect(html).toContain(running.name);
});

test("an unknown address is a real 404 page in Spanish", async ({ page }) => {
  const response = await page.goto("/no-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Página no encontrada" })).toBeVisible();
});
