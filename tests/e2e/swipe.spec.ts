import type { CDPSession, Locator, Page } from "@playwright/test";
import type { Database } from "~/db/database.server";
import {
  demoRunningDrop as demo,
  photographedPiece as photographed,
  photographedPiecePath,
} from "./support/demo-pieces";
import { expect, expectAccessible, test, untilHydrated } from "./support/fixtures";

const pieces = (n: number) =>
  ["Uno", "Dos", "Tres", "Cuatro", "Cinco", "Seis"].slice(0, n).map((name) => ({
    name: `Pieza ${name}`,
    priceCents: 100_000,
    stock: 1,
  }));

/** The name of the piece whose tile sits at the carousel's left edge: the one the shopper sees first. */
function leadingPiece(carousel: Locator) {
  return carousel.evaluate((region) => {
    const box = region.getBoundingClientRect();
    const shown = [...region.querySelectorAll("article")]
      .map((tile) => ({ name: tile.getAttribute("aria-label"), left: tile.getBoundingClientRect().left }))
      .filter((tile) => tile.left >= box.left - 2 && tile.left < box.right - 2)
      .sort((a, b) => a.left - b.left);
    return shown[0]?.name ?? null;
  });
}

/** A finger drawn sideways across the element (negative: towards the left), as real touch events. */
async function swipe(page: Page, cdp: CDPSession, target: Locator, dx: number) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error("nothing to swipe");
  const y = box.y + box.height / 2;
  const x = box.x + box.width / 2 - dx / 2;
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (let step = 1; step <= 10; step++) {
    await cdp.send("Input.dispatchTouchEvent", {
      type: "touchMove",
      touchPoints: [{ x: x + (dx * step) / 10, y }],
    });
    await page.waitForTimeout(16);
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

// Swiping is loaded after the page is shown; the list is taken over once it is there.
const swipeReady = (region: Locator) => expect(region.locator("[data-swipe]")).toHaveCount(1);

async function productPage(page: Page, database: Database) {
  await page.goto(await photographedPiecePath(database));
  const gallery = page.getByRole("region", { name: `Fotos de ${photographed?.name}` });
  // A photo's link opens the viewer once the page's code runs (before, it opens the image file).
  await untilHydrated(gallery.getByRole("link", { name: /^Ampliar foto 1 de/ }));
  return gallery;
}

test.describe("on a phone", () => {
  test.skip(({ isMobile }) => !isMobile, "touch gestures are a phone's");

  test("a swipe moves the home carousel to the next pieces", async ({ page, shop }) => {
    const drop = await shop.drop({ timing: "running", products: pieces(5) });
    await page.goto("/");
    const carousel = page.getByRole("region", { name: `Piezas de ${drop.name}` });
    await carousel.scrollIntoViewIfNeeded();
    await expect.poll(() => leadingPiece(carousel)).toBe("Pieza Uno");
    await swipeReady(carousel);
    const cdp = await page.context().newCDPSession(page);
    await swipe(page, cdp, carousel, -150);
    await expect.poll(() => leadingPiece(carousel)).toBe("Pieza Dos");
    await swipe(page, cdp, carousel, 150);
    await expect.poll(() => leadingPiece(carousel)).toBe("Pieza Uno");
    await swipe(page, cdp, carousel, 150);
    // It wraps around: before the first piece comes the last.
    await expect.poll(() => leadingPiece(carousel)).toBe("Pieza Cinco");
  });

  test("a swipe changes the product photo, its counter and the thumbnail marked", async ({
    page,
    database,
  }) => {
    const gallery = await productPage(page, database);
    const name = photographed?.name ?? "";
    await expect(gallery.getByRole("img", { name, exact: true })).toBeInViewport({ ratio: 0.9 });
    await swipeReady(gallery);
    await expect(gallery.getByText("1 / 5")).toBeVisible();
    const cdp = await page.context().newCDPSession(page);
    await swipe(page, cdp, gallery, -200);
    await expect(gallery.getByRole("img", { name: `${name}, vista 2` })).toBeInViewport({ ratio: 0.9 });
    await expect(gallery.getByRole("img", { name, exact: true })).not.toBeInViewport();
    await expect(gallery.getByText("2 / 5")).toBeVisible();
    await expect(page.getByRole("button", { name: "Ver imagen 2 de 5" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    // A thumbnail brings its photo back.
    await page.getByRole("button", { name: "Ver imagen 1 de 5" }).tap();
    await expect(gallery.getByText("1 / 5")).toBeVisible();
    await expect(gallery.getByRole("img", { name, exact: true })).toBeInViewport({ ratio: 0.9 });
  });

  test("tapping a photo opens it full size to zoom; Escape closes it", async ({ page, database }) => {
    const gallery = await productPage(page, database);
    const photo = gallery.getByRole("link", { name: "Ampliar foto 1 de 5" });
    const full = await photo.getAttribute("href");
    await photo.tap();
    const viewer = page.getByRole("dialog", { name: "Fotos ampliadas" });
    await expect(viewer).toBeVisible();
    // The largest stored copy, not the page's smaller one.
    const shown = viewer.getByRole("img", { name: photographed?.name, exact: true });
    await expect(shown).toHaveAttribute("src", full ?? "");
    await expect(viewer.getByRole("button", { name: "Cerrar" })).toBeVisible();
    await expect(viewer.getByRole("button", { name: "Alejar" })).toBeDisabled();
    await shown.dblclick();
    await expect(viewer.getByRole("button", { name: "Alejar" })).toBeEnabled();
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(viewer).toHaveCount(0);
    await expect(photo).toBeFocused();
  });

  test("a drop's picture leads to its collection, on home and on /colecciones", async ({ page }) => {
    if (!demo) throw new Error("the demo catalogue lacks a running drop");
    await page.goto("/");
    const section = page.getByRole("region", { name: demo.name, exact: true });
    const collection = await section.getByRole("link", { name: "Ver colección" }).getAttribute("href");
    // Announced once: the picture's link is hidden from screen readers and the keyboard.
    const picture = section.locator(`a[href="${collection}"][aria-hidden="true"][tabindex="-1"]`);
    await picture.tap();
    await expect(page).toHaveURL(collection ?? "");
    await expect(page.getByRole("heading", { level: 1, name: demo.name })).toBeVisible();

    await page.goto("/colecciones");
    const card = page.getByRole("article", { name: demo.name });
    await card.locator(`a[href="${collection}"][aria-hidden="true"][tabindex="-1"]`).tap();
    await expect(page).toHaveURL(collection ?? "");
  });
});

test("on a desktop the carousel moves with its buttons and arrow keys, and a photo opens from the keyboard", async ({
  page,
  shop,
  database,
  isMobile,
}) => {
  test.skip(isMobile, "the desktop's buttons and keys");
  const drop = await shop.drop({ timing: "running", products: pieces(5) });
  await page.goto("/");
  const carousel = page.getByRole("region", { name: `Piezas de ${drop.name}` });
  await carousel.getByRole("button", { name: `Siguiente en Piezas de ${drop.name}` }).click();
  await expect.poll(() => leadingPiece(carousel)).toBe("Pieza Dos");
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => leadingPiece(carousel)).toBe("Pieza Tres");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  // It wraps around: before the first piece comes the last.
  await expect.poll(() => leadingPiece(carousel)).toBe("Pieza Cinco");

  const gallery = await productPage(page, database);
  await gallery.getByRole("link", { name: "Ampliar foto 1 de 5" }).focus();
  await page.keyboard.press("Enter");
  const viewer = page.getByRole("dialog", { name: "Fotos ampliadas" });
  await expect(viewer).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(viewer.getByRole("img", { name: `${photographed?.name}, vista 2` })).toBeInViewport();
  await expectAccessible(page);
  await viewer.getByRole("button", { name: "Cerrar" }).click();
  await expect(viewer).toHaveCount(0);
  // The page behind follows the photo last seen in the viewer, and focus comes back to that photo
  // (not to the one first opened, now off the carousel's view), the counter still right.
  await expect(gallery.getByText("2 / 5")).toBeVisible();
  await expect(gallery.getByRole("link", { name: "Ampliar foto 2 de 5" })).toBeFocused();
  await expect(gallery.getByText("2 / 5")).toBeVisible();
});
