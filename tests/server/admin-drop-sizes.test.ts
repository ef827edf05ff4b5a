import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { MAX_STOCK } from "~/db/taxonomy";
import { publishDrop } from "~/drops-desk/publish.server";
import { holdCart } from "~/orders/holds.server";
import { signInAdmin } from "../support/admin-http";
import { describeEachDatabase } from "../support/databases";
import { changed, dropBody, formFields } from "../support/drop-form-fields";
import { announcements, shopDay } from "../support/page-text";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * The drop form's sizes over HTTP, as a browser without JavaScript posts them (issue 24): a ring
 * created with sizes 5–8 is stored with each size's stock and its own as their sum; every bad size
 * is a 400 with its Spanish message beside the field; a size edited while a shopper holds a piece
 * of it keeps the hold and moves by the difference.
 */

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-sizes-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const CREATED = "/admin/drops/show-upcoming-drops?aviso=creado";

/** The ring's fields on the create form, with its sizes as `[value, stock]`. */
function ring(imageId: string, sizes: [string, string][]): Record<string, string> {
  return {
    id: "",
    stockLoaded: "",
    name: "Anillo Marea",
    price: "4,500.00",
    categoria: "Anillo",
    material: "Oro rosa",
    imageId,
    optionName: "Talla",
    ...Object.fromEntries(
      sizes.flatMap(([value, stock], j) => [
        [`options[${j}].value`, value],
        [`options[${j}].stock`, stock],
      ]),
    ),
  };
}

/**
 * The field errors of an action's `.data` answer (React Router's flat encoding: objects name
 * their keys and values by their place in one array).
 */
function fieldsOf(body: string): Record<string, string> {
  const flat = JSON.parse(body.split("\n")[0] ?? "[]") as unknown[];
  const at = (i: number): unknown => {
    const v = flat[i];
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, j]) => [flat[Number(k.slice(1))], at(Number(j))]));
  };
  const root = at(0) as { data?: { errors?: { fields?: Record<string, string> } } };
  return root.data?.errors?.fields ?? {};
}

