import type { Page } from "@playwright/test";
import { LOGIN_LIMITS } from "~/auth/login-limits.server";
import { unusedCode } from "../support/totp";
import {
  type AdminUtil,
  expect,
  expectAccessible,
  type TestAdmin,
  test,
  untilHydrated,
} from "./support/fixtures";

// Every wrong password or code counts against 127.0.0.1 for 15 minutes (20 allowed, shared by the
// whole suite): only the tests that need the error message type one (admin-two-factor.spec.ts too).

/** The shop's header navigation, where a signed-in administrator gets 'Admin' and 'Cerrar sesión'. */
function header(page: Page) {
  const nav = page.getByRole("navigation", { name: "Principal" });
  return {
    adminLink: nav.getByRole("link", { name: "Admin", exact: true }),
    signOut: nav.getByRole("button", { name: "Cerrar sesión", exact: true }),
  };
}

const ADMIN_SECTIONS = [
  { label: "Pedidos", path: "/admin/orders" },
  { label: "Devoluciones", path: "/admin/devoluciones" },
  { label: "Colecciones", path: "/admin/drops" },
  { label: "Campañas", path: "/admin/campains" },
  { label: "Reportes", path: "/admin/reports" },
  { label: "Facturas", path: "/admin/facturas" },
  { label: "Configuración", path: "/admin/settings" },
];

async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

/** The second step: the code the administrator's app shows now. */
async function fillCode(page: Page, admin: TestAdmin) {
  await expect(page.getByRole("heading", { name: "Verificación en dos pasos", level: 1 })).toBeVisible();
  await page.getByLabel("Código de verificación").fill(await unusedCode(admin.secret));
  await page.getByRole("button", { name: "Verificar" }).click();
}

async function expectSignedOut(page: Page) {
  await expect(header(page).adminLink).toHaveCount(0);
  await expect(header(page).signOut).toHaveCount(0);
}

/** The login page after a wrong password: the one generic message, still on /login. */
async function failLogin(page: Page, admin: TestAdmin) {
  await page.goto("/login");
  await fillLogin(page, admin.email, `${admin.password}-mal`);
  await expect(page.getByRole("alert")).toHaveText("Credenciales inválidas");
  await expect(page).toHaveURL(/\/login$/);
}

/** Signs a new administrator in (straight through the database) and opens Pedidos. */
async function signedInAtOrders(page: Page, admins: AdminUtil) {
  const admin = await admins.login(page);
  await page.goto("/admin/orders");
  await expect(page.getByRole("heading", { name: "Pedidos", level: 1 })).toBeVisible();
  return admin;
}

