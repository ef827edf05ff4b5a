import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { type AdminAuth, createAdminAuth, SESSION_COOKIE } from "~/auth/auth.server";
import { authSettings } from "~/auth/auth-config.server";
import { createDrop, getDrop, type NewProduct } from "~/catalogue/catalogue.server";
import { isDropPurchasable } from "~/catalogue/drop-time";
import { heldPieces } from "~/catalogue/held-pieces.server";
import type { MetalFacts } from "~/catalogue/metal";
import { stockText } from "~/catalogue/storefront";
import { loadConfig } from "~/config/env.server";
import { type Database, openDatabase } from "~/db/database.server";
import type { Categoria, Material } from "~/db/taxonomy";
import { newId } from "~/lib/ids";
import { formatMXN } from "~/lib/money";
import { holdCart } from "~/orders/holds.server";
import { confirmPayment } from "~/orders/payment.server";
import type { ShippingAddress } from "~/orders/shipping";
import { PAGE_TTL_MS } from "../../../server/page-cache";
import { oaxacaAddress } from "../../support/catalogue";
import { setUpSecondFactor, signInWithCode } from "../../support/second-factor";
import { E2E_DATA_DIR, E2E_PORT, E2E_QUICK_PASSWORD_HASHES } from "./env";

const HOUR = 3_600_000;

export interface TestProduct {
  name: string;
  priceCents: number;
  stock: number;
  categoria?: Categoria;
  material?: Material;
  description?: string;
  /** The metal's facts (catalogue/metal.ts); none when absent. */
  metal?: Partial<MetalFacts>;
  /** A limited edition of this many numbered pieces. */
  editionSize?: number;
  /** Sizes (or lengths), each with its stock; `stock` is then their sum (decision 34). */
  option?: NewProduct["option"];
}

export interface TestDrop {
  id: string;
  name: string;
  products: { id: string; name: string; href: string }[];
  href: string;
}

/** React's escaping of text in HTML, to find a name in a page as it is written there. */
const inHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c] ?? c,
  );

