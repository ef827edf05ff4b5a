import { newId } from "~/lib/ids";
import { expect, expectAccessible, test } from "./support/fixtures";
import { outboxMessagesWith } from "./support/outbox";

test.describe("the orders desk on drop day", () => {
  test("select orders, paste a CSV (a bad line is told by its number), 'Atender': they move to 'Enviado' and each buyer is e-mailed; their packing slips print together", async ({
    page,
    shop,
    admins,
    desk,
  }) => {
    const tag = newId(5);
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++)
      ids.push((await shop.paidOrder({ customerName: `Lote ${i} ${tag}` })).orderId);
    await admins.login(page);
    await desk.open("pendiente", tag);
    await expect(desk.orders()).toHaveCount(3);
    await expectAccessible(page);

    await page.getByLabel("Seleccionar todos").check();
    for (const id of ids) await expect(page.getByLabel(`Seleccionar ${id}`)).toBeChecked();
    await expect(page.getByText("3 seleccionados")).toBeVisible();
    await page.getByRole("button", { name: "Atender seleccionados" }).click();
    const dialog = page.getByRole("dialog", { name: "Atender seleccionados" });
    await expect(dialog.getByLabel(`Guía de ${ids[0]}`)).toBeVisible();
    await dialog.getByLabel("Paquetería").selectOption("Estafeta");
    await dialog.getByLabel("Pegar o subir CSV").check();
    const csv = dialog.getByLabel("Líneas «pedido,guía»");
    await csv.fill(`pedido,guía\n${ids[0]},EST-${tag}-1\n${ids[1]},\n${ids[2]},EST-${tag}-3`);
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Atender", exact: true }).click();
    await expect(dialog.getByRole("alert")).toContainText(
      `Línea 3: falta el número de guía del pedido ${ids[1]}.`,
    );
    expect(await shop.orderStatus(ids[0] ?? "")).toBe("pendiente");
    // Closed and opened again, it starts clean: the last refusal is not shown before a new try.
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Atender seleccionados" }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await dialog.getByLabel("Paquetería").selectOption("Estafeta");
    await dialog.getByLabel("Pegar o subir CSV").check();

    // The fixed file, uploaded: it replaces what was pasted.
    const lines = ids.map((id, i) => `${id},EST-${tag}-${i + 1}`).join("\n");
    await dialog.getByLabel("O sube un archivo CSV").setInputFiles({
      name: "guias.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(lines),
    });
    await expect(csv).toHaveValue(lines);
    await dialog.getByRole("button", { name: "Atender", exact: true }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "3 pedidos marcados como enviados" }),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(desk.orders()).toHaveCount(0);
    for (const id of ids) expect(await shop.orderStatus(id)).toBe("enviado");
    await expect.poll(() => outboxMessagesWith(`EST-${tag}-`).length, { timeout: 10_000 }).toBe(3);

    await desk.open("enviado", tag);
    await expect(desk.orders()).toHaveCount(3);
    await expect(desk.order(ids[2] ?? "")).toContainText(`EST-${tag}-3`);
    await page.getByLabel(`Seleccionar ${ids[0]}`).check();
    await page.getByLabel(`Seleccionar ${ids[2]}`).check();
    await page.getByRole("link", { name: "Imprimir hojas de empaque" }).click();
    await expect(page).toHaveURL(/\/admin\/orders\/imprimir\?pedidos=OL-\w{8},OL-\w{8}$/);
    // In the list's order (newest first), one slip after another.
    const printed = new URL(page.url()).searchParams.get("pedidos")?.split(",") ?? [];
    expect([...printed].sort()).toEqual([ids[0], ids[2]].sort());
    await expect(page.getByRole("heading", { name: "Hojas de empaque (2 pedidos)", level: 1 })).toBeVisible();
    await expect(page.getByRole("article").getByRole("heading", { level: 2 })).toHaveText(printed);
    await expect(page.getByText("Calle Macedonio Alcalá 401")).toHaveCount(2);
    await expectAccessible(page);
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("button", { name: "Imprimir" })).toBeHidden();
  });

  test("on a phone the pending orders are a dense list and the admin menu shows every section", {
    tag: "@phone",
  }, async ({ page, shop, admins, desk }) => {
    const tag = newId(5);
    const { orderId } = await shop.paidOrder({ customerName: `Ana Lista ${tag}` });
    await shop.paidOrder({ customerName: `Beto Lista ${tag}` });
    await admins.login(page);
    await desk.open("pendiente", tag);
    await expect(desk.orders()).toHaveCount(2);
    const menu = page.getByRole("navigation", { name: "Administración" });
    for (const section of [
      "Pedidos",
      "Devoluciones",
      "Colecciones",
      "Campañas",
      "Reportes",
      "Facturas",
      "Configuración",
    ]) {
      await expect(menu.getByRole("link", { name: section })).toBeInViewport();
    }
    const row = await desk.order(orderId).boundingBox();
    expect(row?.height).toBeLessThan(240);
    await expectAccessible(page);
  });
});
