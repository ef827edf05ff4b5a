import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { signInAdmin } from "../support/admin-http";
import { describeEachDatabase } from "../support/databases";
import { changed, dropBody, type Fields, formFields } from "../support/drop-form-fields";
import { announcements, shopDay, visibleText } from "../support/page-text";
import { type RunningServer, startServer } from "../support/server-process";

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-drops-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const EVIL = "https://evil.example";
const CREATED = "/admin/drops/show-upcoming-drops?aviso=creado";
const NOT_FOUND = "/admin/drops?aviso=no-encontrado";
const MEDIA_GONE = "Una imagen o el video ya no está disponible: súbelo de nuevo.";
const BAD_MEDIA_ID = "Esa imagen no es válida; súbela de nuevo.";
const NOT_A_FORM = "Envía el formulario.";

type Via = "document" | "data";

/** A valid new drop (running from yesterday to next week), each field replaceable; `undefined` leaves it out. */
function newDrop(id: string, changes: Record<string, string | undefined> = {}): Fields {
  const drop: Record<string, string | undefined> = {
    id,
    version: "",
    name: "Mareas de Oro",
    startDate: shopDay(-1),
    startTime: "10:00",
    endDate: shopDay(7),
    endTime: "22:00",
    smallDescription: "Piezas hechas a mano en Oaxaca.",
    fullDescription: "Oro de 14 quilates, fundido y pulido a mano.",
    imageId: "",
    videoId: "",
    ...changes,
  };
  return Object.fromEntries(Object.entries(drop).filter((e): e is [string, string] => e[1] !== undefined));
}

function piece(imageId: string, changes: Record<string, string | string[] | undefined> = {}): Fields {
  const product: Record<string, string | string[] | undefined> = {
    id: "",
    stockLoaded: "",
    name: "Anillo Marea",
    price: "12,500.00",
    stock: "5",
    categoria: "Anillo",
    material: "Oro rosa",
    description: "Anillo de oro rosa con textura de olas.",
    imageId,
    ...changes,
  };
  return Object.fromEntries(
    Object.entries(product).filter((e): e is [string, string | string[]] => e[1] !== undefined),
  );
}

async function png(width = 240, height = 240): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#b08d57" } })
    .png()
    .toBuffer();
}