test.describe("administrator sign-in", () => {
  test("a wrong password shows 'Credenciales inválidas' and signs nobody in", async ({ page, admins }) => {
    const admin = await admins.create();
    await failLogin(page, admin);
    await expect(page.getByRole("heading", { name: "Iniciar sesión", level: 1 })).toBeVisible();
    // The e-mail stays typed for the next try; the password is emptied and ready to type again.
    await expect(page.getByLabel("Correo electrónico")).toHaveValue(admin.email);
    await expect(page.getByLabel("Contraseña")).toHaveValue("");
    await expect(page.getByLabel("Contraseña")).toBeFocused();
    await expectSignedOut(page);
    expect(await admins.activeSessions(admin)).toBe(0);
  });

  // @phone: the owner signs in from the phone too (playwright.config.ts runs it there as well).
  test("the right password and code through the form land on /admin/orders with the admin header", {
    tag: "@phone",
  }, async ({ page, admins }) => {
    const admin = await admins.create();
    await page.goto("/login");
    await expectSignedOut(page);
    await fillLogin(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/login\/codigo$/);
    await expectSignedOut(page);
    await fillCode(page, admin);

    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole("heading", { name: "Pedidos", level: 1 })).toBeVisible();
    await expect(header(page).adminLink).toBeVisible();
    await expect(header(page).adminLink).toHaveAttribute("href", "/admin/orders");
    await expect(header(page).signOut).toBeVisible();
    await expect(page.getByText(`Sesión iniciada como ${admin.email}`)).toBeVisible();
    expect(await admins.activeSessions(admin)).toBe(1);

    // Signed in, /login itself sends straight on.
    await page.goto("/login");
    await expect(page).toHaveURL(/\/admin\/orders$/);
  });

  test("'Cerrar sesión' ends the session: /login says so, /admin asks to sign in again", async ({
    page,
    admins,
  }) => {
    const admin = await signedInAtOrders(page, admins);

    await header(page).signOut.click();
    await expect(page).toHaveURL(/\/login\?sesion=cerrada$/);
    await expect(page.getByRole("status").filter({ hasText: "Cerraste tu sesión." })).toBeVisible();
    await expectSignedOut(page);
    expect(await admins.activeSessions(admin)).toBe(0);

    await page.goto("/admin");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Iniciar sesión", level: 1 })).toBeVisible();
    await expectSignedOut(page);
  });

  test("an admin page asked for signed out goes to /login and back to that page after signing in", async ({
    page,
    admins,
  }) => {
    const admin = await admins.create();
    await page.goto("/admin/drops");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fdrops$/);
    await expect(page.getByRole("heading", { name: "Iniciar sesión", level: 1 })).toBeVisible();

    await fillLogin(page, admin.email, admin.password);
    await fillCode(page, admin);
    await expect(page).toHaveURL(/\/admin\/drops$/);
    await expect(page.getByRole("heading", { name: "Colecciones", level: 1 })).toBeVisible();
    await expect(header(page).adminLink).toBeVisible();
  });

  test("'Admin' from a public page shows 'Verificando autenticación...' while the server checks the session", async ({
    page,
    admins,
  }) => {
    const admin = await admins.login(page);
    await page.goto("/");
    await expect(header(page).adminLink).toBeVisible();

    // The session ends elsewhere (another device signed out everywhere) while this page is open.
    expect(await admins.endSessions(admin)).toBe(1);

    // Hold the admin page's data request a moment so the checking state can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = false;
    await page.route("**/admin/orders.data*", async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await header(page).adminLink.click();
    await expect(page.getByRole("status").filter({ hasText: "Verificando autenticación..." })).toBeVisible();
    await expect.poll(() => asked).toBe(true);
    await expect(page.getByRole("heading", { name: "Pedidos" })).toHaveCount(0);
    release();

    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Forders$/);
    await expect(page.getByRole("heading", { name: "Iniciar sesión", level: 1 })).toBeVisible();
    await expect(page.getByText("Verificando autenticación...")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Pedidos" })).toHaveCount(0);
    await expectSignedOut(page);
  });

  test("a client-side navigation into the admin area after the session ended keeps redirectTo", async ({
    page,
    admins,
  }) => {
    const admin = await signedInAtOrders(page, admins);
    await admins.endSessions(admin);

    await page
      .getByRole("navigation", { name: "Administración" })
      .getByRole("link", { name: "Colecciones" })
      .click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fdrops$/);
    await fillLogin(page, admin.email, admin.password);
    await fillCode(page, admin);
    await expect(page).toHaveURL(/\/admin\/drops$/);
  });

  test("the admin menu reaches every section, none a placeholder any more", async ({ page, admins }) => {
    await admins.login(page);
    for (const section of ADMIN_SECTIONS) {
      await page.goto(section.path);
      await expect(page.getByRole("heading", { name: section.label, level: 1 })).toBeVisible();
      await expect(page.getByText("Próximamente...")).toHaveCount(0);
    }

    await page.goto("/admin/orders");
    const menu = page.getByRole("navigation", { name: "Administración" });
    // 'Pedidos' may carry the count of orders to ship (other tests pay orders meanwhile).
    await expect(menu.getByRole("link")).toHaveText(
      ADMIN_SECTIONS.map((s) => new RegExp(`^${s.label}\\d*$`)),
    );
    // Start from the second one so that every click, Pedidos included, is a real navigation.
    for (const section of [...ADMIN_SECTIONS.slice(1), ...ADMIN_SECTIONS.slice(0, 1)]) {
      const link = menu.getByRole("link", { name: section.label, exact: true });
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${section.path}$`));
      await expect(link).toHaveAttribute("aria-current", "page");
      await expect(page.getByText("Próximamente...")).toHaveCount(0);
      await expect(page.getByRole("heading", { name: section.label, level: 1 })).toBeVisible();
    }
  });

  test("the owner's sections, reached through the menu, are titled with their own names", async ({
    page,
    admins,
  }) => {
    await admins.login(page);
    await page.goto("/admin/orders");
    const menu = page.getByRole("navigation", { name: "Administración" });
    // Pedidos and Colecciones have titles of their own views ('Colecciones Activas').
    for (const section of ADMIN_SECTIONS.filter((s) => s.label !== "Pedidos" && s.label !== "Colecciones")) {
      await menu.getByRole("link", { name: section.label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${section.path}$`));
      await expect(page.getByRole("heading", { name: section.label, level: 1 })).toBeVisible();
      await expect(page).toHaveTitle(`${section.label} · Administración`);
    }
  });

  test("'Cerrar sesión en todos los dispositivos' ends the sessions of the other browsers too", async ({
    page,
    browser,
    admins,
  }) => {
    const admin = await admins.login(page);
    const otherContext = await browser.newContext();
    try {
      const other = await otherContext.newPage();
      await admins.login(other, admin);
      expect(await admins.activeSessions(admin)).toBe(2);

      await page.goto("/admin/orders");
      await page.getByRole("button", { name: "Cerrar sesión en todos los dispositivos" }).click();
      await expect(page).toHaveURL(/\/login\?sesion=cerrada$/);
      await expect(page.getByText("Cerraste tu sesión.")).toBeVisible();
      expect(await admins.activeSessions(admin)).toBe(0);

      await other.goto("/admin/orders");
      await expect(other).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Forders$/);
    } finally {
      await otherContext.close();
    }
  });

  test("there is no sign-up: /login has no link to /registro, which is the shop's 404 page", async ({
    page,
  }) => {
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Entrar" })).toBeVisible();
    await expect(page.locator('a[href*="registro"]')).toHaveCount(0);
    await expect(page.getByRole("link", { name: /registr|crear cuenta/i })).toHaveCount(0);

    const response = await page.goto("/registro");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Página no encontrada" })).toBeVisible();
  });
});

