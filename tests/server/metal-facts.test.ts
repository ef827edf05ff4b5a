import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { CONFIRMATION_EMAIL } from "~/mail/kinds";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import { confirmPayment } from "~/orders/payment.server";
import { settingsFromEnvironment } from "~/settings/settings";
import { signInAdmin } from "../support/admin-http";
import { oaxacaAddress } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";
import { announcements, fieldMessages, shopDay, visibleText } from "../support/page-text";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * The metal's facts through HTTP: the drop form refuses a bad karat, weight or stones with a
 * Spanish 400 and saves good ones; the product page shows them and its schema.org Product carries
 * them; the packing slip shows each line's. And a numbered edition's numbers, from the form to the
 * buyer's e-mail.
 */

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-metal-facts-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The page's JSON-LD blocks, parsed. */
function structuredData(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? "null") as Record<string, unknown>,
  );
}

/** The metal facts' definition list as [term, detail] pairs; empty when the page has none. */
function metalList(html: string): [string, string][] {
  const list = html.match(/<dl\b[^>]*data-testid="metal-facts"[^>]*>([\s\S]*?)<\/dl>/)?.[1];
  if (!list) return [];
  return [...list.matchAll(/<dt\b[^>]*>([\s\S]*?)<\/dt>\s*<dd\b[^>]*>([\s\S]*?)<\/dd>/g)].map((m) => [
    visibleText(m[1] ?? "").trim(),
    visibleText(m[2] ?? "").trim(),
  ]);
}