describeEachDatabase("the drop form's sizes through HTTP", (harness) => {
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

  const get = (pathname: string) =>
    fetch(`${server.url}${pathname}`, { redirect: "manual", headers: { cookie } });

  /** Posts as a browser without JavaScript (`document`) or as the page's own script (`data`). */
  async function post(pathname: string, body: URLSearchParams, via: "document" | "data" = "document") {
    const res = await fetch(`${server.url}${via === "data" ? `${pathname}.data` : pathname}`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    const html = await res.text();
    return {
      status: res.status,
      location: res.headers.get("location"),
      html,
      said: announcements(html),
    };
  }

  /** A new drop's id (the create form's hidden field) and a photo uploaded for it. */
  async function newDropWithPhoto(): Promise<{ id: string; imageId: string }> {
    const page = await get("/admin/drops/new-drop");
    const id = formFields(await page.text()).find(([name]) => name === "id")?.[1] ?? "";
    const body = new FormData();
    body.append("dropId", id);
    body.append("kind", "image");
    body.append("file", new File([new Uint8Array(photo)], "foto.png", { type: "image/png" }));
    const res = await fetch(`${server.url}/admin/media`, {
      method: "POST",
      headers: { origin: server.url, cookie },
      body,
    });
    const json = (await res.json()) as { id: string };
    expect(res.status, JSON.stringify(json)).toBe(201);
    return { id, imageId: json.id };
  }

  function createRing(
    dropId: string,
    imageId: string,
    sizes: [string, string][],
    via: "document" | "data" = "document",
  ) {
    const drop = {
      id: dropId,
      version: "",
      name: "Mareas de Oro",
      startDate: shopDay(-1),
      startTime: "10:00",
      endDate: shopDay(7),
      endTime: "22:00",
      imageId: "",
      videoId: "",
    };
    return post("/admin/drops/new-drop", dropBody(drop, [ring(imageId, sizes)]), via);
  }

  /** The product's stock and each size's, in the owner's order, with their ids. */
  async function stored(dropId: string) {
    const product = await database.db
      .selectFrom("products")
      .select(["id", "stock", "option_name"])
      .where("drop_id", "=", dropId)
      .executeTakeFirstOrThrow();
    const sizes = await database.db
      .selectFrom("product_options")
      .select(["id", "value", "stock"])
      .where("product_id", "=", product.id)
      .orderBy("position")
      .execute();
    return { product, sizes };
  }

  it("creates a ring in sizes 5, 6, 7 and 8 with 1, 2, 3 and 4 pieces: stored, the product's stock 10", async () => {
    const { id, imageId } = await newDropWithPhoto();
    const created = await createRing(id, imageId, [
      ["5", "1"],
      ["6", "2"],
      ["7", "3"],
      ["8", "4"],
    ]);
    expect(created.status, created.said.join(" | ")).toBe(302);
    expect(created.location).toBe(CREATED);
    const { product, sizes } = await stored(id);
    expect(product).toMatchObject({ stock: 10, option_name: "Talla" });
    expect(sizes.map((s) => [s.value, s.stock])).toEqual([
      ["5", 1],
      ["6", 2],
      ["7", 3],
      ["8", 4],
    ]);

    // The edit form shows them, each with the stock it loaded; the product's stock is not a field.
    const form = formFields(await (await get(`/admin/drops/edit-drop/${id}`)).text());
    const value = (name: string) => form.find(([n]) => n === name)?.[1];
    expect(value("products[0].optionName")).toBe("Talla");
    expect(value("products[0].stock")).toBeUndefined();
    expect(value("products[0].stockLoaded")).toBe("10");
    sizes.forEach((s, j) => {
      expect(value(`products[0].options[${j}].id`)).toBe(s.id);
      expect(value(`products[0].options[${j}].value`)).toBe(s.value);
      expect(value(`products[0].options[${j}].stock`)).toBe(String(s.stock));
      expect(value(`products[0].options[${j}].stockLoaded`)).toBe(String(s.stock));
    });
  });

  it("every bad size is a 400 with its Spanish message beside the field, and nothing is stored", async () => {
    const { id, imageId } = await newDropWithPhoto();
    const tooMany = Array.from({ length: 31 }, (_, j): [string, string] => [String(3 + j / 2), "1"]);
    // Each with the field the message is said beside (the page's own script shows it there).
    const cases: { sizes: [string, string][]; field: string; message: string }[] = [
      { sizes: [["", "1"]], field: "options.0.value", message: "Escribe la talla." },
      {
        sizes: [
          ["7", "1"],
          ["7", "2"],
        ],
        field: "options.1.value",
        message: "La talla 7 está dos veces: escribe cada una una vez.",
      },
      { sizes: [["7", ""]], field: "options.0.stock", message: "Escribe cuántas piezas hay de la talla 7." },
      ...["1.5", "-1", "tres"].map((stock) => ({
        sizes: [["7", stock]] as [string, string][],
        field: "options.0.stock",
        message: "El stock de la talla 7 es un número entero de piezas.",
      })),
      {
        sizes: [["7", String(MAX_STOCK + 1)]],
        field: "options.0.stock",
        message: `El stock de la talla 7 puede ser de hasta ${MAX_STOCK} piezas.`,
      },
      { sizes: [["x".repeat(21), "1"]], field: "options.0.value", message: "Talla: máximo 20 caracteres." },
      { sizes: tooMany, field: "options", message: "Hasta 30 tallas por producto." },
      { sizes: [], field: "options", message: "Agrega al menos una talla." },
    ];
    for (const { sizes, field, message } of cases) {
      const res = await createRing(id, imageId, sizes);
      expect.soft(res.status, message).toBe(400);
      expect.soft(res.said, message).toContain(message);
      const data = await createRing(id, imageId, sizes, "data");
      expect.soft(data.status, message).toBe(400);
      expect.soft(fieldsOf(data.html), message).toMatchObject({ [`products.0.${field}`]: message });
    }
    const drop = await database.db.selectFrom("drops").select("id").where("id", "=", id).executeTakeFirst();
    expect(drop).toBeUndefined();
  });

  it("a size edited while a checkout holds a piece of it: the hold is kept, the stock moves by the difference", async () => {
    const { id, imageId } = await newDropWithPhoto();
    const created = await createRing(id, imageId, [
      ["5", "1"],
      ["6", "2"],
      ["7", "3"],
      ["8", "4"],
    ]);
    expect(created.status, created.said.join(" | ")).toBe(302);
    await database.db.updateTable("drops").set({ status: "activa" }).where("id", "=", id).execute();
    // A new drop is a draft (decision 38): published, shoppers can hold its pieces.
    expect(await publishDrop(database.db, id, null)).toEqual({ ok: true });
    const form = formFields(await (await get(`/admin/drops/edit-drop/${id}`)).text());
    const { product, sizes } = await stored(id);
    const seven = sizes.find((s) => s.value === "7");
    // A shopper holds one size 7 while the owner's form is open.
    const held = await holdCart(database.db, {
      lines: [{ productId: product.id, dropId: id, quantity: 1, optionId: seven?.id }],
      provider: "demo",
    });
    expect(held.ok).toBe(true);
    const orderId = held.ok ? held.id : "";

    // Removing size 7 now is refused; so is a cut below what is left of it.
    const withoutSeven = changed(
      form.filter(([name]) => !name.startsWith("products[0].options[2].")),
      {},
    );
    const removed = await post(`/admin/drops/edit-drop/${id}`, withoutSeven);
    expect(removed.status).toBe(409);
    expect(removed.said).toContain(
      "Hubo un error al actualizar el drop. No se puede quitar la talla 7 de Anillo Marea: tiene piezas apartadas en pagos que aún no terminan. Se puede cuando esos pagos terminen o venzan sus apartados.",
    );
    const cut = await post(
      `/admin/drops/edit-drop/${id}`,
      changed(form, { "products[0].options[2].stock": "0" }),
    );
    expect(cut.status).toBe(409);
    expect(cut.said).toContain(
      "Hubo un error al actualizar el drop. El stock de Anillo Marea talla 7 cambió mientras editabas (ahora hay 2): recarga la página y vuelve a escribirlo.",
    );
    expect((await stored(id)).sizes.map((s) => s.stock)).toEqual([1, 2, 2, 4]);

    // The owner saw 3 and types 5: 2 left + 2 = 4; the sum 9 + 2 = 11.
    const saved = await post(
      `/admin/drops/edit-drop/${id}`,
      changed(form, { "products[0].options[2].stock": "5" }),
    );
    expect(saved.status, saved.said.join(" | ")).toBe(200);
    expect(saved.said).toContain("Drop actualizado correctamente");
    const after = await stored(id);
    expect(after.product.stock).toBe(11);
    expect(after.sizes.map((s) => [s.id, s.value, s.stock])).toEqual(
      sizes.map((s) => [s.id, s.value, s.value === "7" ? 4 : s.stock]),
    );
    const order = await database.db
      .selectFrom("orders")
      .innerJoin("order_lines", "order_lines.order_id", "orders.id")
      .select(["orders.status", "order_lines.option_id", "order_lines.option_value", "order_lines.quantity"])
      .where("orders.id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ status: "esperando_pago", option_id: seven?.id, option_value: "7", quantity: 1 });
  });
});
