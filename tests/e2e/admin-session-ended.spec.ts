import { expect, test } from "./support/fixtures";

/*
 * A save after the owner's session ended (components/admin/session-ended.tsx): the page stays as
 * it was, with what she typed, and says so; signed in again in another tab, the same save goes
 * through. Before, the page was replaced by "Tu sesión terminó" and the typing was lost.
 */
test("a save after the session ended keeps what was typed; signed in again in another tab, the same save goes through", async ({
  page,
  shop,
  admins,
  desk,
}) => {
  const admin = await admins.login(page);
  const { orderId } = await shop.paidOrder({ customerName: "Rocío Sesión" });
  await desk.open("pendiente", orderId);

  // Her session ends while the page is open (hours later, or 'Cerrar sesión en todos los dispositivos').
  await admins.endSessions(admin);
  await desk.ship(orderId, "DHL Express", "DHL-SESION-0042");
  const notice = page.getByRole("alert").filter({ hasText: "Tu sesión terminó y no se guardó nada." });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("Lo que escribiste sigue en esta página.");
  const dialog = desk.shipDialog(orderId);
  await expect(dialog.getByLabel("Número de guía")).toHaveValue("DHL-SESION-0042");
  await expect(dialog.getByLabel("Paquetería")).toHaveValue("DHL Express");
  expect(await shop.orderStatus(orderId)).toBe("pendiente");

  // The notice's link opens the sign-in page in another tab, and brings her back to this page.
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    notice.getByRole("link", { name: "Iniciar sesión en otra pestaña" }).click(),
  ]);
  await expect(tab.getByRole("heading", { name: "Iniciar sesión", level: 1 })).toBeVisible();
  expect(new URL(tab.url()).searchParams.get("redirectTo")).toBe(
    `/admin/orders?estado=pendiente&q=${orderId}`,
  );
  await tab.close();

  // Signed in again (the other tab's sign-in, as a cookie): the same dialog, the same values, saved.
  await admins.login(page, admin);
  await dialog.getByRole("button", { name: "Marcar como enviado" }).click();
  await expect(notice).toBeHidden();
  await expect.poll(() => shop.orderStatus(orderId)).toBe("enviado");
});
