import type { Locator } from "@playwright/test";
import { DEMO_DROPS } from "~/demo/catalogue";
import { DEMO_ORDERS, DEMO_PAST_WAITLISTS } from "~/demo/history";
import { formatMXN } from "~/lib/money";
import { expect, expectAccessible, test } from "./support/fixtures";

/*
 * A fresh demo shop shows the owner's half too (issue 25): the demo's past orders on the desk,
 * months of sales in Reportes, 'Avísame' lists in Campañas. Other tests run on the same shop at
 * the same time and add orders of their own: this one looks only at the demo's (OL-DEMO…), which
 * no other test touches, and at the ended drop, which nobody can buy from any more.
 */

const ended = DEMO_DROPS.find((d) => d.role === "ended");
const upcoming = DEMO_DROPS.find((d) => d.role === "upcoming");
if (!ended || !upcoming) throw new Error("the demo catalogue lacks an ended or upcoming drop");

const demoOrders = (status: string) => DEMO_ORDERS.filter((o) => o.status === status).length;

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

test("a fresh demo shop's Pedidos, Reportes (with its chart) and Campañas are not empty", async ({
  page,
  admins,
}) => {
  await admins.login(page);

  // Pedidos: each tab and 'Cancelados' have the demo's orders; the menu counts those to ship.
  for (const [estado, label] of [
    ["pendiente", "Pendiente"],
    ["enviado", "Enviado"],
    ["archivado", "Archivado"],
    ["cancelado", "Cancelados"],
  ] as const) {
    await page.goto(`/admin/orders?estado=${estado}&q=OL-DEMO`);
    await expect(page.getByRole("heading", { name: "Pedidos", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Estado de los pedidos" })).toContainText(label);
    // The desk's table: a row per order (tests/e2e/support/fixtures.ts OrdersDesk).
    const rows = page.locator("tr[data-order]");
    await expect(rows).toHaveCount(demoOrders(estado));
    await expect(rows.first()).toContainText(/@example\.(com|net|org)/);
  }
  // The cancelled order says its refund was made.
  await expect(page.getByTestId("cancellation")).toContainText("Cancelado por la tienda");
  await expect(page.getByTestId("cancellation")).toContainText("hecho");
  await page.goto("/admin/orders?estado=enviado&q=OL-DEMO");
  const shipped = page.locator("tr[data-order]").first();
  await expect(shipped.getByRole("link", { name: "Rastrear envío" })).toBeVisible();
  await expect(page.getByTestId("pending-count")).toBeVisible();
  await expectAccessible(page);

  // Reportes: the chart is drawn over months; the ended drop's row has its sales and its list.
  await page.goto("/admin/reports");
  await expect(page.getByRole("heading", { name: "Reportes", level: 1 })).toBeVisible();
  const canvas = page.getByTestId("sales-chart").locator("canvas");
  await expect(canvas).toBeVisible();
  await expect.poll(() => paintedPixels(canvas)).toBeGreaterThan(200);
  const months = page.getByRole("table", { name: "Ventas netas por mes" }).getByRole("row");
  await expect.poll(() => months.count()).toBeGreaterThanOrEqual(4); // a header and 3 months or more
  const sold = DEMO_ORDERS.filter((o) => o.drop === "ended" && o.status !== "cancelado");
  const price = (name: string) => ended.products.find((p) => p.name === name)?.priceCents ?? Number.NaN;
  const net = sold.flatMap((o) => o.lines).reduce((sum, l) => sum + price(l.product) * l.quantity, 0);
  const list = DEMO_PAST_WAITLISTS.ended.filter((s) => s.status === "confirmada").length;
  const endedRow = page.getByRole("row", { name: new RegExp(ended.name) });
  await expect(endedRow).toContainText(formatMXN(net));
  await expect(endedRow).toContainText(new RegExp(`${list} confirmados, [1-9]\\d* compraron`));
  await expectAccessible(page);

  // Campañas: the upcoming drop's list, and a past drop's, with the confirmed count Reportes gives.
  await page.goto("/admin/campains");
  const confirmed = (name: string) =>
    page
      .getByRole("region", { name: `Avísame: ${name}` })
      .locator("dl > div")
      .filter({ hasText: "Confirmadas" })
      .getByRole("definition");
  await expect(confirmed(upcoming.name)).toHaveText(/^[1-9]\d*$/);
  await page
    .getByRole("navigation", { name: "Colecciones que ya abrieron" })
    .getByRole("link", { name: new RegExp(ended.name) })
    .click();
  await expect(confirmed(ended.name)).toHaveText(String(list));
  await expect(
    page.getByRole("table", { name: `Lista de Avísame de ${ended.name}` }).getByRole("row"),
  ).toHaveCount(DEMO_PAST_WAITLISTS.ended.length + 1);
  // The page around the opening e-mail's preview: axe runs a script in every frame, which the
  // sandboxed preview refuses, so the frame goes first (as in admin-campaigns.spec.ts).
  await page.getByTitle("Vista previa del correo de apertura").evaluate((frame) => frame.remove());
  await expectAccessible(page);
});