test.describe("the sign-in pages are accessible and fit the screen", { tag: "@phone" }, () => {
  test("/login with the error shown", async ({ page, admins }) => {
    await failLogin(page, await admins.create());
    await expectAccessible(page);
  });

  test("/admin/orders signed in", async ({ page, admins }) => {
    await signedInAtOrders(page, admins);
    await expect(page.getByRole("navigation", { name: "Administración" })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("the owner's door (decision 32)", () => {
  test("past the account's limit of failures from elsewhere, a new browser's sign-in solves a check by itself and goes on", async ({
    page,
    admins,
  }) => {
    test.setTimeout(90_000);
    const admin = await admins.create();
    await admins.failSignIns(admin, LOGIN_LIMITS.perAccount);
    // Each check the page solves starts with a challenge from the shop.
    const challenges: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/reto") challenges.push(request.url());
    });
    await page.goto("/login");
    // The page's code solves the check: a press before it runs is a plain form's (shown the check's message).
    await untilHydrated(page.getByRole("button", { name: "Entrar" }));
    await fillLogin(page, admin.email, admin.password);
    // The shop asks this browser for a proof of work; the page solves it and sends the form again.
    await expect(page.getByRole("heading", { name: "Verificación en dos pasos", level: 1 })).toBeVisible({
      timeout: 30_000,
    });
    // The code too (the account is still past its limit for a browser it does not know).
    await page.getByLabel("Código de verificación").fill(await unusedCode(admin.secret));
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page).toHaveURL(/\/admin\/orders$/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { name: "Pedidos", level: 1 })).toBeVisible();
    expect(challenges.length).toBeGreaterThanOrEqual(2);
  });
});
