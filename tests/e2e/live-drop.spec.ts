import type { Locator, Page } from "@playwright/test";
import { photographedPiecePath } from "./support/demo-pieces";
import { expect, type TestDrop, test } from "./support/fixtures";

/*
 * The drop's moment, live (decision 17): open pages flip the second a drop opens or ends, on the
 * server's clock (the shop runs on this machine, so the test's clock is the server's), and the
 * running drop's bar never sits over a piece.
 */

const MINUTE = 60_000;

/** A whole second at least `seconds` from now: drop dates are set to the second. */
function secondsFromNow(seconds: number): Date {
  return new Date(Math.ceil((Date.now() + seconds * 1000) / 1000) * 1000);
}

/** An end of 18:00:00 sells through 18:00:00.999 (SPEC §4: the end is inclusive). */
const salesStop = (endAt: Date) => endAt.getTime() + 1000;

async function waitUntil(instant: number) {
  const wait = instant - Date.now();
  expect(wait, "the drop's moment came before the pages were ready").toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/** A mark in the page that a reload would wipe. */
async function markLoaded(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { sinRecarga: boolean }).sinRecarga = true;
  });
}
async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { sinRecarga?: boolean }).sinRecarga)).toBe(true);
}

const addButton = (page: Page) => page.getByRole("button", { name: "Agregar al carrito" });

/** Waits for the add-to-cart button to come or go, looking every 50 ms so the moment is measured closely. */
async function expectAddButton(page: Page, count: 0 | 1) {
  await expect.poll(() => addButton(page).count(), { intervals: [50], timeout: 3_000 }).toBe(count);
}
const dropSection = (page: Page, drop: TestDrop) =>
  page.getByRole("region", { name: drop.name, exact: true });
const tile = (page: Page, name: string) => page.getByRole("article", { name });

/** Opens a drop's product, collection and home pages side by side, as three tabs. */
async function openPages(page: Page, drop: TestDrop) {
  const product = drop.products[0];
  if (!product) throw new Error("no product");
  const collection = await page.context().newPage();
  const home = await page.context().newPage();
  await Promise.all([page.goto(product.href), collection.goto(drop.href), home.goto("/")]);
  // Hydrated: the countdown or the opening text ticks only once the page's script runs.
  for (const p of [page, collection, home]) await markLoaded(p);
  return { product: page, collection, home };
}

test("a running drop ends on open pages at the server's second: 'Finalizado', nothing to add", {
  tag: "@once",
}, async ({ page, shop }) => {
  const endAt = secondsFromNow(9);
  const drop = await shop.drop({
    timing: "running",
    endAt,
    products: [{ name: "Anillo Última Hora", priceCents: 300_000, stock: 5 }],
  });
  const pages = await openPages(page, drop);
  await expect(addButton(pages.product)).toBeVisible();
  await expect(pages.product.getByTestId("drop-state")).toHaveText("Activo");
  await expect(pages.collection.getByText(/^Activo · /)).toBeVisible();
  await expect(dropSection(pages.home, drop).getByText("Activo", { exact: true })).toBeVisible();

  // Not a moment early: still on sale just before the end's second is over.
  await waitUntil(salesStop(endAt) - 700);
  await expect(addButton(pages.product)).toBeVisible();

  await expectAddButton(pages.product, 0);
  expect(Date.now() - salesStop(endAt), "flipped late").toBeLessThan(1_500);
  await expect(pages.product.getByTestId("drop-state")).toHaveText("Finalizado");
  await expect(pages.product.getByText("Colección finalizada")).toBeVisible();
  await expect(pages.collection.getByText(/^Finalizado · /)).toBeVisible();
  await expect(tile(pages.collection, "Anillo Última Hora").getByText("Colección finalizada")).toBeVisible();
  const section = dropSection(pages.home, drop);
  await expect(section.getByText("Finalizado", { exact: true })).toBeVisible();
  await expect(section.getByText("Colección finalizada").first()).toBeVisible();
  // The bar does not sit at 00 00 00 for the ended drop: it moved on to another one, or left.
  await expect(pages.home.getByRole("link", { name: `${drop.name}: termina en` })).toHaveCount(0);
  for (const p of Object.values(pages)) await expectNotReloaded(p);
});

