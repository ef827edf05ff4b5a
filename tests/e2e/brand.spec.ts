import type { Page } from "@playwright/test";
import { HERO_IMAGE } from "~/content/brand";
import { expect, test } from "./support/fixtures";

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Sums the page's layout shifts from its first paint on (as Cumulative Layout Shift counts them). */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { layoutShift: number };
    w.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) w.layoutShift += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

const layoutShift = (page: Page) =>
  page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);

/** The families the page's text is drawn in, once every font it asked for has arrived. */
async function fontsInUse(page: Page) {
  return page.evaluate(async () => {
    await document.fonts.ready;
    const loaded = [...document.fonts]
      .filter((f) => f.status === "loaded")
      .map((f) => f.family.replace(/"/g, ""));
    const first = (el: Element | null) =>
      el ? getComputedStyle(el).fontFamily.split(",")[0]?.replace(/"/g, "") : "";
    return {
      loaded,
      heading: first(document.querySelector("h1")),
      text: first(document.querySelector("main p")),
      drawnInBrandType:
        document.fonts.check('16px "Jost Variable"') &&
        document.fonts.check('32px "Cormorant Garamond Variable"'),
    };
  });
}

test.describe("the brand's type", () => {
  test.skip(() => test.info().project.name !== "phone", "measured on a 360 px phone");

  test("the web fonts are used, and arriving late they shift nothing on home and a product page (CLS < 0.02)", async ({
    page,
    shop,
  }) => {
    const { product } = await shop.piece({ name: "Anillo Tipográfico", priceCents: 320_000, stock: 4 });
    // The fonts come 1.2 s after they are asked for: the page is drawn first in the fallback faces.
    let fontRequests = 0;
    await page.route("**/assets/*.woff2", async (route) => {
      fontRequests++;
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      await route.continue();
    });
    await recordLayoutShifts(page);
    for (const path of ["/", product.href]) {
      await page.goto(path);
      const fonts = await fontsInUse(page);
      expect(fonts.loaded).toEqual(expect.arrayContaining(["Jost Variable", "Cormorant Garamond Variable"]));
      expect(fonts.drawnInBrandType).toBe(true);
      expect(fonts.heading).toBe("Cormorant Garamond Variable");
      expect(fonts.text).toBe("Jost Variable");
      // Let the swap's layout settle, then count what moved.
      await page.waitForTimeout(300);
      const shift = await layoutShift(page);
      test.info().annotations.push({ type: "CLS", description: `${path}: ${shift.toFixed(4)}` });
      expect(shift, `layout shift on ${path}`).toBeLessThan(0.02);
    }
    expect(fontRequests).toBeGreaterThanOrEqual(2);
  });

  test("the hero title never runs over the artwork, from 360 to 1280 px", async ({ page }) => {
    await page.goto("/");
    const title = page.getByRole("heading", { level: 1 });
    const art = page.getByRole("img", { name: HERO_IMAGE.alt });
    for (const width of [360, 390, 768, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.evaluate(() => document.fonts.ready);
      const [titleBox, artBox] = await Promise.all([title.boundingBox(), art.boundingBox()]);
      if (!titleBox || !artBox) throw new Error("no hero title or artwork");
      expect(artBox.width, `the artwork shows at ${width} px`).toBeGreaterThan(100);
      expect(intersects(titleBox, artBox), `title over the artwork at ${width} px`).toBe(false);
    }
  });
});
