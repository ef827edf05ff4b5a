import { newId } from "~/lib/ids";
import { expect, expectAccessible, fillDemoPayment, test } from "./support/fixtures";
import { outboxMessagesWith } from "./support/outbox";

test.describe("the orders desk", () => {
  test("an order paid on the demo payment page appears under pendiente, found by name or order number", async ({
    page,
    shop,
    cart,
    admins,
    desk,
  }) => {
    const tag = newId(5);
    const name = `Renata Quiroga ${tag}`;
    const { product } = await shop.piece({ name: `Arete Luz ${tag}`, priceCents: 1_250_000, stock: 3 });
    await cart.addFromProductPage(product.href);
    await cart.drawer.getByRole("button", { name: "Pagar" }).click();
    await expect(page).toHaveURL(/\/pago-demo\/OL-[A-Z0-9]{8}$/);
    const orderId = page.url().split("/").pop() ?? "";
    await fillDemoPayment(
      page,
      { name, email: `renata.${tag}@example.mx` },
      {
        name,
        phone: "55 1234 5678",
        line1: "Av. Álvaro Obregón 99",
        line2: "Roma Norte",
        postalCode: "06700",
        city: "Cuauhtémoc",
        state: "Ciudad de México",
        country: "MX",
      },
    );
    await page.getByRole("button", { name: /^Pagar/ }).click();
    await expect(page).toHaveURL(/\/success\?pedido=OL-[A-Z0-9]{8}&firma=/);

    await admins.login(page);
    await desk.open();
    await expect(desk.tab("Pendiente")).toHaveAttribute("aria-current", "page");
    const card = desk.order(orderId);
    await expect(card).toBeVisible();
    await expect(card).toContainText(name);
    await expect(card).toContainText(`renata.${tag}@example.mx`);
    await expect(card).toContainText(`Arete Luz ${tag} × 1`);
    await expect(card).toContainText("$12,500.00");
    await expect(card.getByRole("button", { name: "Atender pedido" })).toBeVisible();
    await expect(card.getByRole("button", { name: "Eliminar pedido" })).toBeVisible();
    await expect(page.getByTestId("pending-count")).toBeVisible();

    // Part of the name, lower case and without accents; the search stays in the address.
    await desk.search(`renata quiroga ${tag}`);
    await expect(page).toHaveURL(new RegExp(`q=renata\\+quiroga\\+${tag}`));
    await expect(desk.orders()).toHaveCount(1);
    await expect(desk.order(orderId)).toBeVisible();
    // Part of the order number, in lower case.
    await desk.search(orderId.slice(3).toLowerCase());
    await expect(desk.orders()).toHaveCount(1);
    await expect(desk.order(orderId)).toBeVisible();
    // Nothing found: the spec's empty message.
    await desk.search(`nadie ${tag}`);
    await expect(page.getByText("No hay pedidos en esta sección.")).toBeVisible();
    // 'Quitar filtros' empties the search box too, not only the list.
    await page.getByRole("link", { name: "Quitar filtros" }).click();
    await expect(page).not.toHaveURL(/q=/);
    await expect(desk.order(orderId)).toBeVisible();
    await expect(page.getByRole("searchbox", { name: /Buscar/ })).toHaveValue("");

    // The row is compact: where it goes is on the order's page.
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.getByText("55 1234 5678")).toBeVisible();
    await expect(page.getByText("Av. Álvaro Obregón 99")).toBeVisible();
    await expect(page.getByText("06700 Cuauhtémoc, Ciudad de México")).toBeVisible();
  });

  // @phone: the owner ships orders from the phone too (playwright.config.ts runs it there as well).
  test("'Atender pedido': empty fields are refused; filled, the order is shipped and the customer e-mailed", {
    tag: "@phone",
  }, async ({ page, shop, admins, desk }) => {
    const tag = newId(5);
    const { orderId } = await shop.paidOrder({ customerName: `Lucía Méndez ${tag}` });
    await admins.login(page);
    await desk.open("pendiente", tag);

    await desk.ship(orderId, "", "");
    const dialog = desk.shipDialog(orderId);
    await expect(dialog.getByRole("alert")).toHaveText("Por favor completa todos los campos.");
    expect(await shop.orderStatus(orderId)).toBe("pendiente");
    // A tracking number alone is not enough either.
    await dialog.getByLabel("Número de guía").fill("EST123456789");
    await dialog.getByRole("button", { name: "Marcar como enviado" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Por favor completa todos los campos.");
    expect(await shop.orderStatus(orderId)).toBe("pendiente");

    const tracking = `MX${tag.toUpperCase()}4455`;
    await dialog.getByLabel("Paquetería").selectOption("Estafeta");
    await dialog.getByLabel("Número de guía").fill(tracking);
    await dialog.getByRole("button", { name: "Marcar como enviado" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Pedido marcado como enviado" })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(desk.order(orderId)).toHaveCount(0);
    expect(await shop.orderStatus(orderId)).toBe("enviado");

    await desk.tab("Enviado").click();
    const shipped = desk.order(orderId);
    await expect(shipped).toContainText("Estafeta");
    await expect(shipped).toContainText(tracking);
    await expect(shipped.getByRole("link", { name: "Rastrear envío" })).toHaveAttribute(
      "href",
      `https://www.estafeta.com/rastrear-envio?guias=${tracking}`,
    );

    await expect.poll(() => outboxMessagesWith(tracking).length, { timeout: 10_000 }).toBe(1);
    const eml = outboxMessagesWith(tracking)[0] ?? "";
    expect(eml).toContain(`Tu pedido ${orderId} va en camino`);
    expect(eml).toContain("Estafeta");
    expect(eml).toContain(`https://www.estafeta.com/rastrear-envio?guias=${tracking}`);
  });

  test("'Archivar' moves a shipped order to archivado; 'Borrar del historial' takes it off the tabs, keeps its record and leaves stock", async ({
    page,
    shop,
    admins,
    desk,
  }) => {
    const tag = newId(5);
    const { orderId, product } = await shop.paidOrder({ customerName: `Mateo Ruiz ${tag}`, quantity: 2 });
    const stock = await shop.stockOf(product.id);
    await admins.login(page);
    await desk.open("pendiente", tag);
    await desk.ship(orderId, "DHL Express", `DHL${tag}99`);
    await expect(page.getByText("Pedido marcado como enviado")).toBeVisible();

    await desk.open("enviado", tag);
    await expect(desk.order(orderId).getByRole("button", { name: "Archivar" })).toBeVisible();
    await expect(desk.order(orderId).getByRole("button", { name: "Borrar del historial" })).toBeVisible();
    await desk.order(orderId).getByRole("button", { name: "Archivar" }).click();
    await expect(page.getByText("Pedido archivado")).toBeVisible();
    await expect(desk.order(orderId)).toHaveCount(0);
    expect(await shop.orderStatus(orderId)).toBe("archivado");

    await desk.tab("Archivado").click();
    await expect(desk.order(orderId)).toBeVisible();
    await expect(desk.order(orderId).getByRole("button")).toHaveText(["Desarchivar", "Borrar del historial"]);
    // Its shipment notice has reached the customer (an order is not deleted before that).
    await expect.poll(() => outboxMessagesWith(`DHL${tag}99`).length, { timeout: 10_000 }).toBe(1);
    // Cancelling the confirmation sends nothing and keeps the order.
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await desk.order(orderId).getByRole("button", { name: "Borrar del historial" }).click();
    const confirm = page.getByRole("alertdialog", { name: new RegExp(orderId) });
    await confirm.getByRole("button", { name: "Cancelar" }).click();
    await expect(confirm).toBeHidden();
    // Focus is back on the button that opened it, not lost to the page's top.
    await expect(desk.order(orderId).getByRole("button", { name: "Borrar del historial" })).toBeFocused();
    await page.reload();
    await expect(desk.order(orderId)).toBeVisible();
    expect(posts).toEqual([]);
    expect(await shop.orderStatus(orderId)).toBe("archivado");

    await desk.remove(orderId, "Borrar del historial");
    await expect(page.getByRole("status")).toHaveText(
      "Pedido borrado del historial; su registro queda en «Borrados del historial»",
    );
    await expect(desk.order(orderId)).toHaveCount(0);
    await expect(page.getByText("No hay pedidos en esta sección.")).toBeVisible();
    expect(await shop.orderStatus(orderId)).toBe("archivado");
    expect(await shop.stockOf(product.id)).toBe(stock);
    // Its record, read-only, for the accounts.
    await desk.tab("Borrados del historial").click();
    await expect(desk.order(orderId)).toBeVisible();
    await expect(desk.order(orderId).getByRole("button")).toHaveCount(0);
  });

  test("'Eliminar pedido' on a paid order, after confirming, cancels it with its refund, returns its pieces and keeps it under 'Cancelados'", async ({
    page,
    shop,
    admins,
    desk,
  }) => {
    const tag = newId(5);
    const { orderId, product } = await shop.paidOrder({ customerName: `Sofía Ortiz ${tag}`, quantity: 2 });
    expect(await shop.stockOf(product.id)).toBe(3);
    await admins.login(page);
    await desk.open("pendiente", tag);
    await desk.remove(orderId, "Eliminar pedido");
    await expect(page.getByRole("status")).toHaveText(
      /^Pedido cancelado: se reembolsaron \$[\d,]+\.\d\d y sus piezas volvieron al inventario$/,
    );
    await expect(desk.order(orderId)).toHaveCount(0);
    expect(await shop.orderStatus(orderId)).toBe("cancelado");
    expect(await shop.stockOf(product.id)).toBe(5);
    await desk.tab("Cancelados").click();
    await expect(desk.order(orderId)).toContainText("Cancelado por la tienda");
    await expect(desk.order(orderId).getByRole("button")).toHaveCount(0);
    await expect
      .poll(() => outboxMessagesWith(`Cancelamos tu pedido ${orderId}`).length, { timeout: 10_000 })
      .toBe(1);
  });

  test("an order's page ships with 'Otra', shows its timeline, resends an e-mail and prints a packing slip", async ({
    page,
    shop,
    admins,
  }) => {
    const tag = newId(5);
    const { orderId } = await shop.paidOrder({ customerName: `Diego Luna ${tag}` });
    await admins.login(page);
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.getByRole("heading", { name: `Pedido ${orderId}`, level: 1 })).toBeVisible();
    const history = page.getByRole("list").filter({ hasText: "Pedido creado" });
    await expect(history).toContainText("Pago confirmado");
    await expect(history).toContainText("Confirmación de pedido");

    // Shipping sends the queued e-mails at once; the timeline then says they were sent.
    await page.getByRole("button", { name: "Atender pedido" }).click();
    const dialog = page.getByRole("dialog", { name: `Atender pedido ${orderId}` });
    await dialog.getByLabel("Paquetería").selectOption("Otra");
    await dialog.getByLabel("Nombre de la paquetería").fill("Mensajería del Valle");
    await dialog.getByLabel("Número de guía").fill(`MV-${tag}`);
    await dialog.getByRole("button", { name: "Marcar como enviado" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Pedido marcado como enviado" })).toBeVisible();
    await expect(history).toContainText(`Mensajería del Valle · guía MV-${tag}`);
    await expect(page.getByRole("link", { name: "Rastrear envío" })).toHaveCount(0); // no link for 'Otra'
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("button", { name: "Reenviar: Aviso de envío" }).count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    await expect(history).toContainText("Enviado a cliente-");
    await page.getByRole("button", { name: "Reenviar: Aviso de envío" }).click();
    await expect(page.getByText("Correo en camino de nuevo")).toBeVisible();
    await expect(history).toContainText("Correo reenviado");

    await page.getByRole("link", { name: "Hoja de empaque" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}/imprimir$`));
    await expect(page.getByRole("heading", { name: orderId, exact: true, level: 1 })).toBeVisible();
    await expect(page.getByText("Calle Macedonio Alcalá 401")).toBeVisible();
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("button", { name: "Imprimir" })).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Administración" })).toBeHidden();
  });

  test("an unknown order number is the admin's 'Pedido no encontrado'", async ({ page, admins }) => {
    await admins.login(page);
    const response = await page.goto("/admin/orders/OL-ZZZZZZZZ");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Pedido no encontrado" })).toBeVisible();
  });
});

test.describe("the orders desk is accessible and fits the screen", { tag: "@phone" }, () => {
  test("the pending tab with the shipping dialog open, and an order's page", async ({
    page,
    shop,
    admins,
    desk,
  }) => {
    const tag = newId(5);
    const { orderId } = await shop.paidOrder({ customerName: `Ana Pérez ${tag}` });
    await admins.login(page);
    await desk.open("pendiente", tag);
    await expectAccessible(page);
    await desk.order(orderId).getByRole("button", { name: "Atender pedido" }).click();
    await expect(desk.shipDialog(orderId)).toBeVisible();
    await expectAccessible(page);
    await page.goto(`/admin/orders/${orderId}`);
    await expectAccessible(page);
  });
});