/** A public page as an anonymous visitor gets it (from the page cache, when it has it). */
async function publicPage(pathname: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${E2E_PORT}${pathname}`, { redirect: "manual" });
  return response.text();
}

/**
 * Creates catalogue data for one test, straight in the running shop's database. Like a sale on
 * another app server, such a write reaches public pages within the page cache's 1 s
 * (server/page-cache.ts): each write returns once the public pages it changes show it (read as
 * a visitor, polled), so a test never sees a copy cached before it. The administration's pages
 * are never cached: a write only they show returns at once.
 */
export class ShopData {
  /** The drops this test made, archived when it ends. */
  private readonly made: string[] = [];

  constructor(private readonly database: Database) {}

  /**
   * Takes this test's drops off the home page (archived, as the owner puts a drop away), so that
   * home does not grow with every test: each page and accessibility check of home stays as quick
   * at the end of the suite as at its start. Their pages and orders stay.
   */
  async putAway(): Promise<void> {
    if (this.made.length === 0) return;
    await this.database.db
      .updateTable("drops")
      .set({ status: "archivada" })
      .where("id", "in", this.made)
      .execute();
  }

  /** Reads each page until `shows` holds on it; gives up after a few lifetimes of a cached page. */
  private async untilShown(pages: { path: string; shows: (html: string) => boolean }[]): Promise<void> {
    const deadline = Date.now() + 10 * PAGE_TTL_MS;
    await Promise.all(
      pages.map(async ({ path: pathname, shows }) => {
        while (!shows(await publicPage(pathname))) {
          if (Date.now() > deadline) throw new Error(`${pathname} still does not show the change`);
          await sleep(50);
        }
      }),
    );
  }

  /**
   * A new drop is at new addresses, never cached; the lists that name every drop (home leaves
   * out the archived ones), documents and the `.data` a client navigation asks for, may be.
   */
  private async listed(name: string, archived: boolean): Promise<void> {
    const lists = archived ? ["/colecciones"] : ["/", "/colecciones"];
    const paths = lists.flatMap((list) => [list, list === "/" ? "/_.data" : `${list}.data`]);
    const shows = (body: string) => body.includes(name) || body.includes(inHtml(name));
    await this.untilShown(paths.map((p) => ({ path: p, shows })));
  }

  /**
   * After a change of a piece's price, stock or holds: its page's price and stock line and its
   * tile on its drop's page say what the database now says.
   */
  private async pieceShown(productId: string): Promise<void> {
    const row = await this.database.db
      .selectFrom("products")
      .select(["name", "drop_id", "stock", "price_cents"])
      .where("id", "=", productId)
      .executeTakeFirstOrThrow();
    const drop = await getDrop(this.database.db, row.drop_id);
    if (!drop) throw new Error("drop vanished");
    const held = (await heldPieces(this.database.db, [productId])).get(productId) ?? 0;
    const price = formatMXN(row.price_cents);
    // Unpaid holds count only while the drop can be bought: either line may be the right one.
    const lines = [stockText(row.stock, held), stockText(row.stock, 0)];
    const tile = (html: string) => {
      const start = html.indexOf(`aria-label="${inHtml(row.name)}"`);
      return start === -1 ? "" : html.slice(start, html.indexOf("</article>", start));
    };
    await this.untilShown([
      {
        path: `/drop/${row.drop_id}/product/${productId}`,
        shows: (html) =>
          html.includes(`>${price}</p>`) && lines.some((l) => html.includes(`data-testid="stock">${l}</p>`)),
      },
      // A tile tells sold-out and held pieces apart only while the drop can be bought.
      ...(isDropPurchasable(drop, new Date())
        ? [
            {
              path: `/coleccion/${row.drop_id}`,
              shows: (html: string) => {
                const shown = tile(html);
                return row.stock > 0 ? shown.includes(price) : lines.some((l) => shown.includes(l));
              },
            },
          ]
        : []),
    ]);
  }

  async drop(options: {
    timing: "running" | "upcoming" | "ended";
    status?: "proximamente" | "activa" | "archivada";
    products: TestProduct[];
    name?: string;
    /** 'Máximo N por persona'. */
    maxPerOrder?: number;
    /** Exact dates instead of the timing's (a drop that opens or ends a few seconds from now). */
    startAt?: Date;
    endAt?: Date;
  }): Promise<TestDrop> {
    const now = Date.now();
    const windows: Record<typeof options.timing, [number, number]> = {
      running: [now - HOUR, now + 30 * HOUR],
      upcoming: [now + 48 * HOUR, now + 96 * HOUR],
      ended: [now - 96 * HOUR, now - 48 * HOUR],
    };
    const [start, end] = [
      options.startAt?.getTime() ?? windows[options.timing][0],
      options.endAt?.getTime() ?? windows[options.timing][1],
    ];
    const name = options.name ?? `Prueba ${newId(6)}`;
    const id = await createDrop(this.database.db, {
      name,
      smallDescription: `Colección de prueba ${name}`,
      description: `Descripción de ${name}`,
      startAt: new Date(start),
      endAt: new Date(end),
      status: options.status ?? "activa",
      maxPerOrder: options.maxPerOrder ?? null,
      products: options.products.map((p) => ({
        categoria: "Anillo",
        material: "Oro amarillo",
        description: `Pieza de prueba ${p.name}`,
        imageId: null,
        ...p,
      })),
    });
    this.made.push(id);
    const drop = await getDrop(this.database.db, id);
    if (!drop) throw new Error("drop vanished");
    await this.listed(name, options.status === "archivada");
    return {
      id,
      name,
      href: `/coleccion/${id}`,
      products: drop.products.map((p) => ({ id: p.id, name: p.name, href: `/drop/${id}/product/${p.id}` })),
    };
  }

  /** A running drop with a single piece: the usual start of a purchase test. */
  async piece(product: TestProduct): Promise<{ drop: TestDrop; product: TestDrop["products"][number] }> {
    const drop = await this.drop({ timing: "running", products: [product] });
    const only = drop.products[0];
    if (!only) throw new Error("the drop has no product");
    return { drop, product: only };
  }

  async update(productId: string, change: { priceCents?: number; stock?: number }): Promise<void> {
    await this.database.db
      .updateTable("products")
      .set({
        ...(change.priceCents !== undefined ? { price_cents: change.priceCents } : {}),
        ...(change.stock !== undefined ? { stock: change.stock } : {}),
      })
      .where("id", "=", productId)
      .execute();
    await this.pieceShown(productId);
  }

  /** Another shopper's checkout, still unpaid, holding pieces of a product (in a size); its order id. */
  async holdElsewhere(drop: TestDrop, productId: string, quantity = 1, size?: string): Promise<string> {
    const optionId = size === undefined ? null : await this.sizeId(productId, size);
    const held = await holdCart(this.database.db, {
      lines: [{ productId, dropId: drop.id, quantity, optionId }],
      provider: "demo",
    });
    if (!held.ok) throw new Error(held.message);
    await this.pieceShown(productId);
    return held.id;
  }

  /** That other shopper pays: the held pieces are sold. */
  async payElsewhere(orderId: string): Promise<void> {
    await confirmPayment(this.database.db, {
      orderId,
      customerName: "Luz Ramírez",
      customerEmail: `cliente-${newId(6)}@example.mx`,
      shipping: oaxacaAddress("Luz Ramírez", "951 123 4567"),
    });
    const lines = await this.database.db
      .selectFrom("order_lines")
      .select("product_id")
      .where("order_id", "=", orderId)
      .execute();
    for (const line of lines) await this.pieceShown(line.product_id);
  }

  /** A paid order (as if the shopper paid on the payment page) for a new running piece. */
  async paidOrder(options: {
    customerName: string;
    product?: Partial<TestProduct>;
    quantity?: number;
  }): Promise<{ orderId: string; product: TestDrop["products"][number] }> {
    const { drop, product } = await this.piece({
      name: `Anillo ${newId(5)}`,
      priceCents: 450_000,
      stock: 5,
      ...options.product,
    });
    const held = await holdCart(this.database.db, {
      lines: [{ productId: product.id, dropId: drop.id, quantity: options.quantity ?? 1 }],
      provider: "demo",
    });
    if (!held.ok) throw new Error(held.message);
    await confirmPayment(this.database.db, {
      orderId: held.id,
      customerName: options.customerName,
      customerEmail: `cliente-${newId(6)}@example.mx`,
      shipping: oaxacaAddress(options.customerName, "951 123 4567"),
    });
    return { orderId: held.id, product };
  }

  /** The owner shipped a paid order and it was delivered yesterday (the desk's steps have their own tests). */
  async delivered(orderId: string): Promise<void> {
    const yesterday = new Date(Date.now() - 24 * HOUR).toISOString();
    await this.database.db
      .updateTable("orders")
      .set({
        status: "enviado",
        carrier: "DHL Express",
        tracking_number: "DHL123",
        shipped_at: yesterday,
        delivered_at: yesterday,
      })
      .where("id", "=", orderId)
      .execute();
  }

  async orderStatus(orderId: string): Promise<string | null> {
    const row = await this.database.db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", orderId)
      .executeTakeFirst();
    return row?.status ?? null;
  }

  /** The ids of a drop's products, in their order. */
  async productsOf(dropId: string): Promise<string[]> {
    const rows = await this.database.db
      .selectFrom("products")
      .select("id")
      .where("drop_id", "=", dropId)
      .orderBy("position")
      .execute();
    return rows.map((r) => r.id);
  }

  /** The id of a product's size (or length) by its value. */
  async sizeId(productId: string, value: string): Promise<string> {
    const row = await this.database.db
      .selectFrom("product_options")
      .select("id")
      .where("product_id", "=", productId)
      .where("value", "=", value)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async stockOf(productId: string): Promise<number> {
    const row = await this.database.db
      .selectFrom("products")
      .select("stock")
      .where("id", "=", productId)
      .executeTakeFirstOrThrow();
    return row.stock;
  }
}

/** The cart as a shopper handles it (the header button and the drawer). */
export class CartUtil {
  readonly drawer: Locator;
  constructor(private readonly page: Page) {
    this.drawer = page.getByRole("dialog", { name: "Carrito de compras" });
  }
  button(): Locator {
    return this.page.getByRole("button", { name: /^Abrir carrito/ });
  }
  async open() {
    await this.button().click();
    await expect(this.drawer).toBeVisible();
  }
  /** Opens a product page and adds `quantity` pieces with its quantity selector. */
  async addFromProductPage(href: string, quantity = 1) {
    await this.page.goto(href);
    for (let i = 1; i < quantity; i++) await this.page.getByRole("button", { name: "Uno más" }).click();
    await this.page.getByRole("button", { name: "Agregar al carrito" }).click();
  }
  line(name: string): Locator {
    return this.drawer.getByRole("listitem", { name });
  }
  async plus(name: string) {
    await this.line(name)
      .getByRole("button", { name: `Agregar uno de ${name}` })
      .click();
  }
  async minus(name: string) {
    await this.line(name)
      .getByRole("button", { name: `Quitar uno de ${name}` })
      .click();
  }
  async remove(name: string) {
    await this.line(name)
      .getByRole("button", { name: `Eliminar ${name} del carrito` })
      .click();
  }
  subtotal(): Locator {
    return this.drawer.getByTestId("subtotal");
  }
  count(): Locator {
    return this.page.getByTestId("cart-count");
  }
}

/** The orders desk (/admin/orders) as the owner uses it. */
export class OrdersDesk {
  constructor(private readonly page: Page) {}
  async open(tab: "pendiente" | "enviado" | "archivado" = "pendiente", search = "") {
    const params = new URLSearchParams({ estado: tab, ...(search ? { q: search } : {}) });
    await this.page.goto(`/admin/orders?${params}`);
    const heading = this.page.getByRole("heading", { name: "Pedidos", level: 1 });
    await expect(heading).toBeVisible();
    // Its dialogs and menus open only once React runs: a click before that is lost.
    await untilHydrated(heading);
  }
  tab(label: "Pendiente" | "Enviado" | "Archivado" | "Cancelados" | "Borrados del historial"): Locator {
    return this.page
      .getByRole("navigation", { name: "Estado de los pedidos" })
      .getByRole("link", { name: label });
  }
  async search(term: string) {
    await this.page.getByLabel("Buscar por número de pedido, nombre o correo").fill(term);
    await this.page.getByRole("button", { name: "Buscar" }).click();
  }
  /** An order's row of the table (a block of the dense list on a phone). */
  order(orderId: string): Locator {
    return this.page.locator(`tr[data-order="${orderId}"]`);
  }
  orders(): Locator {
    return this.page.locator("tr[data-order]");
  }
  shipDialog(orderId: string): Locator {
    return this.page.getByRole("dialog", { name: `Atender pedido ${orderId}` });
  }
  /** 'Atender pedido' with these values ('' leaves a field empty). */
  async ship(orderId: string, carrier: string, trackingNumber: string) {
    await this.order(orderId).getByRole("button", { name: "Atender pedido" }).click();
    const dialog = this.shipDialog(orderId);
    await expect(dialog).toBeVisible();
    if (carrier) await dialog.getByLabel("Paquetería").selectOption(carrier);
    await dialog.getByLabel("Número de guía").fill(trackingNumber);
    await dialog.getByRole("button", { name: "Marcar como enviado" }).click();
  }
  /** A delete button, then the confirmation dialog's own button. */
  /** 'Eliminar pedido' (a paid order: cancelled with its refund) or 'Borrar del historial', confirmed. */
  async remove(orderId: string, label: "Eliminar pedido" | "Borrar del historial") {
    await this.order(orderId).getByRole("button", { name: label }).click();
    const confirm = this.page.getByRole("alertdialog", { name: new RegExp(orderId) });
    if (label === "Eliminar pedido") {
      await expect(confirm).toContainText("No se puede deshacer");
      await confirm.getByRole("button", { name: /^Cancelar y reembolsar \$/ }).click();
    } else {
      await expect(confirm).toContainText("su registro queda en «Borrados del historial»");
      await confirm.getByRole("button", { name: label }).click();
    }
  }
}

export interface TestAdmin {
  id: string;
  email: string;
  password: string;
  /** The authenticator app's secret (base 32), to compute codes; empty until it is set up. */
  secret: string;
  recoveryCodes: string[];
}

/**
 * Administrator accounts and sessions for one test, made straight in the running shop's database:
 * tests about signing in use the form, every other signed-in test starts with `login(page)`.
 */
export class AdminUtil {
  constructor(private readonly auth: AdminAuth) {}

  /**
   * A new administrator with its own e-mail (login limits are counted per account), its second
   * factor set up (through the set-up steps' own functions) unless `secondFactor` is false.
   */
  async create({ secondFactor = true } = {}): Promise<TestAdmin> {
    const email = `admin-${newId(8)}@example.com`;
    const password = `clave-de-prueba-${newId(12)}`;
    const created = await this.auth.createAdmin({ email, name: "Administración de prueba", password });
    const admin: TestAdmin = { id: created.id, email, password, secret: "", recoveryCodes: [] };
    if (secondFactor) Object.assign(admin, await setUpSecondFactor(this.auth, admin));
    return admin;
  }

  /**
   * Signs `admin` (a new one by default) in without the form, password and code: its session
   * cookie goes into the page's browser.
   */
  async login(page: Page, admin?: TestAdmin): Promise<TestAdmin> {
    const account = admin ?? (await this.create());
    const result = await signInWithCode(this.auth, account, { address: "e2e" });
    const cookie = result.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? "";
    const value = cookie.slice(SESSION_COOKIE.length + 1).split(";")[0];
    if (!value) throw new Error(`no ${SESSION_COOKIE} cookie in ${result.setCookies.join(" | ")}`);
    await page.context().addCookies([
      {
        name: SESSION_COOKIE,
        value,
        domain: "127.0.0.1",
        path: "/",
        httpOnly: true,
        secure: false,
        sameSite: "Lax",
      },
    ]);
    return account;
  }

  /**
   * `times` wrong passwords for the account from other addresses and no browser of the shop's (a
   * guesser elsewhere): past the account's limit, an unknown device must bring a proof of work.
   */
  async failSignIns(admin: TestAdmin, times: number): Promise<void> {
    for (let i = 0; i < times; i++) {
      const answer = await this.auth.signIn({
        email: admin.email,
        password: `adivinanza-${i}-incorrecta`,
        address: `198.51.100.${i + 1}`,
        headers: new Headers(),
        secure: false,
      });
      if (answer.ok || answer.reason !== "invalido")
        throw new Error(`a guess was not checked: ${JSON.stringify(answer)}`);
    }
  }

  /** Ends every session of the account server-side, as 'Cerrar sesión en todos los dispositivos' does. */
  async endSessions(admin: TestAdmin): Promise<number> {
    return this.auth.signOutEverywhere(admin.id);
  }

  async activeSessions(admin: TestAdmin): Promise<number> {
    const all = await this.auth.listAdmins();
    return all.find((a) => a.id === admin.id)?.activeSessions ?? 0;
  }
}

/**
 * Ticks or unticks one filter of a collection page as a shopper would: in the open panel on a
 * wide screen (it applies at once), in the 'Filtrar' sheet on a phone (then 'Aplicar').
 */
export async function toggleFilter(page: Page, label: string): Promise<void> {
  const button = page.getByRole("button", { name: /^Filtrar/ });
  if (await button.isVisible()) {
    await button.click();
    const sheet = page.getByRole("dialog", { name: "Filtros" });
    await sheet.getByText(label, { exact: true }).click();
    await sheet.getByRole("button", { name: "Aplicar" }).click();
    await expect(sheet).toBeHidden();
  } else {
    await page.getByRole("form", { name: "Filtros" }).getByText(label, { exact: true }).click();
  }
}

/**
 * Waits until React has taken over the element (hydrated it): a press before that goes to the plain
 * HTML form, which a test of the scripted path (a proof of work, an answer in place) must not make.
 * Read from the props React puts on the element, which only hydration puts there.
 */
export async function untilHydrated(locator: Locator): Promise<void> {
  // The page's code has run and enabled what waits for it (decision 50)…
  await expect(locator.page().locator("html[data-hydrated]")).toHaveCount(1);
  // …and this element's part too (a part loaded later, in its own time, may come after).
  await expect
    .poll(() =>
      locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps$"))),
    )
    .toBe(true);
}

/**
 * Holds a route's own script (its module under /assets) until released: the page stays the
 * server's HTML, not yet taken over by React, as on a slow phone, so what the shopper does
 * meanwhile is what a test of that moment needs.
 */
export async function holdRouteScript(page: Page, routeModule: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Vite names it with an 8-character hash (product-tile-… is not product's).
  const script = new RegExp(`/assets/${routeModule}-[\\w-]{8}\\.js$`);
  await page.route(script, async (route) => {
    await released;
    await route.continue();
  });
  // Left in place once released (it then lets the script through at once): removing it while the
  // held request is in flight would answer that request twice.
  return release;
}

/** The demo payment page's form, filled in as a shopper would (an address in Oaxaca unless given). */
export async function fillDemoPayment(
  page: Page,
  who: { name: string; email: string },
  address: ShippingAddress = oaxacaAddress(who.name, "951 123 4567"),
): Promise<void> {
  await page.getByLabel("Nombre").fill(who.name);
  await page.getByLabel("Correo electrónico").fill(who.email);
  await page.getByLabel("Teléfono").fill(address.phone);
  await page.getByLabel("Calle y número").fill(address.line1);
  await page.getByLabel("Colonia").fill(address.line2);
  await page.getByLabel("Código postal").fill(address.postalCode);
  await page.getByLabel("Ciudad o municipio").fill(address.city);
  await page.getByLabel("Estado").fill(address.state);
}

/** The page fits the screen: nothing makes a phone scroll sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, viewport } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(scrollWidth, "page is wider than the screen").toBeLessThanOrEqual(viewport);
  expect(viewport).toBe(page.viewportSize()?.width);
}

/**
 * The axe rules Lighthouse's accessibility category runs (lighthouse 12.8,
 * core/gather/gatherers/accessibility.js): WCAG 2 A and AA, plus these best-practice and WCAG 2.2
 * rules switched on (target-size, heading-order, landmarks, skip link…) and a few switched off.
 */
const LIGHTHOUSE_AXE_OPTIONS = {
  runOnly: { type: "tag" as const, values: ["wcag2a", "wcag2aa"] },
  rules: Object.fromEntries([
    ...[
      "accesskeys",
      "aria-allowed-role",
      "aria-conditional-attr",
      "aria-deprecated-role",
      "aria-dialog-name",
      "aria-prohibited-attr",
      "aria-treeitem-name",
      "aria-text",
      "empty-heading",
      "heading-order",
      "html-xml-lang-mismatch",
      "identical-links-same-purpose",
      "image-redundant-alt",
      "input-button-name",
      "label-content-name-mismatch",
      "landmark-one-main",
      "link-in-text-block",
      "meta-viewport",
      "select-name",
      "skip-link",
      "tabindex",
      "table-duplicate-name",
      "table-fake-caption",
      "target-size",
      "td-has-header",
    ].map((id) => [id, { enabled: true }]),
    ...[
      "area-alt",
      "aria-braille-equivalent",
      "aria-roledescription",
      "audio-caption",
      "blink",
      "duplicate-id",
      "frame-focusable-content",
      "frame-title-unique",
      "marquee",
      "nested-interactive",
      "no-autoplay-audio",
      "role-img-alt",
      "scrollable-region-focusable",
      "server-side-image-map",
      "summary-name",
      "svg-img-alt",
    ].map((id) => [id, { enabled: false }]),
  ]),
};

/**
 * No serious or critical accessibility violations on the page as it is now, its code running.
 * `lighthouse`: no violation at all, of any impact, of the rules Lighthouse's accessibility score
 * is made of.
 * `landmarks`: also no content outside the landmarks (axe's 'region', a moderate rule that
 * neither of the above counts): the storefront's pages, the running drop's bar included.
 */
export async function expectAccessible(
  page: Page,
  options: { lighthouse?: boolean; exclude?: string; landmarks?: boolean } = {},
) {
  // The page as it works: until its code runs, controls only the code can work are disabled
  // (decision 50), and axe passes over what is disabled. The root marks the page once they are not.
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  const builder = new AxeBuilder({ page });
  if (options.lighthouse) {
    builder.options(
      options.landmarks
        ? { ...LIGHTHOUSE_AXE_OPTIONS, rules: { ...LIGHTHOUSE_AXE_OPTIONS.rules, region: { enabled: true } } }
        : LIGHTHOUSE_AXE_OPTIONS,
    );
  }
  if (options.exclude) builder.exclude(options.exclude);
  const results = await builder.analyze();
  const bad = results.violations
    .filter(
      (v) =>
        options.lighthouse ||
        v.impact === "serious" ||
        v.impact === "critical" ||
        (options.landmarks && v.id === "region"),
    )
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  // With `lighthouse` a test goes on to its next page and fails at its end, listing every page's faults.
  (options.lighthouse ? expect.soft : expect)(bad, `${page.url()}\n${bad.join("\n")}`).toEqual([]);
}

export const test = base.extend<
  { shop: ShopData; cart: CartUtil; admins: AdminUtil; desk: OrdersDesk; pageErrors: undefined },
  { database: Database; adminAuth: AdminAuth }
>({
  // Every page must run without errors: no CSP violation, hydration mismatch or exception.
  // (Failed requests are what some tests are about, so "Failed to load resource" is not one.)
  pageErrors: [
    async ({ page }, use, testInfo) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
      page.on("console", (message) => {
        const text = message.text();
        if (message.type() !== "error" || text.startsWith("Failed to load resource")) return;
        // A retry records a trace, whose DOM snapshots run a script in every frame; the frames
        // sandboxed without scripts (Campañas' e-mail preview) refuse it with this error. A file
        // of its own trace options instead would cost fresh workers on every run.
        if (testInfo.retry > 0 && text.startsWith("Blocked script execution") && text.includes("sandboxed"))
          return;
        errors.push(`console: ${text}`);
      });
      await use(undefined);
      expect(errors, errors.join("\n")).toEqual([]);
    },
    { auto: true },
  ],
  database: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const database = await openDatabase({ kind: "sqlite", file: path.resolve(E2E_DATA_DIR, "shop.db") });
      await use(database);
      await database.close();
    },
    { scope: "worker" },
  ],
  adminAuth: [
    async ({ database }, use) => {
      // The running shop's own settings (playwright.config.ts): same secret file, same lifetimes.
      const config = loadConfig({
        DATA_DIR: E2E_DATA_DIR,
        PORT: String(E2E_PORT),
        SESSION_SECRET: process.env.SESSION_SECRET,
        QUICK_PASSWORD_HASHES: E2E_QUICK_PASSWORD_HASHES,
      });
      await use(createAdminAuth(database, authSettings(config)));
    },
    { scope: "worker" },
  ],
  admins: async ({ adminAuth }, use) => {
    await use(new AdminUtil(adminAuth));
  },
  shop: async ({ database }, use) => {
    const shop = new ShopData(database);
    await use(shop);
    await shop.putAway();
  },
  cart: async ({ page }, use) => {
    await use(new CartUtil(page));
  },
  desk: async ({ page }, use) => {
    await use(new OrdersDesk(page));
  },
});

export { expect };