describeEachDatabase("the metal's facts through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let cookie = "";
  let photo: Buffer;

  beforeAll(async () => {
    database = await harness.fresh();
    photo = await sharp({ create: { width: 240, height: 240, channels: 3, background: "#b08d57" } })
      .png()
      .toBuffer();
    server = await startServer({
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = async (pathname: string, withCookie = "") => {
    const res = await fetch(`${server.url}${pathname}`, {
      redirect: "manual",
      headers: withCookie ? { cookie: withCookie } : {},
    });
    return { status: res.status, html: await res.text() };
  };

  async function post(pathname: string, body: URLSearchParams, via: "document" | "data" = "document") {
    const res = await fetch(`${server.url}${via === "data" ? `${pathname}.data` : pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url },
      body,
    });
    return { status: res.status, location: res.headers.get("location"), html: await res.text() };
  }

  async function freshDropId(): Promise<string> {
    const page = await get("/admin/drops/new-drop", cookie);
    const id = page.html.match(/<input[^>]*name="id"[^>]*value="([a-z0-9]{16})"/)?.[1] ?? "";
    expect(id).toMatch(/^[a-z0-9]{16}$/);
    return id;
  }

  async function upload(dropId: string): Promise<string> {
    const body = new FormData();
    body.append("dropId", dropId);
    body.append("kind", "image");
    body.append("file", new File([new Uint8Array(photo)], "foto.png", { type: "image/png" }));
    const res = await fetch(`${server.url}/admin/media`, {
      method: "POST",
      headers: { origin: server.url, cookie },
      body,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  /** The create form as the page posts it, one product with the given metal fields. */
  function createBody(dropId: string, imageId: string, facts: Record<string, string>): URLSearchParams {
    const body = new URLSearchParams({
      id: dropId,
      version: "",
      name: "Mareas de Oro",
      startDate: shopDay(-1),
      startTime: "10:00",
      endDate: shopDay(7),
      endTime: "22:00",
      imageId: "",
      videoId: "",
    });
    const product: Record<string, string> = {
      id: "",
      stockLoaded: "",
      name: "Anillo Marea",
      price: "12,500.00",
      stock: "5",
      categoria: "Anillo",
      material: "Oro amarillo",
      description: "",
      imageId,
      ...facts,
    };
    for (const [name, value] of Object.entries(product)) body.append(`products[0].${name}`, value);
    return body;
  }

  it("the drop form refuses a bad karat, weight or stones with a Spanish 400 and writes nothing; good ones are saved and shown when editing", async () => {
    const dropId = await freshDropId();
    const imageId = await upload(dropId);
    const weightFormat = "Escribe el peso en gramos, por ejemplo 2.35.";
    const weightRange = "El peso debe ser mayor a 0 g y de hasta 1000 g.";
    const karat = "Quilates: elige 10 k, 14 k o 18 k, o déjalo sin marcar.";
    const cases: [string, Record<string, string>, string][] = [
      ...["abc", "2.355", "-1", "1e3", "2 kg", "1,000.5"].map(
        (weight): [string, Record<string, string>, string] => [
          `weight '${weight}'`,
          { weight },
          weightFormat,
        ],
      ),
      ...["0", "0.00", "1000.01", "99999"].map((weight): [string, Record<string, string>, string] => [
        `weight '${weight}'`,
        { weight },
        weightRange,
      ]),
      ...["22", "24", "9", "catorce", "14 k"].map((k): [string, Record<string, string>, string] => [
        `karat '${k}'`,
        { karat: k },
        karat,
      ]),
      ["stones of 81", { stones: "z".repeat(81) }, "Piedras: máximo 80 caracteres."],
      ["NUL in the stones", { stones: "Perla\u0000" }, "Piedras: contiene caracteres no permitidos."],
    ];
    for (const [label, facts, message] of cases) {
      const res = await post("/admin/drops/new-drop", createBody(dropId, imageId, facts));
      expect.soft(res.status, label).toBe(400);
      expect.soft(res.location, label).toBeNull();
      expect.soft(announcements(res.html), label).toContain(message);
      // Said again under its own field, on the form still there to correct.
      expect.soft(fieldMessages(res.html), label).toContain(message);
      expect.soft(res.html, label).toContain('name="version"');
    }
    // The page's own JavaScript gets the same refusal.
    const scripted = await post(
      "/admin/drops/new-drop",
      createBody(dropId, imageId, { weight: "abc" }),
      "data",
    );
    expect(scripted.status).toBe(400);
    expect(scripted.html).toContain(weightFormat);
    expect(await getDrop(database.db, dropId)).toBeNull();

    // Good facts are saved, exactly.
    const created = await post(
      "/admin/drops/new-drop",
      createBody(dropId, imageId, { karat: "14", weight: "2.35", stones: "Zirconia blanca" }),
    );
    expect(created.status, announcements(created.html).join(" | ")).toBe(302);
    expect((await getDrop(database.db, dropId))?.products[0]?.metal).toEqual({
      karat: 14,
      weightMg: 2350,
      stones: "Zirconia blanca",
    });

    // The edit form shows them as typed.
    const edit = await get(`/admin/drops/edit-drop/${dropId}`, cookie);
    expect(edit.status).toBe(200);
    const karatSelect = edit.html.match(
      /<select\b[^>]*name="products\[0\]\.karat"[^>]*>([\s\S]*?)<\/select>/,
    )?.[1];
    expect(karatSelect?.match(/<option\b[^>]*\sselected=""[^>]*>([^<]*)</)?.[1]).toBe("14 k");
    expect(edit.html).toMatch(/<input\b[^>]*name="products\[0\]\.weight"[^>]*value="2\.35"/);
    expect(edit.html).toMatch(/<input\b[^>]*name="products\[0\]\.stones"[^>]*value="Zirconia blanca"/);

    // An edit with a bad weight is refused with 400 and changes nothing.
    const product = (await getDrop(database.db, dropId))?.products[0];
    const version = edit.html.match(/<input[^>]*name="version"[^>]*value="([^"]*)"/)?.[1] ?? "";
    const editBody = (facts: Record<string, string>) => {
      const body = createBody(dropId, imageId, { id: product?.id ?? "", stockLoaded: "5", ...facts });
      body.set("version", version);
      body.set("status", "activa");
      return body;
    };
    const refused = await post(
      `/admin/drops/edit-drop/${dropId}`,
      editBody({ weight: "2.3.5", karat: "14" }),
    );
    expect(refused.status).toBe(400);
    expect(announcements(refused.html)).toContain(weightFormat);
    expect((await getDrop(database.db, dropId))?.products[0]?.metal.weightMg).toBe(2350);
    // And a good edit is kept: 18 k, 0.8 g, no stones.
    const saved = await post(
      `/admin/drops/edit-drop/${dropId}`,
      editBody({ karat: "18", weight: "0,8", stones: "" }),
    );
    expect(saved.status, announcements(saved.html).join(" | ")).toBeLessThan(400);
    expect((await getDrop(database.db, dropId))?.products[0]?.metal).toEqual({
      karat: 18,
      weightMg: 800,
      stones: null,
    });
  });

  it("the product page lists the facts and its schema.org Product carries material and weight in grams; a piece without facts shows none", async () => {
    const now = Date.now();
    const dropId = await createDrop(database.db, {
      name: "Raíces",
      status: "activa",
      startAt: new Date(now - HOUR),
      endAt: new Date(now + DAY),
      products: [
        {
          name: "Anillo Milpa",
          categoria: "Anillo",
          material: "Oro rosa",
          priceCents: 480_000,
          stock: 3,
          imageId: null,
          metal: { karat: 14, weightMg: 2350, stones: "Zirconia blanca" },
        },
        {
          name: "Cadena Sola",
          categoria: "Collar",
          material: "Oro amarillo",
          priceCents: 200_000,
          stock: 2,
          imageId: null,
        },
      ],
    });
    const [ring, chain] = (await getDrop(database.db, dropId))?.products ?? [];

    const page = await get(`/drop/${dropId}/product/${ring?.id}`);
    expect(page.status).toBe(200);
    expect(metalList(page.html)).toEqual([
      ["Metal", "Oro de 14 k (585)"],
      ["Peso", "2.35 g"],
      ["Piedras", "Zirconia blanca"],
    ]);
    const product = structuredData(page.html).find((d) => d["@type"] === "Product");
    expect(product).toMatchObject({
      "@context": "https://schema.org",
      name: "Anillo Milpa",
      material: "Oro rosa de 14 k",
      weight: { "@type": "QuantitativeValue", value: 2.35, unitCode: "GRM" },
      offers: {
        "@type": "Offer",
        priceCurrency: "MXN",
        price: "4800.00",
        availability: "https://schema.org/InStock",
      },
    });

    const plain = await get(`/drop/${dropId}/product/${chain?.id}`);
    expect(plain.status).toBe(200);
    expect(plain.html).not.toContain('data-testid="metal-facts"');
    const plainProduct = structuredData(plain.html).find((d) => d["@type"] === "Product");
    expect(plainProduct).toMatchObject({ name: "Cadena Sola", material: "Oro amarillo" });
    expect(plainProduct).not.toHaveProperty("weight");
  });

  it("the packing slip shows each line's metal facts", async () => {
    const now = Date.now();
    const dropId = await createDrop(database.db, {
      name: "Luz de Otoño",
      status: "activa",
      startAt: new Date(now - HOUR),
      endAt: new Date(now + DAY),
      products: [
        {
          name: "Solitario Candela",
          categoria: "Anillo",
          material: "Oro amarillo",
          priceCents: 900_000,
          stock: 3,
          imageId: null,
          metal: { karat: 18, weightMg: 2850, stones: "Diamante de 0.25 ct" },
        },
        {
          name: "Esclavas Octubre",
          categoria: "Pulsera",
          material: "Oro blanco",
          priceCents: 500_000,
          stock: 3,
          imageId: null,
          metal: { karat: 10, weightMg: 7400, stones: null },
        },
        {
          name: "Cadena Sola",
          categoria: "Collar",
          material: "Oro rosa",
          priceCents: 100_000,
          stock: 3,
          imageId: null,
        },
      ],
    });
    const products = (await getDrop(database.db, dropId))?.products ?? [];
    const order = await hold(database.db, {
      lines: products.map((p) => ({ productId: p.id, dropId, quantity: 1 })),
      provider: "demo",
    });
    expect(
      await confirmPayment(database.db, {
        orderId: order.id,
        customerName: "Renata Quiroga",
        customerEmail: "renata@example.mx",
        shipping: oaxacaAddress("Renata Quiroga", "951 123 4567"),
      }),
    ).toBe("paid");

    const slip = await get(`/admin/orders/${order.id}/imprimir`, cookie);
    expect(slip.status).toBe(200);
    const rows = [...slip.html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((m) =>
      visibleText(m[1] ?? "").trim(),
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Solitario Candela Oro de 18 k \(750\) · 2\.85 g · Diamante de 0\.25 ct 1 ☐$/),
        expect.stringMatching(/^Esclavas Octubre Oro de 10 k \(417\) · 7\.4 g 1 ☐$/),
        expect.stringMatching(/^Cadena Sola 1 ☐$/),
      ]),
    );
  });

  it("a numbered edition: the form takes 'Edición limitada (piezas)' (a bad one refused in Spanish), each paid unit's number shows on the order, the packing slip and the confirmation e-mail, and the edition cannot shrink below a number given", async () => {
    const dropId = await freshDropId();
    const imageId = await upload(dropId);
    const message = "Edición limitada: escribe cuántas piezas numeradas son (de 1 a 100000), o déjalo vacío.";
    for (const edition of ["0", "-3", "tres", "100001", "2.5"]) {
      const res = await post("/admin/drops/new-drop", createBody(dropId, imageId, { edition }));
      expect.soft(res.status, edition).toBe(400);
      expect.soft(fieldMessages(res.html), edition).toContain(message);
    }
    // More pieces on sale than numbers: the ones past the edition would go unnumbered.
    const over = await post(
      "/admin/drops/new-drop",
      createBody(dropId, imageId, { edition: "3", stock: "5" }),
    );
    expect(over.status).toBe(400);
    expect(fieldMessages(over.html)).toContain(
      "La edición es de 3 piezas numeradas: el stock (5) no puede ser mayor.",
    );
    const created = await post(
      "/admin/drops/new-drop",
      createBody(dropId, imageId, { edition: "3", stock: "3" }),
    );
    expect(created.status, announcements(created.html).join(" | ")).toBe(302);
    // A new drop is a draft (decision 38): published, the shop shows and sells it.
    const published = await post(
      `/admin/drops/edit-drop/${dropId}`,
      new URLSearchParams({ intent: "publicar", cuando: "ahora" }),
      "data",
    );
    expect(published.status).toBe(200);
    const product = (await getDrop(database.db, dropId))?.products[0];
    expect(product?.editionSize).toBe(3);
    const edit = await get(`/admin/drops/edit-drop/${dropId}`, cookie);
    expect(edit.html).toMatch(/<input\b[^>]*name="products\[0\]\.edition"[^>]*value="3"/);
    // The shopper reads it on the product page.
    expect(metalList((await get(`/drop/${dropId}/product/${product?.id}`)).html)).toEqual([
      ["Edición", "Limitada, 3 piezas numeradas"],
    ]);

    const buy = async (quantity: number, name: string) => {
      const order = await hold(database.db, {
        lines: [{ productId: product?.id ?? "", dropId, quantity }],
        provider: "demo",
      });
      await confirmPayment(database.db, {
        orderId: order.id,
        customerName: name,
        customerEmail: `${name.toLowerCase().replace(/\s/g, ".")}@example.mx`,
        shipping: oaxacaAddress(name, "951 123 4567"),
      });
      return order.id;
    };
    const first = await buy(1, "Renata Quiroga");
    const second = await buy(2, "Lucía Ortega");
    const deskPage = visibleText((await get(`/admin/orders/${second}`, cookie)).html);
    expect(deskPage).toContain("Piezas 2 y 3 de 3");
    const slip = visibleText((await get(`/admin/orders/${first}/imprimir`, cookie)).html);
    expect(slip).toContain("Pieza 1 de 3");
    // After the slip, a certificate of authenticity per numbered piece, with its care.
    const both = (await get(`/admin/orders/${second}/imprimir`, cookie)).html;
    const certificates = [
      ...both.matchAll(/<article\b[^>]*aria-labelledby="certificado-[^"]*"[^>]*>([\s\S]*?)<\/article>/g),
    ].map((m) => visibleText(m[1] ?? ""));
    expect(certificates).toHaveLength(2);
    expect(certificates[0]).toMatch(
      /Certificado de autenticidad Anillo Marea Pieza 2 de 3 .*Cuidados Guárdala sola/,
    );
    expect(certificates[1]).toContain("Pieza 3 de 3");
    expect(certificates[1]).toContain(`Pedido ${second}`);
    expect(visibleText((await get(`/admin/orders/${first}/imprimir`, cookie)).html)).not.toContain(
      "Pieza 2 de 3",
    );
    const templates = orderEmailTemplates(database.db, () => settingsFromEnvironment(loadConfig({}).shop));
    const mail = await templates[CONFIRMATION_EMAIL]?.({
      id: "confirmacion",
      kind: CONFIRMATION_EMAIL,
      recipient: "lucia.ortega@example.mx",
      orderId: second,
      payload: {},
    });
    if (!mail) throw new Error("no confirmation e-mail");
    expect(mail.text).toContain("Anillo Marea × 2: $25,000.00 (Piezas 2 y 3 de 3)");
    expect(mail.html).toContain("Piezas 2 y 3 de 3");

    // The buyers' certificates say 2 and 3 of 3: the edition cannot become smaller, nor unnumbered.
    const version = edit.html.match(/<input[^>]*name="version"[^>]*value="([^"]*)"/)?.[1] ?? "";
    for (const edition of ["2", ""]) {
      const body = createBody(dropId, imageId, {
        id: product?.id ?? "",
        stockLoaded: "2",
        stock: "2",
        edition,
      });
      body.set("version", version);
      body.set("status", "activa");
      const res = await post(`/admin/drops/edit-drop/${dropId}`, body);
      expect(res.status, edition).toBe(409);
      expect(announcements(res.html).join(" ")).toContain("ya tiene piezas numeradas hasta la 3");
    }
    // Nor can more pieces go on sale than numbers are left (3 of 3 sold: none).
    const more = createBody(dropId, imageId, {
      id: product?.id ?? "",
      stockLoaded: "0",
      stock: "1",
      edition: "3",
    });
    more.set("version", version);
    more.set("status", "activa");
    const refused = await post(`/admin/drops/edit-drop/${dropId}`, more);
    expect(refused.status).toBe(409);
    expect(announcements(refused.html).join(" ")).toContain(
      "Anillo Marea: su edición es de 3 piezas numeradas, 3 ya vendidas; a la venta caben 0 piezas como máximo.",
    );
    expect((await getDrop(database.db, dropId))?.products[0]?.editionSize).toBe(3);
  });
});
