import type { Page } from "@playwright/test";
import { totp, unusedCode } from "../support/totp";
import { expect, expectAccessible, type TestAdmin, test } from "./support/fixtures";

// Each wrong code counts against 127.0.0.1 with the wrong passwords (20 in 15 minutes for the whole
// suite): these tests type three in all.

async function fillLogin(page: Page, admin: TestAdmin) {
  await page.goto("/login");
  await page.getByLabel("Correo electrónico").fill(admin.email);
  await page.getByLabel("Contraseña").fill(admin.password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

async function fillCode(page: Page, code: string, options: { trust?: boolean } = {}) {
  await expect(page).toHaveURL(/\/login\/codigo$/);
  await page.getByLabel("Código de verificación").fill(code);
  if (options.trust) await page.getByLabel("Confiar en este dispositivo").check();
  await page.getByRole("button", { name: "Verificar" }).click();
}

/** A six-digit code that is not the app's for now or the steps around it. */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1].map((offset) => totp(secret, { offset })));
  return ["000000", "111111", "222222", "333333"].find((code) => !valid.has(code)) ?? "444444";
}

const adminHeader = (page: Page) =>
  page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Admin", exact: true });

test.describe("second factor", () => {
  test("the first sign-in sets up the authenticator app: QR code, secret, first code, recovery codes shown once", async ({
    page,
    admins,
  }) => {
    const admin = await admins.create({ secondFactor: false });
    await fillLogin(page, admin);

    await expect(page).toHaveURL(/\/login\/configurar$/);
    await expect(
      page.getByRole("heading", { name: "Configura la verificación en dos pasos", level: 1 }),
    ).toBeVisible();
    const qr = page.getByRole("img", { name: "Código QR para agregar la cuenta a tu app de autenticación" });
    await expect(qr).toBeVisible();
    // A real picture, drawn: not a broken image.
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
    await expectAccessible(page);

    // Until it is set up, no admin page opens and the header offers no way in.
    await page.goto("/admin/orders");
    await expect(page).toHaveURL(/\/login\/configurar$/);
    await expect(adminHeader(page)).toHaveCount(0);

    await page.getByLabel("Código de 6 dígitos").fill(wrongCode(secret));
    await page.getByRole("button", { name: "Activar" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "Código incorrecto. Escribe el código de 6 dígitos que muestra tu app ahora mismo.",
    );

    await page.getByLabel("Código de 6 dígitos").fill(await unusedCode(secret));
    await page.getByRole("button", { name: "Activar" }).click();
    await expect(
      page.getByRole("heading", { name: "Guarda tus códigos de recuperación", level: 1 }),
    ).toBeVisible();
    await expect(page.getByText("no se volverán a mostrar")).toBeVisible();
    const codes = page.getByRole("list", { name: "Códigos de recuperación" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    await expect(codes.first()).toHaveText(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);

    await page.getByRole("link", { name: "Ya los guardé, ir a la administración" }).click();
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole("heading", { name: "Pedidos", level: 1 })).toBeVisible();
    // Shown once: the set-up page is gone for good.
    await page.goto("/login/configurar");
    await expect(page).toHaveURL(/\/admin\/orders$/);
  });

  // @phone: the owner signs in from the phone too (playwright.config.ts runs it there as well).
  test("sign-in asks for the code: a wrong one is refused in Spanish, the right one lands on /admin/orders", {
    tag: "@phone",
  }, async ({ page, admins }) => {
    const admin = await admins.create();
    await fillLogin(page, admin);
    await expect(page.getByRole("heading", { name: "Verificación en dos pasos", level: 1 })).toBeVisible();
    // The password alone opens nothing.
    await expect(adminHeader(page)).toHaveCount(0);

    await fillCode(page, wrongCode(admin.secret));
    await expect(page.getByRole("alert")).toHaveText(
      "Código incorrecto. Revisa el código de tu app o de recuperación e intenta de nuevo.",
    );
    await expect(page.getByLabel("Código de verificación")).toHaveValue("");
    await expect(page.getByLabel("Código de verificación")).toBeFocused();
    await expectAccessible(page);

    await fillCode(page, await unusedCode(admin.secret));
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole("heading", { name: "Pedidos", level: 1 })).toBeVisible();
    await expect(adminHeader(page)).toBeVisible();
  });

  test("a recovery code signs in once; used again it is refused", async ({ page, admins }) => {
    const admin = await admins.create();
    const code = admin.recoveryCodes[0] ?? "";
    await fillLogin(page, admin);
    await fillCode(page, code);
    await expect(page).toHaveURL(/\/admin\/orders$/);

    await page
      .getByRole("navigation", { name: "Principal" })
      .getByRole("button", { name: "Cerrar sesión" })
      .click();
    await expect(page).toHaveURL(/\/login\?sesion=cerrada$/);
    await fillLogin(page, admin);
    await fillCode(page, code);
    await expect(page.getByRole("alert")).toHaveText(
      "Código incorrecto. Revisa el código de tu app o de recuperación e intenta de nuevo.",
    );
    await expect(page).toHaveURL(/\/login\/codigo$/);
    await expect(adminHeader(page)).toHaveCount(0);
  });

  test("'Confiar en este dispositivo' skips the code at the next sign-in on this browser only", async ({
    page,
    browser,
    admins,
  }) => {
    const admin = await admins.create();
    await fillLogin(page, admin);
    await fillCode(page, await unusedCode(admin.secret), { trust: true });
    await expect(page).toHaveURL(/\/admin\/orders$/);

    await page
      .getByRole("navigation", { name: "Principal" })
      .getByRole("button", { name: "Cerrar sesión" })
      .click();
    await expect(page).toHaveURL(/\/login\?sesion=cerrada$/);
    await fillLogin(page, admin);
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole("heading", { name: "Pedidos", level: 1 })).toBeVisible();

    // Another browser is still asked for the code.
    const other = await browser.newContext();
    try {
      const otherPage = await other.newPage();
      await fillLogin(otherPage, admin);
      await expect(otherPage).toHaveURL(/\/login\/codigo$/);
    } finally {
      await other.close();
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the set-up, posted as a plain form, shows the recovery codes and lands in the admin", async ({
    page,
    admins,
  }) => {
    const admin = await admins.create({ secondFactor: false });
    await fillLogin(page, admin);
    await expect(page).toHaveURL(/\/login\/configurar$/);
    const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
    await page.getByLabel("Código de 6 dígitos").fill(await unusedCode(secret));
    await page.getByRole("button", { name: "Activar" }).click();

    await expect(
      page.getByRole("heading", { name: "Guarda tus códigos de recuperación", level: 1 }),
    ).toBeVisible();
    const codes = page.getByRole("list", { name: "Códigos de recuperación" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    await expect(codes.first()).toHaveText(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
    const recovery = (await codes.last().textContent()) ?? "";

    await page.getByRole("link", { name: "Ya los guardé, ir a la administración" }).click();
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole("heading", { name: "Pedidos", level: 1 })).toBeVisible();
    // The codes shown are the account's own: one signs in, on this browser, without JavaScript.
    await page
      .getByRole("navigation", { name: "Principal" })
      .getByRole("button", { name: "Cerrar sesión" })
      .click();
    await fillLogin(page, admin);
    await fillCode(page, recovery);
    await expect(page).toHaveURL(/\/admin\/orders$/);
  });
});
