import { expect, type Locator, type Page } from "@playwright/test";

/*
 * What a phone's first screen must hold, and the proof that nothing fixed or sticky (the running
 * drop's bar, the header) lies over it: each element's box is inside the screen, clear of the
 * bar's box, and the topmost element at its centre (and just inside its top and bottom edges) is
 * the element itself or a part of it (document.elementFromPoint).
 */

/**
 * A product page's essentials, by name. A later row of choices (the sizes' buttons) is added
 * here as one more entry, and every check below covers it too.
 */
export function productEssentials(page: Page, options: { sizes?: boolean } = {}): Record<string, Locator> {
  const main = page.getByRole("main");
  return {
    "first photo": main.getByRole("link", { name: /^Ampliar foto 1 de \d+$/ }),
    name: main.getByRole("heading", { level: 1 }),
    price: main.getByTestId("price"),
    ...(options.sizes ? { "size buttons": main.getByRole("group", { name: /^(Talla|Largo)$/ }) } : {}),
    "Agregar al carrito": main.getByRole("button", { name: "Agregar al carrito" }),
  };
}

/** Where the topmost element at three points of `target` lies: whether each is `target` or in it. */
async function uncoveredPoints(
  target: Locator,
): Promise<{ point: string; hit: string | null; ok: boolean }[]> {
  return target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const inset = Math.min(2, box.height / 4);
    const points: [string, number][] = [
      ["centre", box.top + box.height / 2],
      ["top", box.top + inset],
      ["bottom", box.bottom - inset],
    ];
    return points.map(([point, y]) => {
      const hit = document.elementFromPoint(x, y);
      const nameOf = (e: Element | null) =>
        e ? `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}.${String(e.className).slice(0, 60)}` : null;
      return { point, hit: nameOf(hit), ok: hit !== null && (hit === el || el.contains(hit)) };
    });
  });
}

/** Each target, as the screen is now: wholly inside it, not under the bar, topmost where it is. */
export async function expectInSightUncovered(page: Page, targets: Record<string, Locator>) {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error("no viewport");
  const bar = page.locator("[data-drop-bar]");
  const barBox = (await bar.count()) > 0 ? await bar.boundingBox() : null;
  for (const [name, target] of Object.entries(targets)) {
    await expect(target, `${name} is on the page`).toBeVisible();
    const box = await target.boundingBox();
    if (!box) throw new Error(`${name}: no box`);
    expect(box.y, `${name} starts inside the screen`).toBeGreaterThanOrEqual(0);
    expect(
      box.y + box.height,
      `${name} ends inside the screen (height ${viewport.height})`,
    ).toBeLessThanOrEqual(viewport.height);
    expect(box.x, `${name} starts inside the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends inside the screen`).toBeLessThanOrEqual(viewport.width);
    if (barBox) {
      const clear = box.y + box.height <= barBox.y || box.y >= barBox.y + barBox.height;
      expect(clear, `${name} (y ${box.y}–${box.y + box.height}) clear of the bar (y ${barBox.y}–)`).toBe(
        true,
      );
    }
    for (const { point, hit, ok } of await uncoveredPoints(target)) {
      expect(ok, `${name}: at its ${point} the topmost element is ${hit}`).toBe(true);
    }
  }
}

/** The page's first screen, before any scrolling, holds every target, uncovered. */
export async function expectOnFirstScreen(page: Page, targets: Record<string, Locator>) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await expectInSightUncovered(page, targets);
}