test("an upcoming drop shows when it opens and becomes buyable at that second, without a reload", {
  tag: "@once",
}, async ({ page, shop }) => {
  const startAt = secondsFromNow(10);
  const drop = await shop.drop({
    timing: "upcoming",
    status: "proximamente",
    startAt,
    endAt: new Date(startAt.getTime() + 60 * MINUTE),
    products: [{ name: "Arete Estreno", priceCents: 200_000, stock: 3 }],
  });
  const pages = await openPages(page, drop);
  // Other upcoming drops may be on the home page too: there, this drop's own section.
  for (const where of [pages.product, pages.collection, dropSection(pages.home, drop)]) {
    await expect(
      where.getByText(/^Abre el \S+ \d+ de \S+, \d\d:\d\d h \(hora de la Ciudad de México\)$/),
    ).toBeVisible();
    await expect(where.getByTestId("opening-countdown")).toHaveText(/^00 h 00 min \d\d s$/);
  }
  await expect(pages.product.getByText("Disponible próximamente")).toBeVisible();
  await expect(addButton(pages.product)).toHaveCount(0);
  await expect(pages.collection.getByText(/^Próximamente · /)).toBeVisible();
  // The countdown runs toward the opening.
  const before = await pages.product.getByTestId("opening-countdown").textContent();
  await expect.poll(() => pages.product.getByTestId("opening-countdown").textContent()).not.toBe(before);

  await waitUntil(startAt.getTime() - 700);
  await expect(addButton(pages.product)).toHaveCount(0);

  await expectAddButton(pages.product, 1);
  expect(Date.now() - startAt.getTime(), "opened late").toBeLessThan(1_500);
  await expect(pages.product.getByTestId("drop-state")).toHaveText("Activo");
  await expect(pages.product.getByText(/^Abre el /)).toHaveCount(0);
  await expect(pages.collection.getByText(/^Activo · /)).toBeVisible();
  await expect(tile(pages.collection, "Arete Estreno").getByText("Disponible próximamente")).toHaveCount(0);
  await expect(dropSection(pages.home, drop).getByText("Activo", { exact: true })).toBeVisible();
  for (const p of Object.values(pages)) await expectNotReloaded(p);

  // And it is really on sale: the piece goes into the cart.
  await addButton(pages.product).click();
  await expect(pages.product.getByRole("dialog", { name: "Carrito de compras" })).toContainText(
    "Arete Estreno",
  );
});