describeEachDatabase("the drops desk through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let dataDir: string;
  let cookie = "";
  let photo: Buffer;

  beforeAll(async () => {
    database = await harness.fresh();
    dataDir = path.join(tmp, harness.dialect);
    photo = await png();
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (pathname: string, withCookie = cookie) =>
    fetch(`${server.url}${pathname}`, {
      redirect: "manual",
      headers: withCookie ? { cookie: withCookie } : {},
    });

  /**
   * Posts a form to a drops page. `document` is a browser without JavaScript (the answer is the
   * page); `data` is what the page's own JavaScript sends (React Router's `.data` request: the
   * list's delete button is a fetcher).
   */
  async function post(
    pathname: string,
    body: URLSearchParams | string,
    {
      headers = { cookie, origin: server.url },
      via = "document",
      type = "application/x-www-form-urlencoded",
    }: { headers?: Record<string, string>; via?: Via; type?: string } = {},
  ) {
    const url = via === "data" ? `${pathname}.data` : pathname;
    const res = await fetch(`${server.url}${url}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": type, ...headers },
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

  const create = (body: URLSearchParams | string, options?: Parameters<typeof post>[2]) =>
    post("/admin/drops/new-drop", body, options);
  const save = (dropId: string, body: URLSearchParams | string, options?: Parameters<typeof post>[2]) =>
    post(`/admin/drops/edit-drop/${dropId}`, body, options);
  const remove = (dropId: string, options?: Parameters<typeof post>[2]) =>
    post(`/admin/drops/edit-drop/${dropId}`, new URLSearchParams({ intent: "eliminar" }), {
      via: "data",
      ...options,
    });

  /** Uploads a photo for a drop (saved or not) as the form does as soon as one is chosen: its media id. */
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
    const json = (await res.json()) as { id: string; url: string };
    expect(res.status, JSON.stringify(json)).toBe(201);
    expect(json.url).toMatch(new RegExp(`^/media/drops/${dropId}/${json.id}-\\d+\\.webp$`));
    return json.id;
  }

  /** The id the create form was given (its hidden `id` field). */
  async function freshDropId(): Promise<string> {
    const page = await get("/admin/drops/new-drop");
    expect(page.status).toBe(200);
    const id = formFields(await page.text()).find(([name]) => name === "id")?.[1] ?? "";
    expect(id).toMatch(/^[a-z0-9]{16}$/);
    return id;
  }

  /** A drop created through the desk, with one product (5 pieces) and its photo. */
  async function createdDrop(name = "Mareas de Oro") {
    const id = await freshDropId();
    const imageId = await upload(id);
    const res = await create(dropBody(newDrop(id, { name, imageId }), [piece(imageId)]));
    expect(res.status, res.said.join(" | ")).toBe(302);
    expect(res.location).toBe(CREATED);
    const product = await database.db
      .selectFrom("products")
      .select("id")
      .where("drop_id", "=", id)
      .executeTakeFirstOrThrow();
    return { id, imageId, productId: product.id };
  }

  async function dropRow(id: string) {
    return (
      (await database.db
        .selectFrom("drops")
        .select(["id", "name", "status", "start_at", "end_at", "image_id", "updated_at"])
        .where("id", "=", id)
        .executeTakeFirst()) ?? null
    );
  }

  async function productRows(dropId: string) {
    return database.db
      .selectFrom("products")
      .select(["id", "name", "price_cents", "stock", "categoria", "material", "image_id", "updated_at"])
      .where("drop_id", "=", dropId)
      .orderBy("position")
      .execute();
  }

  /** Everything the drops desk can write: drops, products, their extra photos and media rows. */
  async function everything() {
    const [drops, products, images, media] = await Promise.all([
      database.db.selectFrom("drops").selectAll().orderBy("id").execute(),
      database.db.selectFrom("products").selectAll().orderBy("id").execute(),
      database.db
        .selectFrom("product_images")
        .selectAll()
        .orderBy("product_id")
        .orderBy("position")
        .execute(),
      database.db.selectFrom("media").selectAll().orderBy("id").execute(),
    ]);
    return { drops, products, images, media };
  }

  /** The drop's three actions, each with a form that would succeed with a session. */
  async function everyAction() {
    const drop = await createdDrop("Colección protegida");
    const page = await get(`/admin/drops/edit-drop/${drop.id}`);
    expect(page.status).toBe(200);
    const editForm = formFields(await page.text());
    const unsavedId = await freshDropId();
    const newImage = await upload(unsavedId);
    return {
      drop,
      unsavedId,
      attempts: [
        {
          label: "create",
          path: "/admin/drops/new-drop",
          body: dropBody(newDrop(unsavedId, { imageId: newImage }), [piece(newImage)]),
        },
        {
          label: "save",
          path: `/admin/drops/edit-drop/${drop.id}`,
          body: changed(editForm, { name: "Cambiada desde fuera", status: "archivada" }),
        },
        {
          label: "delete",
          path: `/admin/drops/edit-drop/${drop.id}`,
          body: new URLSearchParams({ intent: "eliminar" }),
        },
      ],
    };
  }

  it("signed out: the desk's pages send to /login, every action answers 401, nothing changes", async () => {
    const { drop, unsavedId: unsaved, attempts } = await everyAction();
    const before = await everything();

    for (const page of [
      "/admin/drops",
      "/admin/drops/show-active-drops",
      "/admin/drops/show-upcoming-drops",
      "/admin/drops/show-upcoming-drops?aviso=creado",
      "/admin/drops/show-archive-drops",
      "/admin/drops/new-drop",
      `/admin/drops/edit-drop/${drop.id}`,
    ]) {
      const res = await get(page, "");
      expect(res.status, page).toBe(302);
      expect(res.headers.get("location"), page).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);
    }

    for (const { label, path: pathname, body } of attempts) {
      for (const via of ["document", "data"] as const) {
        const res = await post(pathname, body, { headers: { origin: server.url }, via });
        expect(res.status, `${label} (${via})`).toBe(401);
        expect(res.location, `${label} (${via})`).toBeNull();
        // The owner is told to sign in again, not that something broke.
        if (via === "document") expect(visibleText(res.html), label).toContain("Tu sesión terminó");
      }
    }
    // A session cookie that is not one is no session.
    const forged = await post(attempts[2]?.path ?? "", new URLSearchParams({ intent: "eliminar" }), {
      headers: { origin: server.url, cookie: "sesion_admin=inventada" },
    });
    expect(forged.status).toBe(401);

    expect(await everything()).toEqual(before);
    expect(await dropRow(unsaved)).toBeNull();
  });

  it("from another site with a valid session: every action is refused with 403 and nothing changes", async () => {
    const { unsavedId: unsaved, attempts } = await everyAction();
    const before = await everything();
    for (const { label, path: pathname, body } of attempts) {
      for (const via of ["document", "data"] as const) {
        // The server refuses a foreign Origin before any page runs…
        const foreign = await post(pathname, body, { headers: { cookie, origin: EVIL }, via });
        expect(foreign.status, `${label} (${via}) Origin`).toBe(403);
        expect(foreign.location).toBeNull();
        expect(visibleText(foreign.html), label).toContain("no permitida");
        // …and the guard refuses what it lets through: no Origin, or one the browser marks cross-site.
        const unsure: Record<string, string>[] = [{ cookie, "sec-fetch-site": "cross-site" }, { cookie }];
        for (const headers of unsure) {
          const res = await post(pathname, body, { headers, via });
          expect(res.status, `${label} (${via}) ${JSON.stringify(headers)}`).toBe(403);
          expect(res.location).toBeNull();
          if (via === "document") expect(visibleText(res.html), label).toContain("no permitida");
        }
      }
    }
    expect(await everything()).toEqual(before);
    expect(await dropRow(unsaved)).toBeNull();
    // The session itself is untouched.
    expect((await get("/admin/drops")).status).toBe(200);
  });

  it("the create action refuses every invalid field with 400 and its Spanish message, writing nothing", async () => {
    const id = await freshDropId();
    const imageId = await upload(id);
    const otherDropImage = await upload(newId());
    const before = await everything();
    const extras = (n: number) => Array.from({ length: n }, () => newId());
    const cases: {
      label: string;
      drop?: Record<string, string | undefined>;
      products?: Fields[];
      status?: number;
      message: string;
    }[] = [
      { label: "no name", drop: { name: undefined }, message: "Escribe el nombre de la colección." },
      { label: "blank name", drop: { name: "   " }, message: "Escribe el nombre de la colección." },
      { label: "name of 121", drop: { name: "a".repeat(121) }, message: "Nombre: máximo 120 caracteres." },
      {
        label: "NUL in the name",
        drop: { name: "Mareas\u0000de Oro" },
        message: "Nombre: contiene caracteres no permitidos.",
      },
      {
        label: "line break in the name (one line)",
        drop: { name: "Mareas\nde Oro" },
        message: "Nombre: contiene caracteres no permitidos.",
      },
      {
        label: "DEL in the photo's description",
        drop: { imageAlt: "Anillo\u007f" },
        message: "Descripción de la imagen: contiene caracteres no permitidos.",
      },
      {
        label: "escape in the short description",
        drop: { smallDescription: "Piezas \u001b[31m rojas" },
        message: "Descripción corta: contiene caracteres no permitidos.",
      },
      {
        label: "short description of 301",
        drop: { smallDescription: "a".repeat(301) },
        message: "Descripción corta: máximo 300 caracteres.",
      },
      {
        label: "bell in the full description",
        drop: { fullDescription: "Oro\u0007" },
        message: "Descripción completa: contiene caracteres no permitidos.",
      },
      {
        label: "full description of 5001",
        drop: { fullDescription: "a".repeat(5001) },
        message: "Descripción completa: máximo 5000 caracteres.",
      },
      { label: "no start date", drop: { startDate: undefined }, message: "Escribe la fecha de inicio." },
      { label: "blank start date", drop: { startDate: "" }, message: "Escribe la fecha de inicio." },
      { label: "no end date", drop: { endDate: undefined }, message: "Escribe la fecha de fin." },
      {
        label: "30 February",
        drop: { startDate: "2027-02-30" },
        message: "La fecha de inicio no es válida.",
      },
      { label: "month 13", drop: { endDate: "2027-13-01" }, message: "La fecha de fin no es válida." },
      {
        label: "day/month/year",
        drop: { startDate: "01/12/2027" },
        message: "La fecha de inicio no es válida.",
      },
      { label: "hour 24", drop: { startTime: "24:00" }, message: "La fecha de inicio no es válida." },
      { label: "minute 60", drop: { endTime: "21:60" }, message: "La fecha de fin no es válida." },
      {
        label: "end before start",
        drop: { startDate: shopDay(5), endDate: shopDay(2) },
        message: "La fecha de fin debe ser posterior a la de inicio.",
      },
      {
        label: "end equal to start",
        drop: { startDate: shopDay(5), startTime: "10:00", endDate: shopDay(5), endTime: "10:00" },
        message: "La fecha de fin debe ser posterior a la de inicio.",
      },
      { label: "unknown status", drop: { status: "borrador" }, message: "Elige un estado de la lista." },
      { label: "no id", drop: { id: undefined }, message: "Formulario inválido: recarga la página." },
      {
        label: "malformed id",
        drop: { id: "../../etc/passwd" },
        message: "Formulario inválido: recarga la página.",
      },
      { label: "malformed drop photo", drop: { imageId: "no-es-un-id" }, message: BAD_MEDIA_ID },
      {
        label: "product name missing",
        products: [piece(imageId, { name: undefined })],
        message: "Escribe el nombre del producto.",
      },
      {
        label: "product name of 121",
        products: [piece(imageId, { name: "a".repeat(121) })],
        message: "Nombre: máximo 120 caracteres.",
      },
      {
        label: "NUL in the product name",
        products: [piece(imageId, { name: "Anillo\u0000" })],
        message: "Nombre: contiene caracteres no permitidos.",
      },
      {
        label: "tab in the product name (one line)",
        products: [piece(imageId, { name: "Anillo\tMarea" })],
        message: "Nombre: contiene caracteres no permitidos.",
      },
      {
        label: "NUL in the product description",
        products: [piece(imageId, { description: "Oro \u0000 rosa" })],
        message: "Descripción: contiene caracteres no permitidos.",
      },
      { label: "price missing", products: [piece(imageId, { price: "" })], message: "Escribe el precio." },
      ...["abc", "-5", "12.345", "1e3", "$-1"].map((price) => ({
        label: `price ${price}`,
        products: [piece(imageId, { price })],
        message: "Escribe el precio en pesos, p. ej. 12500.00.",
      })),
      ...["0", "0.00", "1000000.00", "2,000,000"].map((price) => ({
        label: `price ${price}`,
        products: [piece(imageId, { price })],
        message: "El precio debe ser mayor a $0 y de hasta $999,999.99.",
      })),
      {
        label: "stock missing",
        products: [piece(imageId, { stock: "" })],
        message: "Escribe cuántas piezas hay.",
      },
      ...["1.5", "-1", "cinco", "1e2"].map((stock) => ({
        label: `stock ${stock}`,
        products: [piece(imageId, { stock })],
        message: "El stock es un número entero de piezas.",
      })),
      {
        label: "stock 10001",
        products: [piece(imageId, { stock: "10001" })],
        message: "El stock puede ser de hasta 10000 piezas.",
      },
      ...["Reloj", "anillo", ""].map((categoria) => ({
        label: `categoria '${categoria}'`,
        products: [piece(imageId, { categoria })],
        message: "Elige la categoría.",
      })),
      ...["Plata", "oro rosa", ""].map((material) => ({
        label: `material '${material}'`,
        products: [piece(imageId, { material })],
        message: "Elige el material.",
      })),
      {
        label: "product without photo",
        products: [piece(imageId, { imageId: "" })],
        message: "Producto 1 no tiene imagen principal",
      },
      {
        label: "second product without photo",
        products: [piece(imageId), piece(imageId, { name: "Collar Marea", imageId: undefined })],
        message: "Producto 2 no tiene imagen principal",
      },
      {
        label: "malformed product photo",
        products: [piece(imageId, { imageId: "x".repeat(300) })],
        message: BAD_MEDIA_ID,
      },
      {
        label: "5 extra photos",
        products: [piece(imageId, { extraImageIds: extras(5) })],
        message: "Hasta 4 imágenes extra por producto.",
      },
      {
        label: "malformed extra photo",
        products: [piece(imageId, { extraImageIds: ["../otra"] })],
        message: BAD_MEDIA_ID,
      },
      {
        label: "61 products",
        products: Array.from({ length: 61 }, () => piece(imageId)),
        message: "Hasta 60 productos por colección.",
      },
      // Well-formed ids the server looks up: another drop's photo, or none at all.
      {
        label: "another drop's photo for the product",
        products: [piece(otherDropImage)],
        status: 409,
        message: MEDIA_GONE,
      },
      {
        label: "a photo that does not exist",
        products: [piece(newId())],
        status: 409,
        message: MEDIA_GONE,
      },
      {
        label: "another drop's photo for the drop",
        drop: { imageId: otherDropImage },
        status: 409,
        message: MEDIA_GONE,
      },
      {
        label: "another drop's photo as an extra",
        products: [piece(imageId, { extraImageIds: [imageId, otherDropImage] })],
        status: 409,
        message: MEDIA_GONE,
      },
      { label: "a photo as the video", drop: { videoId: imageId }, status: 409, message: MEDIA_GONE },
    ];
    for (const { label, drop, products, status = 400, message } of cases) {
      const res = await create(dropBody(newDrop(id, { imageId, ...drop }), products ?? [piece(imageId)]));
      expect.soft(res.status, label).toBe(status);
      expect.soft(res.location, label).toBeNull();
      expect.soft(res.said, label).toContain(message);
      // The page the owner gets back is the form, still there to correct.
      expect.soft(res.html, label).toContain('name="version"');
    }
    // The page's own JavaScript (React Router's `.data` request) gets the same refusal.
    const scripted = await create(dropBody(newDrop(id, { imageId }), [piece(imageId, { price: "abc" })]), {
      via: "data",
    });
    expect(scripted.status).toBe(400);
    expect(scripted.html).toContain("Escribe el precio en pesos, p. ej. 12500.00.");
    expect(await everything()).toEqual(before);
    expect(await dropRow(id)).toBeNull();
  });

  it("money and stock at their caps: $999,999.99 and 10000 pieces are saved, one more is a 400 that writes nothing", async () => {
    const id = await freshDropId();
    const imageId = await upload(id);
    const before = await everything();
    const over = [
      {
        changes: { price: "1,000,000.00" },
        message: "El precio debe ser mayor a $0 y de hasta $999,999.99.",
      },
      { changes: { price: "999999.991" }, message: "Escribe el precio en pesos, p. ej. 12500.00." },
      { changes: { stock: "10001" }, message: "El stock puede ser de hasta 10000 piezas." },
    ];
    for (const { changes, message } of over) {
      const res = await create(dropBody(newDrop(id, { imageId }), [piece(imageId, changes)]));
      expect.soft(res.status, message).toBe(400);
      expect.soft(res.said, message).toContain(message);
    }
    expect(await everything()).toEqual(before);

    // Descriptions keep their line breaks and tabs (a textarea sends CRLF).
    const created = await create(
      dropBody(newDrop(id, { imageId, fullDescription: "Oro de 14 k.\r\n\tHecho a mano." }), [
        piece(imageId, { price: "$999,999.99", stock: "10000", description: "Uno\r\nDos" }),
      ]),
    );
    expect(created.status, created.said.join(" | ")).toBe(302);
    const [product] = await productRows(id);
    expect(product).toMatchObject({ price_cents: 99_999_999, stock: 10_000 });
    const drop = await database.db
      .selectFrom("drops")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(drop.full_description).toBe("Oro de 14 k.\r\n\tHecho a mano.");

    // Editing: the stock is a difference from what the form loaded. A forged `stockLoaded` may
    // not raise it past the cap (save after save it would overflow the column); a cut still works.
    const productId = product?.id ?? "";
    await database.db.updateTable("products").set({ stock: 9_990 }).where("id", "=", productId).execute();
    const form = formFields(await (await get(`/admin/drops/edit-drop/${id}`)).text());
    const saveWith = (changes: Record<string, string>) => save(id, changed(form, changes));
    const stock = async () =>
      (
        await database.db
          .selectFrom("products")
          .select("stock")
          .where("id", "=", productId)
          .executeTakeFirstOrThrow()
      ).stock;
    const unchanged = await everything();
    const raised = await saveWith({ "products[0].stock": "10000", "products[0].stockLoaded": "9989" });
    expect(raised.status).toBe(400);
    expect(raised.said).toContain(
      "Hubo un error al actualizar el drop. El stock de Anillo Marea puede ser de hasta 10000 piezas (ahora hay 9990).",
    );
    expect(await everything()).toEqual(unchanged);
    // Ten digits of loaded stock would be a 32-bit overflow on PostgreSQL: refused as a bad form.
    const huge = await saveWith({ "products[0].stockLoaded": "9999999999" });
    expect(huge.status).toBe(400);
    expect(huge.said).toContain("Formulario inválido: recarga la página.");
    // A version that is not one the form could carry is a bad form, not a server error.
    for (const version of ["ayer", "2026-13-45T99:99:99.999Z", "\u0000"]) {
      const stale = await saveWith({ version });
      expect.soft(stale.status, version).toBe(400);
      expect.soft(stale.said, version).toContain("Formulario inválido: recarga la página.");
    }
    expect(await everything()).toEqual(unchanged);
    const capped = await saveWith({ "products[0].stock": "10000", "products[0].stockLoaded": "9990" });
    expect(capped.status, capped.said.join(" | ")).toBe(200);
    expect(await stock()).toBe(10_000);
  });

  it("the create and edit actions answer 400 to a body that is not a form, never a server error", async () => {
    const { id } = await createdDrop("Cuerpos raros");
    const unsaved = await freshDropId();
    const before = await everything();
    const bodies: { type: string; body: string }[] = [
      { type: "application/json", body: JSON.stringify({ id: unsaved, name: "Mareas", intent: "eliminar" }) },
      { type: "text/plain", body: `id=${unsaved}&name=Mareas&intent=eliminar` },
      { type: "multipart/form-data; boundary=limite", body: "esto no es multipart" },
      { type: "application/octet-stream", body: "\u0000\u0001" },
    ];
    for (const { type, body } of bodies) {
      for (const pathname of ["/admin/drops/new-drop", `/admin/drops/edit-drop/${id}`]) {
        const res = await post(pathname, body, { type });
        expect.soft(res.status, `${type} → ${pathname}`).toBe(400);
        expect.soft(res.said, `${type} → ${pathname}`).toContain(NOT_A_FORM);
      }
    }
    // A form with nothing in it is a form: each missing field is named.
    const empty = await create(new URLSearchParams());
    expect(empty.status).toBe(400);
    expect(empty.said).toContain("Formulario inválido: recarga la página.");
    expect(await everything()).toEqual(before);
  });

  it("creates, edits (stock as a difference), refuses a stale save and deletes a drop, as the owner does", async () => {
    // The form opens with the new drop's id; its photo is uploaded before the drop exists.
    const id = await freshDropId();
    const imageId = await upload(id);
    const extraId = await upload(id);
    const unusedId = await upload(id);
    const created = await create(
      dropBody(newDrop(id, { name: "Mareas de Oro", imageId }), [
        piece(imageId, { name: "Anillo Marea", price: "$12,500.50", stock: "5", extraImageIds: [extraId] }),
      ]),
    );
    expect(created.status, created.said.join(" | ")).toBe(302);
    expect(created.location).toBe(CREATED);
    const list = await get(created.location ?? "");
    expect(list.status).toBe(200);
    const listHtml = await list.text();
    expect(announcements(listHtml)).toContain("Drop creado exitosamente");
    expect(visibleText(listHtml)).toContain("Mareas de Oro");
    expect(listHtml).toContain(`href="/admin/drops/edit-drop/${id}"`);

    expect(await dropRow(id)).toMatchObject({
      name: "Mareas de Oro",
      status: "proximamente",
      image_id: imageId,
    });
    const [product, ...more] = await productRows(id);
    expect(more).toEqual([]);
    expect(product).toMatchObject({
      name: "Anillo Marea",
      price_cents: 1_250_050,
      stock: 5,
      categoria: "Anillo",
      material: "Oro rosa",
      image_id: imageId,
    });
    const productId = product?.id ?? "";
    expect(
      await database.db
        .selectFrom("product_images")
        .select(["position", "media_id"])
        .where("product_id", "=", productId)
        .execute(),
    ).toEqual([{ position: 1, media_id: extraId }]);
    // The photo uploaded and then not used is deleted with its row.
    const media = await database.db
      .selectFrom("media")
      .select("id")
      .where("drop_id", "=", id)
      .orderBy("id")
      .execute();
    expect(media.map((m) => m.id).sort()).toEqual([imageId, extraId].sort());
    expect(fs.readdirSync(path.join(dataDir, "media", "drops", id)).some((f) => f.startsWith(unusedId))).toBe(
      false,
    );

    // The same form sent twice does not make a second drop.
    const twice = await create(dropBody(newDrop(id, { name: "Otra vez", imageId }), [piece(imageId)]));
    expect(twice.status).toBe(409);
    expect(twice.said).toContain("Esta colección ya se guardó: recarga la página.");
    expect((await dropRow(id))?.name).toBe("Mareas de Oro");

    // The edit form, as the page shows it.
    const page = await get(`/admin/drops/edit-drop/${id}`);
    expect(page.status).toBe(200);
    const form = formFields(await page.text());
    const value = (name: string) => form.find(([n]) => n === name)?.[1];
    expect(value("id")).toBe(id);
    expect(value("name")).toBe("Mareas de Oro");
    expect(value("status")).toBe("proximamente");
    expect(value("products[0].id")).toBe(productId);
    expect(value("products[0].stock")).toBe("5");
    expect(value("products[0].stockLoaded")).toBe("5");
    expect(value("products[0].price")).toBe("12500.50");
    expect(value("version")).not.toBe("");

    // Two pieces sell while the form is open…
    await database.db.updateTable("products").set({ stock: 3 }).where("id", "=", productId).execute();
    // …and the owner, who saw 5, types 8: three more pieces arrived. 3 + 3 = 6.
    const saved = await save(
      id,
      changed(form, { name: "Mareas de Oro II", status: "activa", "products[0].stock": "8" }),
    );
    expect(saved.status, saved.said.join(" | ")).toBe(200);
    expect(saved.said).toContain("Drop actualizado correctamente");
    const afterSave = await dropRow(id);
    expect(afterSave).toMatchObject({ name: "Mareas de Oro II", status: "activa", image_id: imageId });
    const [edited] = await productRows(id);
    expect(edited).toMatchObject({ id: productId, name: "Anillo Marea", stock: 6, price_cents: 1_250_050 });

    // Still a draft (decision 38), the shop does not show it; published, it does, and the desk
    // lists it under Activas now.
    expect((await get(`/coleccion/${id}`, "")).status).toBe(404);
    const published = await save(id, new URLSearchParams({ intent: "publicar", cuando: "ahora" }), {
      via: "data",
    });
    expect(published.status).toBe(200);
    const publicPage = await get(`/coleccion/${id}`, "");
    expect(publicPage.status).toBe(200);
    const publicText = visibleText(await publicPage.text());
    expect(publicText).toContain("Mareas de Oro II");
    expect(publicText).toContain("Anillo Marea");
    expect(await (await get("/admin/drops/show-active-drops")).text()).toContain(
      `href="/admin/drops/edit-drop/${id}"`,
    );
    expect(await (await get("/admin/drops/show-upcoming-drops")).text()).not.toContain(
      `href="/admin/drops/edit-drop/${id}"`,
    );

    // A second save from the same (now old) form is refused: it would undo the first one.
    const beforeStale = await everything();
    const stale = await save(
      id,
      changed(form, { name: "Nombre viejo", status: "archivada", "products[0].stock": "1" }),
    );
    expect(stale.status).toBe(409);
    expect(stale.said.some((m) => m.startsWith("Hubo un error al actualizar el drop."))).toBe(true);
    expect(await everything()).toEqual(beforeStale);

    // Delete, as the list's 'Eliminar' button sends it.
    const deleted = await remove(id);
    expect(deleted.status).toBe(200);
    expect(deleted.html).toContain("Colección eliminada");
    expect(await dropRow(id)).toBeNull();
    expect(await productRows(id)).toEqual([]);
    expect(await database.db.selectFrom("media").select("id").where("drop_id", "=", id).execute()).toEqual(
      [],
    );
    expect(
      await database.db
        .selectFrom("product_images")
        .select("media_id")
        .where("product_id", "=", productId)
        .execute(),
    ).toEqual([]);
    const dir = path.join(dataDir, "media", "drops", id);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);

    const gone = await get(`/coleccion/${id}`, "");
    expect(gone.status).toBe(404);
    expect(visibleText(await gone.text())).toContain("Drop no encontrado");
    // Its edit page is gone too.
    const editGone = await get(`/admin/drops/edit-drop/${id}`);
    expect(editGone.status).toBe(302);
    expect(editGone.headers.get("location")).toBe(NOT_FOUND);
    // Deleted is deleted: a second try is the unknown drop's 404.
    const again = await remove(id);
    expect(again.status).toBe(404);
    expect(again.html).toContain("Hubo un error al eliminar el drop.");
  });

  it("an unknown or malformed drop id: the edit page and a save send to the list with 'Drop no encontrado.', a delete is 404", async () => {
    const { id: kept } = await createdDrop("Sigue aquí");
    const template = formFields(await (await get(`/admin/drops/edit-drop/${kept}`)).text());
    const before = await everything();
    const ids = [
      newId(),
      "nope",
      "ABCDEFGHJKMNPQRS",
      "x".repeat(300),
      "%00",
      "..%2F..%2Fetc",
      "%27%3B%20drop%20table%20drops%3B--",
    ];
    for (const id of ids) {
      const label = id.slice(0, 40);
      const page = await get(`/admin/drops/edit-drop/${id}`);
      expect.soft(page.status, label).toBe(302);
      expect.soft(page.headers.get("location"), label).toBe(NOT_FOUND);

      const saved = await save(id, changed(template, { name: "Fantasma" }));
      expect.soft(saved.status, `save ${label}`).toBe(302);
      expect.soft(saved.location, `save ${label}`).toBe(NOT_FOUND);

      const deleted = await remove(id);
      expect.soft(deleted.status, `delete ${label}`).toBe(404);
      expect.soft(deleted.html, `delete ${label}`).toContain("Hubo un error al eliminar el drop.");
    }
    const list = await get(NOT_FOUND);
    expect(list.status).toBe(200);
    expect(announcements(await list.text())).toContain("Drop no encontrado.");
    expect(await everything()).toEqual(before);
  });
});
