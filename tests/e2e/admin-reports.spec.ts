import fs from "node:fs";
import type { Locator } from "@playwright/test";
import { newId } from "~/lib/ids";
import { expect, expectAccessible, test } from "./support/fixtures";

/** How many pixels of the chart's canvas uPlot has painted. */
async function paintedPixels(canvas: Locator): Promise<number> {
  return canvas.evaluate((element) => {
    const c = element as HTMLCanvasElement;
    const pixels = c.getContext("2d")?.getImageData(0, 0, c.width, c.height).data ?? [];
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) painted++;
    return painted;
  });
}

test("Reportes: the chart is drawn, a drop's figures match its paid orders, the CSV downloads", async ({
  page,
  shop,
  admins,
}) => {
  const tag = newId(5);
  const drop = await shop.drop({
    timing: "running",
    name: `Reporte ${tag}`,
    products: [
      { name: `Anillo Sol ${tag}`, priceCents: 1_250_000, stock: 2 },
      { name: `Arete Luna ${tag}`, priceCents: 450_000, stock: 5 },
    ],
  });
  const [sol, luna] = drop.products;
  if (!sol || !luna) throw new Error("products missing");
  // Paid: Anillo Sol ×2 ($25,000.00, its last pieces) and Arete Luna ×1 ($4,500.00).
  await shop.payElsewhere(await shop.holdElsewhere(drop, sol.id, 2));
  await shop.payElsewhere(await shop.holdElsewhere(drop, luna.id, 1));
  // Still waiting for payment: not a sale.
  await shop.holdElsewhere(drop, luna.id, 1);

  await admins.login(page);
  await page.goto("/admin/reports");
  await expect(page.getByRole("heading", { name: "Reportes", level: 1 })).toBeVisible();
  // The whole shop (the demo catalogue and what other tests sold): the chart is drawn.
  const canvas = page.getByTestId("sales-chart").locator("canvas");
  await expect(canvas).toBeVisible();
  await expect.poll(() => paintedPixels(canvas)).toBeGreaterThan(200);
  await expect(page.getByRole("row", { name: new RegExp(`Reporte ${tag}`) })).toContainText("$29,500.00");

  await page.getByLabel("Colección", { exact: true }).selectOption({ label: drop.name });
  await page.getByRole("button", { name: "Ver colección" }).click();
  await expect(page).toHaveURL(new RegExp(`coleccion=${drop.id}`));
  await expect(page.getByRole("heading", { name: drop.name, level: 2 })).toBeVisible();
  // 25,000 + 4,500 = $29,500.00 over 2 orders ($14,750.00 each on average), 3 pieces.
  const figure = (label: string) => page.getByRole("term").filter({ hasText: label }).locator("+ dd");
  await expect(figure("Ventas netas")).toHaveText("$29,500.00");
  await expect(figure("Pedidos pagados")).toHaveText("2");
  await expect(figure("Ticket promedio")).toHaveText("$14,750.00");
  await expect(figure("Piezas vendidas")).toHaveText("3");
  const solRow = page.getByRole("row", { name: new RegExp(`Anillo Sol ${tag}`) });
  await expect(solRow).toContainText("100 %");
  await expect(solRow).toContainText(/a 1 h( \d+ min)? de abrir/);
  // Arete Luna: 1 sold of 5 (3 in stock, 1 held, 1 sold): 20 %, pieces left.
  const lunaRow = page.getByRole("row", { name: new RegExp(`Arete Luna ${tag}`) });
  await expect(lunaRow).toContainText("20 %");
  await expect(lunaRow).toContainText("Sin agotar");
  await expect.poll(() => paintedPixels(canvas)).toBeGreaterThan(200);
  await expectAccessible(page);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exportar CSV" }).click();
  const file = await (await download).path();
  const csv = fs.readFileSync(file, "utf8");
  expect(csv.startsWith(`\uFEFF"Reporte","${drop.name}"\r\n`)).toBe(true);
  expect(csv).toContain('"Ventas netas (MXN)","29500.00"');
  expect(csv).toContain(`"${drop.name}","Anillo Sol ${tag}","2","25000.00","2","100 %",`);

  // A month's report is the whole shop's that month: the collection chosen before is not shown as chosen.
  await page.getByLabel("Mes", { exact: true }).selectOption({ index: 1 });
  await page.getByRole("button", { name: "Ver mes" }).click();
  await expect(page).toHaveURL(/mes=\d{4}-\d{2}/);
  await expect(page.getByLabel("Colección", { exact: true })).toHaveValue("");
});