test.describe("a browser whose clock is minutes off still follows the server's clock", {
  tag: "@once",
}, () => {
  test("seven minutes ahead: the drop ends at the server's second, not before", async ({ page, shop }) => {
    await page.clock.install({ time: Date.now() + 7 * MINUTE });
    const endAt = secondsFromNow(7);
    const drop = await shop.drop({
      timing: "running",
      endAt,
      products: [{ name: "Collar Adelantado", priceCents: 500_000, stock: 2 }],
    });
    const measured = page.waitForResponse((r) => r.url().endsWith("/api/hora"));
    await page.goto(drop.products[0]?.href ?? "/");
    await measured;
    // The phone thinks the drop ended minutes ago; the server says it still runs.
    expect(await page.evaluate(() => Date.now())).toBeGreaterThan(salesStop(endAt) + 5 * MINUTE);
    await expect(addButton(page)).toBeVisible();
    await waitUntil(salesStop(endAt) - 700);
    await expect(addButton(page)).toBeVisible();
    await expectAddButton(page, 0);
    expect(Date.now() - salesStop(endAt)).toBeLessThan(1_500);
    await expect(page.getByTestId("drop-state")).toHaveText("Finalizado");
  });

  test("seven minutes behind: the drop opens at the server's second", async ({ page, shop }) => {
    await page.clock.install({ time: Date.now() - 7 * MINUTE });
    const startAt = secondsFromNow(7);
    const drop = await shop.drop({
      timing: "upcoming",
      startAt,
      endAt: new Date(startAt.getTime() + 60 * MINUTE),
      products: [{ name: "Pulsera Atrasada", priceCents: 500_000, stock: 2 }],
    });
    await page.goto(drop.products[0]?.href ?? "/");
    await expect(page.getByText("Disponible próximamente")).toBeVisible();
    // The countdown counts on the server's clock too: seconds, not seven minutes.
    await expect(page.getByTestId("opening-countdown")).toHaveText(/^00 h 00 min \d\d s$/);
    await waitUntil(startAt.getTime() - 700);
    await expect(addButton(page)).toHaveCount(0);
    await expectAddButton(page, 1);
    expect(Date.now() - startAt.getTime()).toBeLessThan(1_500);
  });
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Before any scrolling, the bar covers none of the targets in sight; tells how many were in sight. */
async function expectFirstViewClear(page: Page, targets: Locator): Promise<number> {
  const bar = page.locator("[data-drop-bar]");
  await expect(bar).toBeVisible();
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  const height = page.viewportSize()?.height ?? 0;
  const barBox = await bar.boundingBox();
  const count = Math.min(await targets.count(), 8);
  let inSight = 0;
  for (let i = 0; i < count; i++) {
    const box = await targets.nth(i).boundingBox();
    if (!barBox || !box || box.y >= height) continue;
    inSight++;
    expect(overlaps(barBox, box), `the bar covers target ${i} at first view`).toBe(false);
  }
  return inSight;
}

/**
 * Brings each target to the top and to the bottom of the screen, as scrolling to it does, and
 * then to the very end of the page: the bar's box must never meet the target's.
 */
async function expectBarCoversNothing(page: Page, targets: Locator) {
  const bar = page.locator("[data-drop-bar]");
  await expect(bar).toBeVisible();
  const count = Math.min(await targets.count(), 8);
  // On a wide screen the bar is docked at the top of the page: nothing in sight is under it.
  if ((page.viewportSize()?.width ?? 0) >= 1024) await expectFirstViewClear(page, targets);
  let checked = 0;
  for (let i = 0; i < count; i++) {
    const target = targets.nth(i);
    if (!(await target.isVisible())) continue;
    for (const block of ["start", "end"] as const) {
      await target.evaluate((el, b) => el.scrollIntoView({ block: b, behavior: "instant" }), block);
      const [barBox, targetBox] = await Promise.all([bar.boundingBox(), target.boundingBox()]);
      if (!barBox || !targetBox) throw new Error("no box");
      expect(overlaps(barBox, targetBox), `the bar covers target ${i} scrolled to its ${block}`).toBe(false);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(0);
  await page.evaluate(() =>
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }),
  );
  const barBox = await bar.boundingBox();
  for (let i = 0; i < count; i++) {
    const box = await targets.nth(i).boundingBox();
    if (barBox && box) expect(overlaps(barBox, box), `the bar covers target ${i} at the end`).toBe(false);
  }
}

test("the running drop's bar covers no piece on home, collection and product", async ({ page, shop }) => {
  // A laptop's first screen (1280x800) shows the product gallery's thumbnails at its foot.
  if ((page.viewportSize()?.width ?? 0) >= 1024) await page.setViewportSize({ width: 1280, height: 800 });
  const drop = await shop.drop({
    timing: "running",
    // Ends first among the running drops, so the home page's bar is this one's.
    endAt: new Date(Date.now() + 2 * MINUTE),
    products: Array.from({ length: 7 }, (_, i) => ({
      name: `Anillo Rejilla ${i + 1}`,
      priceCents: 100_000 + i * 1000,
      stock: 3,
    })),
  });
  await page.goto("/");
  await expectBarCoversNothing(page, dropSection(page, drop).getByRole("article"));
  await expectBarCoversNothing(page, page.getByRole("article"));

  await page.goto(drop.href);
  await expectBarCoversNothing(page, page.getByRole("article"));

  await page.goto(drop.products[0]?.href ?? "/");
  await expectBarCoversNothing(
    page,
    page
      .locator("main")
      .getByRole("img")
      .or(page.getByRole("heading", { level: 1 }))
      .or(addButton(page)),
  );
});

test("the gallery's thumbnails are in sight and clear of the bar at first view, phone and laptop", async ({
  page,
  database,
}) => {
  // The demo's running drop: its first piece has five photos, so the gallery shows thumbnails.
  if ((page.viewportSize()?.width ?? 0) >= 1024) await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(await photographedPiecePath(database));
  const thumbnails = page.getByRole("button", { name: /^Ver imagen \d de 5$/ });
  await expect(thumbnails).toHaveCount(5);
  expect(await expectFirstViewClear(page, thumbnails), "thumbnails in sight at first view").toBe(5);
  await expectBarCoversNothing(page, thumbnails);
});
