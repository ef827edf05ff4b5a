import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { getDrop } from "~/catalogue/catalogue.server";
import { heldPieces } from "~/catalogue/held-pieces.server";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { createDropFromInput } from "~/drops-desk/create.server";
import { deleteDrop } from "~/drops-desk/delete.server";
import { dropInput, pesosText } from "~/drops-desk/drop-input";
import { dropForEdit } from "~/drops-desk/edit-form.server";
import { listAdminDrops } from "~/drops-desk/list.server";
import { publishDrop } from "~/drops-desk/publish.server";
import { updateDropFromInput } from "~/drops-desk/update.server";
import { shopDateTimeStamp } from "~/lib/dates";
import { newId } from "~/lib/ids";
import { createLocalStorage } from "~/media/local-storage.server";
import { storeImage } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { holdCart, releaseHold, setPaymentSession } from "~/orders/holds.server";
import { confirmPayment } from "~/orders/payment.server";
import { takeStock } from "~/orders/stock.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { oaxacaAddress } from "../support/catalogue";
import { type DatabaseHarness, describeEachDatabase, untilWaitingOnLocks } from "../support/databases";
import { gatedAfter, hold, writeTo } from "../support/orders";

const DAY = 86_400_000;
const NOW = new Date("2026-11-22T18:00:00.000Z");
/** When the listed drops were published (decision 38): before any of them starts. */
const PUBLISHED = new Date("2026-01-01T00:00:00.000Z");
const MEDIA_GONE = "Una imagen o el video ya no está disponible: súbelo de nuevo.";

const storageRoots: string[] = [];
afterAll(() => {
  for (const root of storageRoots) fs.rmSync(root, { recursive: true, force: true });
});

interface Shop {
  db: Db;
  storage: MediaStorage;
}

/** A fresh database and an empty local media folder, as the shop runs out of the box. */
async function open(harness: DatabaseHarness): Promise<Shop> {
  const database = await harness.fresh();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-media-"));
  storageRoots.push(root);
  return { db: database.db, storage: createLocalStorage(root) };
}

let shade = 0;
/** A small real PNG, a different colour each time. */
async function photo(): Promise<Buffer> {
  shade = (shade + 37) % 256;
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: 120, b: 40 } } })
    .png()
    .toBuffer();
}

/** A photo uploaded for `dropId` the way the upload route stores it: files first, then its row. */
async function upload(shop: Shop, dropId: string): Promise<string> {
  const row = await storeImage(shop.storage, { dropId, body: await photo() });
  await shop.db.insertInto("media").values(row).execute();
  return row.id;
}

async function uploads(shop: Shop, dropId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await upload(shop, dropId));
  return ids;
}

/** A video uploaded for `dropId`: stored as sent, under the drop's folder. */
async function uploadVideo(shop: Shop, dropId: string): Promise<string> {
  const id = newId();
  const key = `drops/${dropId}/${id}`;
  await shop.storage.put(`${key}.mp4`, Buffer.from("video de prueba"), "video/mp4");
  await shop.db
    .insertInto("media")
    .values({
      id,
      drop_id: dropId,
      kind: "video",
      key,
      width: 0,
      height: 0,
      widths: "",
      mime: "video/mp4",
      created_at: toTimestamp(new Date()),
    })
    .execute();
  return id;
}

async function mediaRow(shop: Shop, id: string) {
  return shop.db.selectFrom("media").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The files stored for one media item (ids are random, so its id names them alone). */
async function filesOf(shop: Shop, mediaId: string): Promise<string[]> {
  return (await shop.storage.list("drops")).filter((key) => key.includes(`/${mediaId}`));
}

async function expectGone(shop: Shop, mediaId: string) {
  expect(await mediaRow(shop, mediaId), `media row ${mediaId}`).toBeUndefined();
  expect(await filesOf(shop, mediaId), `files of ${mediaId}`).toEqual([]);
}

async function expectKept(shop: Shop, mediaId: string) {
  expect(await mediaRow(shop, mediaId), `media row ${mediaId}`).toBeDefined();
  expect((await filesOf(shop, mediaId)).length, `files of ${mediaId}`).toBeGreaterThan(0);
}

type RawProduct = {
  id?: string;
  /** 'Edición limitada (piezas)' as typed: empty for a piece that is not numbered. */
  edition?: string;
  name?: string;
  price?: string;
  stock?: string;
  stockLoaded?: string;
  categoria?: string;
  material?: string;
  description?: string;
  imageId?: string;
  imageAlt?: string;
  extraImageIds?: string[];
  extraImageAlts?: string[];
};

/** The create form as the owner fills it in (Mexico City dates), parsed as the server parses it. */
function newForm(dropId: string, over: Record<string, unknown>, products: RawProduct[]) {
  return dropInput.parse({
    id: dropId,
    name: "Mareas",
    startDate: "2026-12-01",
    startTime: "10:00",
    endDate: "2026-12-07",
    endTime: "20:00",
    ...over,
    products: products.map((p) => ({
      name: "Anillo Marea",
      price: "4500",
      stock: "10",
      categoria: "Anillo",
      material: "Oro rosa",
      ...p,
    })),
  });
}

/** Start and end fields in Mexico City time for the given instants. */
function shopDates(start: Date, end: Date) {
  // As the edit form shows them: to the second.
  const [startDate, startTime] = shopDateTimeStamp(start, { seconds: true }).split(" ");
  const [endDate, endTime] = shopDateTimeStamp(end, { seconds: true }).split(" ");
  return { startDate, startTime, endDate, endTime };
}

/** The edit form as the page renders it for the drop now: every field, stock loaded as shown. */
async function loadForm(db: Db, dropId: string) {
  const drop = await getDrop(db, dropId, { extraImages: true });
  if (!drop) throw new Error(`no drop ${dropId}`);
  return {
    id: drop.id,
    name: drop.name,
    smallDescription: drop.smallDescription,
    fullDescription: drop.fullDescription,
    ...shopDates(drop.startAt, drop.endAt),
    status: drop.status as string,
    imageId: drop.image?.id ?? "",
    videoId: drop.video?.id ?? "",
    // As the edit form shows them (edit-form.server.ts).
    lotterySeconds: String(drop.opening.lotterySeconds),
    openingMinutes: String(drop.opening.openingMinutes),
    openingHoldMinutes: String(drop.opening.openingHoldMinutes),
    openingHoldsPerAddress: String(drop.opening.openingHoldsPerAddress),
    products: drop.products.map(
      (p): RawProduct => ({
        id: p.id,
        name: p.name,
        price: pesosText(p.priceCents),
        stock: String(p.stock),
        stockLoaded: String(p.stock),
        categoria: p.categoria,
        material: p.material,
        description: p.description,
        imageId: p.image?.id ?? "",
        extraImageIds: p.extraImages.map((m) => m.id),
        edition: p.editionSize === null ? "" : String(p.editionSize),
      }),
    ),
  };
}
type EditForm = Awaited<ReturnType<typeof loadForm>>;

function save(shop: Shop, dropId: string, form: EditForm) {
  return updateDropFromInput(shop.db, shop.storage, dropId, dropInput.parse(form));
}

/** The form with product `i` changed as the owner typed it. */
function withProduct(form: EditForm, i: number, change: RawProduct): EditForm {
  return { ...form, products: form.products.map((p, j) => (j === i ? { ...p, ...change } : p)) };
}

async function stockOf(db: Db, productId: string): Promise<number | undefined> {
  return (await db.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirst())
    ?.stock;
}

async function statusOf(db: Db, orderId: string) {
  return (await db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirst())
    ?.status;
}

async function count(db: Db, table: "drops" | "products" | "product_images" | "media" | "orders") {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** A drop created through the desk and set `activa`, running from yesterday to tomorrow. */
async function runningDrop(shop: Shop, pieces: { name: string; stock: number; price?: string }[]) {
  const dropId = newId();
  const images = await uploads(shop, dropId, pieces.length);
  const now = Date.now();
  const created = await createDropFromInput(
    shop.db,
    shop.storage,
    newForm(
      dropId,
      shopDates(new Date(now - DAY), new Date(now + DAY)),
      pieces.map((p, i) => ({
        name: p.name,
        stock: String(p.stock),
        price: p.price ?? "4500",
        imageId: images[i],
      })),
    ),
  );
  expect(created).toEqual({ ok: true, id: dropId });
  // A new drop is a draft (decision 38): published, the shop sells it.
  expect(await publishDrop(shop.db, dropId, null)).toEqual({ ok: true });
  expect(await save(shop, dropId, { ...(await loadForm(shop.db, dropId)), status: "activa" })).toEqual({
    ok: true,
  });
  const ids = (await getDrop(shop.db, dropId))?.products.map((p) => p.id) ?? [];
  return {
    dropId,
    ids,
    images,
    line: (productId: string, quantity = 1) => ({ productId, dropId, quantity }),
  };
}

/** A checkout paid through the shop's own fulfilment: `pendiente`, shipped to Oaxaca. */
async function paidOrder(db: Db, lines: { productId: string; dropId: string; quantity: number }[]) {
  const order = await hold(db, { lines, provider: "demo" });
  expect(
    await confirmPayment(db, {
      orderId: order.id,
      customerName: "Ana Pérez",
      customerEmail: "ana@example.mx",
      shipping: oaxacaAddress("Ana Pérez", "951 123 4567"),
    }),
  ).toBe("paid");
  return order;
}

describeEachDatabase("drops desk", (harness) => {
  it("creates a drop as proximamente, its dates as instants, its products in order with their extras", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const [cover = "", ring = "", necklace = "", extra1 = "", extra2 = ""] = await uploads(shop, dropId, 5);
    const result = await createDropFromInput(
      shop.db,
      shop.storage,
      newForm(dropId, { smallDescription: "Olas de oro", fullDescription: "Hecho a mano.", imageId: cover }, [
        {
          name: "Anillo Marea",
          price: "4,500.00",
          stock: "3",
          imageId: ring,
          extraImageIds: [extra2, extra1],
        },
        {
          name: "Collar Ola",
          price: "$12500.5",
          stock: "0",
          categoria: "Collar",
          material: "Oro blanco",
          description: "Cadena fina",
          imageId: necklace,
        },
      ]),
      NOW,
    );
    expect(result).toEqual({ ok: true, id: dropId });

    const drop = await getDrop(shop.db, dropId, { extraImages: true });
    expect(drop).toMatchObject({
      name: "Mareas",
      status: "proximamente",
      smallDescription: "Olas de oro",
      fullDescription: "Hecho a mano.",
      createdAt: NOW,
    });
    // 10:00 and 20:00 in Mexico City (UTC-6).
    expect(drop?.startAt.toISOString()).toBe("2026-12-01T16:00:00.000Z");
    expect(drop?.endAt.toISOString()).toBe("2026-12-08T02:00:00.000Z");
    expect(drop?.image?.id).toBe(cover);
    expect(
      drop?.products.map((p) => [
        p.name,
        p.priceCents,
        p.stock,
        p.categoria,
        p.material,
        p.description,
        p.image?.id,
        p.extraImages.map((m) => m.id),
      ]),
    ).toEqual([
      ["Anillo Marea", 450_000, 3, "Anillo", "Oro rosa", "", ring, [extra2, extra1]],
      ["Collar Ola", 1_250_050, 0, "Collar", "Oro blanco", "Cadena fina", necklace, []],
    ]);

    const row = await shop.db
      .selectFrom("drops")
      .select(["start_at", "end_at"])
      .where("id", "=", dropId)
      .executeTakeFirstOrThrow();
    if (harness.dialect === "postgres") expect(row.start_at).toBeInstanceOf(Date);
    expect(toDate(row.start_at).getTime()).toBe(Date.parse("2026-12-01T16:00:00Z"));
    for (const id of [cover, ring, necklace, extra1, extra2]) await expectKept(shop, id);
  });

  it("keeps the drop's 'Máximo por persona', hold minutes and opening rules, shows them in the edit form, and an emptied maximum is no limit", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const [ring = ""] = await uploads(shop, dropId, 1);
    const created = await createDropFromInput(
      shop.db,
      shop.storage,
      newForm(dropId, { maxPerOrder: "2", holdMinutes: "10", lotterySeconds: "20" }, [
        { name: "Anillo Marea", imageId: ring },
      ]),
    );
    expect(created.ok).toBe(true);
    expect(await getDrop(shop.db, dropId)).toMatchObject({
      maxPerOrder: 2,
      holdMinutes: 10,
      opening: { lotterySeconds: 20, openingMinutes: 60, openingHoldMinutes: 10, openingHoldsPerAddress: 2 },
    });
    const form = await dropForEdit(shop.db, shop.storage, dropId);
    expect(form).toMatchObject({
      maxPerOrder: "2",
      holdMinutes: "10",
      lotterySeconds: "20",
      openingMinutes: "60",
    });
    const edited = {
      ...(await loadForm(shop.db, dropId)),
      version: form?.version,
      maxPerOrder: "",
      holdMinutes: "25",
      openingMinutes: "30",
      openingHoldsPerAddress: "3",
    };
    expect((await updateDropFromInput(shop.db, shop.storage, dropId, dropInput.parse(edited))).ok).toBe(true);
    expect(await getDrop(shop.db, dropId)).toMatchObject({
      maxPerOrder: null,
      holdMinutes: 25,
      opening: { lotterySeconds: 20, openingMinutes: 30, openingHoldsPerAddress: 3 },
    });
  });

  it("the form's times are to the second: a save that kept them keeps the stored instants, a new second is taken, an end without its time is the day's last second", async () => {
    const shop = await open(harness);
    const { dropId } = await runningDrop(shop, [{ name: "Anillo Marea", stock: 3 }]);
    // As the demo catalogue makes them: instants with seconds and milliseconds.
    const start = new Date(Date.now() + 2 * 3_600_000 + 37_123);
    const end = new Date(start.getTime() + DAY + 12_345);
    await shop.db
      .updateTable("drops")
      .set({ start_at: toTimestamp(start), end_at: toTimestamp(end) })
      .where("id", "=", dropId)
      .execute();
    const loaded = await loadForm(shop.db, dropId);
    // The form shows the seconds (the spec's timestamps with seconds).
    expect(loaded.startTime).toBe(shopDateTimeStamp(start, { seconds: true }).slice(11));
    expect(loaded.startTime).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    const version = (await dropForEdit(shop.db, shop.storage, dropId))?.version;
    const form = { ...loaded, version, smallDescription: "Nueva descripción" };
    expect(await save(shop, dropId, form)).toEqual({ ok: true });
    const kept = await getDrop(shop.db, dropId);
    expect(kept?.smallDescription).toBe("Nueva descripción");
    expect(kept?.startAt.getTime()).toBe(start.getTime());
    expect(kept?.endAt.getTime()).toBe(end.getTime());

    // One second earlier than stored, the owner's choice: taken as typed.
    const earlier = new Date(Math.floor(start.getTime() / 1_000) * 1_000 - 1_000);
    const moved = {
      ...(await loadForm(shop.db, dropId)),
      version: (await dropForEdit(shop.db, shop.storage, dropId))?.version,
      ...shopDates(earlier, end),
    };
    expect(await save(shop, dropId, moved)).toEqual({ ok: true });
    const after = await getDrop(shop.db, dropId);
    expect(after?.startAt.getTime()).toBe(earlier.getTime());
    expect(after?.endAt.getTime()).toBe(end.getTime());

    // The end's time left empty: the whole last day, to 23:59:59 in Mexico City.
    const noEndTime = {
      ...(await loadForm(shop.db, dropId)),
      version: (await dropForEdit(shop.db, shop.storage, dropId))?.version,
      endTime: "",
    };
    expect(await save(shop, dropId, noEndTime)).toEqual({ ok: true });
    const closing = (await getDrop(shop.db, dropId))?.endAt;
    expect(closing && shopDateTimeStamp(closing, { seconds: true })).toBe(`${noEndTime.endDate} 23:59:59`);
  });

  it("a second submit of the same create form is refused and changes nothing", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const [image = ""] = await uploads(shop, dropId, 1);
    const form = newForm(dropId, {}, [{ imageId: image }]);
    expect(await createDropFromInput(shop.db, shop.storage, form)).toEqual({ ok: true, id: dropId });
    const again = await createDropFromInput(shop.db, shop.storage, { ...form, name: "Otra" });
    expect(again).toEqual({
      ok: false,
      reason: "ya_existe",
      message: "Esta colección ya se guardó: recarga la página.",
    });
    expect((await getDrop(shop.db, dropId))?.name).toBe("Mareas");
    expect(await count(shop.db, "products")).toBe(1);
    await expectKept(shop, image);
  });

  it("refuses media of another drop, a video as an image, an image as the video or an unknown id, writing nothing", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const otherDrop = newId();
    const own = await upload(shop, dropId);
    const foreign = await upload(shop, otherDrop);
    const video = await uploadVideo(shop, dropId);
    const cases: [string, Record<string, unknown>, RawProduct[]][] = [
      ["another drop's photo as a product image", {}, [{ imageId: foreign }]],
      ["another drop's photo as an extra", {}, [{ imageId: own, extraImageIds: [foreign] }]],
      ["another drop's photo as the drop image", { imageId: foreign }, [{ imageId: own }]],
      ["a video as the drop image", { imageId: video }, [{ imageId: own }]],
      ["a video as a product image", {}, [{ imageId: video }]],
      ["a photo as the video", { videoId: own }, [{ imageId: own }]],
      ["an id never uploaded", {}, [{ imageId: newId() }]],
    ];
    for (const [label, over, products] of cases) {
      const result = await createDropFromInput(shop.db, shop.storage, newForm(dropId, over, products));
      expect(result, label).toEqual({ ok: false, reason: "medios_invalidos", message: MEDIA_GONE });
    }
    expect(await count(shop.db, "drops")).toBe(0);
    expect(await count(shop.db, "products")).toBe(0);
    expect(await count(shop.db, "product_images")).toBe(0);
    // A refused save deletes nothing: the owner fixes the form and saves again with the same uploads.
    for (const id of [own, foreign, video]) await expectKept(shop, id);
    const fixed = newForm(dropId, { videoId: video }, [{ imageId: own }]);
    expect(await createDropFromInput(shop.db, shop.storage, fixed)).toEqual({ ok: true, id: dropId });
  });

  it("photos and videos uploaded for a new drop but left off the form are deleted, row and files, at save", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const otherDrop = newId();
    const [kept = "", droppedPhoto = ""] = await uploads(shop, dropId, 2);
    const droppedVideo = await uploadVideo(shop, dropId);
    const othersPhoto = await upload(shop, otherDrop);
    expect(await filesOf(shop, droppedPhoto)).not.toEqual([]);

    const result = await createDropFromInput(shop.db, shop.storage, newForm(dropId, {}, [{ imageId: kept }]));
    expect(result).toEqual({ ok: true, id: dropId });
    await expectKept(shop, kept);
    await expectGone(shop, droppedPhoto);
    await expectGone(shop, droppedVideo);
    // Another drop's uploads in progress are not this save's business.
    await expectKept(shop, othersPhoto);
  });

  it("an edit changes the fields, dates, product details and order, adds products and sets the status", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const [ring = "", necklace = ""] = await uploads(shop, dropId, 2);
    await createDropFromInput(
      shop.db,
      shop.storage,
      newForm(dropId, {}, [
        { name: "Anillo Marea", stock: "3", imageId: ring },
        { name: "Collar Ola", stock: "5", imageId: necklace },
      ]),
    );
    const form = await loadForm(shop.db, dropId);
    const [first, second] = form.products;
    const earring = await upload(shop, dropId);
    const edited: EditForm = {
      ...form,
      name: "Mareas de invierno",
      smallDescription: "Nueva",
      fullDescription: "Completa\ncon saltos",
      startDate: "2027-01-10",
      startTime: "09:30",
      endDate: "2027-01-12",
      endTime: "18:00",
      status: "archivado",
      products: [
        { ...second },
        {
          ...first,
          name: "Anillo Marea II",
          price: "5,000.50",
          categoria: "Pulsera",
          material: "Oro blanco",
          description: "Más ancho",
        },
        {
          name: "Arete Espuma",
          price: "900",
          stock: "4",
          categoria: "Arete",
          material: "Oro amarillo",
          imageId: earring,
        },
      ],
    };
    expect(await save(shop, dropId, edited)).toEqual({ ok: true });

    const drop = await getDrop(shop.db, dropId);
    expect(drop).toMatchObject({
      name: "Mareas de invierno",
      smallDescription: "Nueva",
      fullDescription: "Completa\ncon saltos",
      status: "archivada",
    });
    expect(drop?.startAt.toISOString()).toBe("2027-01-10T15:30:00.000Z");
    expect(drop?.endAt.toISOString()).toBe("2027-01-13T00:00:00.000Z");
    expect(
      drop?.products.map((p) => [
        p.id,
        p.name,
        p.priceCents,
        p.stock,
        p.categoria,
        p.material,
        p.description,
      ]),
    ).toEqual([
      [second?.id, "Collar Ola", 450_000, 5, "Anillo", "Oro rosa", ""],
      [first?.id, "Anillo Marea II", 500_050, 3, "Pulsera", "Oro blanco", "Más ancho"],
      [expect.any(String), "Arete Espuma", 90_000, 4, "Arete", "Oro amarillo", ""],
    ]);

    // A form that sends no status keeps the drop's; then the owner opens it.
    expect(await save(shop, dropId, { ...(await loadForm(shop.db, dropId)), status: "" })).toEqual({
      ok: true,
    });
    expect((await getDrop(shop.db, dropId))?.status).toBe("archivada");
    expect(await save(shop, dropId, { ...(await loadForm(shop.db, dropId)), status: "activa" })).toEqual({
      ok: true,
    });
    expect((await getDrop(shop.db, dropId))?.status).toBe("activa");
  });

  it("replacing the drop image, the video, a product image or an extra deletes the old rows and files", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const [oldCover = "", oldMain = "", oldExtra = "", keptExtra = ""] = await uploads(shop, dropId, 4);
    const oldVideo = await uploadVideo(shop, dropId);
    await createDropFromInput(
      shop.db,
      shop.storage,
      newForm(dropId, { imageId: oldCover, videoId: oldVideo }, [
        { imageId: oldMain, extraImageIds: [oldExtra, keptExtra] },
      ]),
    );
    const form = await loadForm(shop.db, dropId);
    // The edit page uploads the replacements before the owner saves.
    const [newCover = "", newMain = "", newExtra = ""] = await uploads(shop, dropId, 3);
    const newVideo = await uploadVideo(shop, dropId);
    const edited = withProduct({ ...form, imageId: newCover, videoId: newVideo }, 0, {
      imageId: newMain,
      extraImageIds: [keptExtra, newExtra],
    });
    expect(await save(shop, dropId, edited)).toEqual({ ok: true });

    for (const id of [oldCover, oldMain, oldExtra, oldVideo]) await expectGone(shop, id);
    for (const id of [newCover, newMain, newExtra, keptExtra, newVideo]) await expectKept(shop, id);
    const drop = await getDrop(shop.db, dropId, { extraImages: true });
    expect(drop?.image?.id).toBe(newCover);
    expect(drop?.video?.id).toBe(newVideo);
    expect(drop?.products[0]?.image?.id).toBe(newMain);
    expect(drop?.products[0]?.extraImages.map((m) => m.id)).toEqual([keptExtra, newExtra]);
  });

  it("removing a product deletes it and its photos; a paid order that bought it keeps its line", async () => {
    const shop = await open(harness);
    const shopDrop = await runningDrop(shop, [
      { name: "Anillo Marea", stock: 5, price: "4,500.00" },
      { name: "Collar Ola", stock: 5, price: "12,500.00" },
    ]);
    const [ring = "", necklace = ""] = shopDrop.ids;
    const [ringPhoto = ""] = shopDrop.images;
    const order = await paidOrder(shop.db, [shopDrop.line(ring, 2)]);

    const form = await loadForm(shop.db, shopDrop.dropId);
    expect(await save(shop, shopDrop.dropId, { ...form, products: form.products.slice(1) })).toEqual({
      ok: true,
    });

    expect((await getDrop(shop.db, shopDrop.dropId))?.products.map((p) => p.id)).toEqual([necklace]);
    expect(await stockOf(shop.db, ring)).toBeUndefined();
    await expectGone(shop, ringPhoto);
    expect(await statusOf(shop.db, order.id)).toBe("pendiente");
    const stored = await shop.db
      .selectFrom("orders")
      .select("total_cents")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(stored.total_cents).toBe(900_000);
    const lines = await shop.db
      .selectFrom("order_lines")
      .select(["product_id", "name", "unit_price_cents", "quantity"])
      .where("order_id", "=", order.id)
      .execute();
    expect(lines).toEqual([
      { product_id: ring, name: "Anillo Marea", unit_price_cents: 450_000, quantity: 2 },
    ]);
  });

  it("the race: stock typed while 3 checkouts held pieces is applied as a change, and the holds are kept", async () => {
    const shop = await open(harness);
    const { dropId, ids, line } = await runningDrop(shop, [{ name: "Anillo Marea", stock: 10 }]);
    const ring = ids[0] ?? "";
    // The owner opens the edit form: it shows 10.
    const form = await loadForm(shop.db, dropId);
    expect(form.products[0]?.stockLoaded).toBe("10");
    // Meanwhile three shoppers start checkout.
    const holds = [];
    for (let i = 0; i < 3; i++) holds.push(await hold(shop.db, { lines: [line(ring)], provider: "demo" }));
    expect(await stockOf(shop.db, ring)).toBe(7);

    // The owner adds 5 pieces: 10 -> 15 on screen.
    expect(await save(shop, dropId, withProduct(form, 0, { stock: "15" }))).toEqual({ ok: true });
    expect(await stockOf(shop.db, ring)).toBe(12);
    expect(await heldPieces(shop.db, [ring])).toEqual(new Map([[ring, 3]]));

    // The shoppers do not pay: their pieces come back, and the shop has the 15 the owner typed.
    for (const order of holds) expect(await releaseHold(shop.db, order.id)).toBe(true);
    expect(await stockOf(shop.db, ring)).toBe(15);
    expect(await heldPieces(shop.db, [ring])).toEqual(new Map());
  });

  it("a save running alongside checkouts loses no hold and no piece", async () => {
    const shop = await open(harness);
    const { dropId, ids, line } = await runningDrop(shop, [{ name: "Anillo Marea", stock: 5 }]);
    const ring = ids[0] ?? "";
    const form = await loadForm(shop.db, dropId);
    // 5 -> 8 on screen (+3) while 10 shoppers each try to hold one piece.
    const [saved, ...attempts] = await Promise.all([
      save(shop, dropId, withProduct(form, 0, { stock: "8" })),
      ...Array.from({ length: 10 }, () => holdCart(shop.db, { lines: [line(ring)], provider: "demo" })),
    ]);
    expect(saved).toEqual({ ok: true });
    const held = attempts.filter((a) => a.ok).length;
    for (const refused of attempts.filter((a) => !a.ok))
      expect(refused).toMatchObject({ reason: "sin_stock" });
    expect(held).toBeGreaterThanOrEqual(5);
    expect(held).toBeLessThanOrEqual(8);
    const stock = (await stockOf(shop.db, ring)) ?? -1;
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(stock + held).toBe(8);
    expect((await heldPieces(shop.db, [ring])).get(ring)).toBe(held);
    const waiting = await shop.db
      .selectFrom("orders")
      .select("id")
      .where("status", "=", "esperando_pago")
      .execute();
    expect(waiting.map((o) => o.id).sort()).toEqual(attempts.flatMap((a) => (a.ok ? [a.id] : [])).sort());
  });

  it("a stock typed down by more than is left is refused with the current stock, and nothing of the save is kept", async () => {
    const shop = await open(harness);
    const { dropId, ids, line } = await runningDrop(shop, [
      { name: "Anillo Marea", stock: 10 },
      { name: "Collar Ola", stock: 4 },
    ]);
    const [ring = "", necklace = ""] = ids;
    const form = await loadForm(shop.db, dropId);
    for (let i = 0; i < 3; i++) await hold(shop.db, { lines: [line(ring)], provider: "demo" });

    // 10 -> 0 on screen is -10, but only 7 are left: taking 10 would undo the 3 holds.
    const edited = withProduct(
      withProduct({ ...form, name: "Mareas II" }, 0, { stock: "0", name: "Anillo" }),
      1,
      {
        stock: "9",
      },
    );
    expect(await save(shop, dropId, edited)).toEqual({
      ok: false,
      reason: "stock_cambio",
      message:
        "El stock de Anillo cambió mientras editabas (ahora hay 7): recarga la página y vuelve a escribirlo.",
    });
    const drop = await getDrop(shop.db, dropId);
    expect(drop?.name).toBe("Mareas");
    expect(drop?.products.map((p) => [p.name, p.stock])).toEqual([
      ["Anillo Marea", 7],
      ["Collar Ola", 4],
    ]);
    expect((await heldPieces(shop.db, [ring])).get(ring)).toBe(3);

    // 10 -> 3 is -7: exactly what is left, so the piece is sold out with the 3 holds still there.
    expect(await save(shop, dropId, withProduct(form, 0, { stock: "3" }))).toEqual({ ok: true });
    expect(await stockOf(shop.db, ring)).toBe(0);
    expect(await stockOf(shop.db, necklace)).toBe(4);
    expect((await heldPieces(shop.db, [ring])).get(ring)).toBe(3);
  });

  it("an existing product's stock sent without the stock the form loaded is refused, not guessed", async () => {
    const shop = await open(harness);
    const { dropId, ids } = await runningDrop(shop, [{ name: "Anillo Marea", stock: 10 }]);
    const form = await loadForm(shop.db, dropId);
    const result = await save(
      shop,
      dropId,
      withProduct({ ...form, name: "Otra" }, 0, { stock: "2", stockLoaded: "" }),
    );
    expect(result).toEqual({
      ok: false,
      reason: "stock_cambio",
      message:
        "No sabemos qué stock de Anillo Marea tenías a la vista: recarga la página y vuelve a escribirlo.",
    });
    expect(await stockOf(shop.db, ids[0] ?? "")).toBe(10);
    expect((await getDrop(shop.db, dropId))?.name).toBe("Mareas");
  });

  it("heldPieces counts only checkouts still waiting for payment", async () => {
    const shop = await open(harness);
    const { ids, line } = await runningDrop(shop, [
      { name: "Anillo Marea", stock: 20 },
      { name: "Collar Ola", stock: 20 },
      { name: "Arete Espuma", stock: 20 },
    ]);
    const [ring = "", necklace = "", earring = ""] = ids;
    await hold(shop.db, { lines: [line(ring, 2), line(necklace, 1)], provider: "demo" });
    await hold(shop.db, { lines: [line(ring, 1)], provider: "demo" });
    await paidOrder(shop.db, [line(ring, 4)]);
    const expired = await hold(shop.db, { lines: [line(necklace, 5)], provider: "demo" });
    expect(await releaseHold(shop.db, expired.id)).toBe(true);
    await paidOrder(shop.db, [line(earring, 1)]);

    expect(await heldPieces(shop.db, [ring, necklace, earring, newId()])).toEqual(
      new Map([
        [ring, 3],
        [necklace, 1],
      ]),
    );
    expect(await heldPieces(shop.db, [earring])).toEqual(new Map());
    expect(await heldPieces(shop.db, [])).toEqual(new Map());
  });

  it("lists the drops of one status, newest start first, with product count, pieces and time state", async () => {
    const shop = await open(harness);
    const make = async (name: string, dates: Record<string, string>, stocks: number[], status: string) => {
      const dropId = newId();
      const images = await uploads(shop, dropId, stocks.length);
      const products = stocks.map((stock, i) => ({ stock: String(stock), imageId: images[i] }));
      await createDropFromInput(shop.db, shop.storage, newForm(dropId, { name, ...dates }, products));
      // Published long before: the tabs then follow the status and the dates (decision 38).
      expect(await publishDrop(shop.db, dropId, PUBLISHED)).toEqual({ ok: true });
      if (status !== "proximamente") {
        expect(await save(shop, dropId, { ...(await loadForm(shop.db, dropId)), status })).toEqual({
          ok: true,
        });
      }
      return dropId;
    };
    // NOW is 2026-11-22 12:00 in Mexico City.
    const december = { startDate: "2026-12-01", startTime: "10:00", endDate: "2026-12-07", endTime: "20:00" };
    const january = { startDate: "2027-01-05", startTime: "10:00", endDate: "2027-01-09", endTime: "20:00" };
    const running = { startDate: "2026-11-20", startTime: "10:00", endDate: "2026-11-25", endTime: "20:00" };
    const ended = { startDate: "2026-10-01", startTime: "10:00", endDate: "2026-10-05", endTime: "20:00" };
    const dec = await make("Diciembre", december, [3, 0], "proximamente");
    const jan = await make("Enero", january, [], "proximamente");
    const now = await make("Noviembre", running, [7], "activa");
    const old = await make("Octubre", ended, [1, 1, 1], "archivado");

    expect(await listAdminDrops(shop.db, "proximamente", NOW)).toEqual([
      {
        id: jan,
        name: "Enero",
        status: "proximamente",
        timeState: "pending",
        publication: "publicada",
        visibleFrom: PUBLISHED,
        startAt: new Date("2027-01-05T16:00:00.000Z"),
        endAt: new Date("2027-01-10T02:00:00.000Z"),
        products: 0,
        pieces: 0,
      },
      {
        id: dec,
        name: "Diciembre",
        status: "proximamente",
        timeState: "pending",
        publication: "publicada",
        visibleFrom: PUBLISHED,
        startAt: new Date("2026-12-01T16:00:00.000Z"),
        endAt: new Date("2026-12-08T02:00:00.000Z"),
        products: 2,
        pieces: 3,
      },
    ]);
    expect(await listAdminDrops(shop.db, "activa", NOW)).toMatchObject([
      { id: now, timeState: "running", products: 1, pieces: 7 },
    ]);
    expect(await listAdminDrops(shop.db, "archivada", NOW)).toMatchObject([
      { id: old, status: "archivada", timeState: "ended", products: 3, pieces: 3 },
    ]);
    // The tabs follow the clock (decision 38): at its start a published drop moves to Activas by
    // itself, and its stored status follows; an ended one stays there, 'Finalizado'.
    const december3 = new Date("2026-12-03T00:00:00Z");
    expect(await listAdminDrops(shop.db, "proximamente", december3)).toMatchObject([
      { id: jan, timeState: "pending" },
    ]);
    expect(await listAdminDrops(shop.db, "activa", december3)).toMatchObject([
      { id: dec, status: "activa", timeState: "running" },
      { id: now, timeState: "ended" },
    ]);
  });

  it("deleting a drop removes it, its products, media rows and folder; paid orders stay whole, waiting ones expire", async () => {
    const shop = await open(harness);
    const shopDrop = await runningDrop(shop, [
      { name: "Anillo Marea", stock: 5, price: "4,500.00" },
      { name: "Collar Ola", stock: 5, price: "12,500.00" },
    ]);
    const { dropId, line } = shopDrop;
    const [ring = "", necklace = ""] = shopDrop.ids;
    const cover = await upload(shop, dropId);
    const extra = await upload(shop, dropId);
    const video = await uploadVideo(shop, dropId);
    const form = await loadForm(shop.db, dropId);
    expect(
      await save(
        shop,
        dropId,
        withProduct({ ...form, imageId: cover, videoId: video }, 0, { extraImageIds: [extra] }),
      ),
    ).toEqual({ ok: true });
    // Another drop, with its own folder, that must come through untouched.
    const other = await runningDrop(shop, [{ name: "Pulsera Brisa", stock: 2 }]);

    const paid = await paidOrder(shop.db, [line(ring, 2), line(necklace, 1)]);
    const waiting = await hold(shop.db, {
      lines: [line(necklace, 1), other.line(other.ids[0] ?? "", 1)],
      provider: "demo",
    });
    // The shopper is on the demo payment page: the checkout has its session.
    await setPaymentSession(shop.db, waiting.id, { id: `demo_${waiting.id}`, expiresAt: waiting.expiresAt });
    const paidBefore = await shop.db
      .selectFrom("order_lines")
      .selectAll()
      .where("order_id", "=", paid.id)
      .execute();
    expect(await stockOf(shop.db, other.ids[0] ?? "")).toBe(1);

    expect(await deleteDrop(shop.db, shop.storage, createDemoPayments(shop.db), dropId)).toEqual({
      ok: true,
    });

    expect(await getDrop(shop.db, dropId)).toBeNull();
    expect(await shop.db.selectFrom("products").select("id").where("drop_id", "=", dropId).execute()).toEqual(
      [],
    );
    expect(await shop.db.selectFrom("media").select("id").where("drop_id", "=", dropId).execute()).toEqual(
      [],
    );
    expect(
      await shop.db
        .selectFrom("product_images")
        .select("media_id")
        .where("product_id", "in", [ring, necklace])
        .execute(),
    ).toEqual([]);
    expect(await shop.storage.list(`drops/${dropId}`)).toEqual([]);
    for (const id of [cover, extra, video, ...shopDrop.images])
      expect(await filesOf(shop, id ?? "")).toEqual([]);

    expect(await statusOf(shop.db, paid.id)).toBe("pendiente");
    expect(
      (await shop.db.selectFrom("orders").select("total_cents").where("id", "=", paid.id).executeTakeFirst())
        ?.total_cents,
    ).toBe(2 * 450_000 + 1_250_000);
    expect(
      await shop.db.selectFrom("order_lines").selectAll().where("order_id", "=", paid.id).execute(),
    ).toEqual(paidBefore);
    expect(paidBefore.map((l) => [l.name, l.unit_price_cents, l.quantity])).toEqual([
      ["Anillo Marea", 450_000, 2],
      ["Collar Ola", 1_250_000, 1],
    ]);
    expect(await statusOf(shop.db, waiting.id)).toBe("expirado");
    // The waiting checkout's piece of the other drop went back to its stock.
    expect(await stockOf(shop.db, other.ids[0] ?? "")).toBe(2);
    expect(await getDrop(shop.db, other.dropId)).not.toBeNull();
    for (const id of other.images) await expectKept(shop, id ?? "");
  });

  it("a drop with a cash voucher still payable is not deleted: it stays archived, the voucher's order kept", async () => {
    const shop = await open(harness);
    const { dropId, line, ids } = await runningDrop(shop, [{ name: "Collar Ola", stock: 2 }]);
    const waiting = await hold(shop.db, { lines: [line(ids[0] ?? "", 1)], provider: "demo" });
    await setPaymentSession(shop.db, waiting.id, { id: `demo_${waiting.id}`, expiresAt: waiting.expiresAt });
    // The buyer chose OXXO on the payment page: a ficha she can pay for days.
    await shop.db
      .updateTable("orders")
      .set({
        payment_method: "oxxo",
        voucher_reference: "12345678901234",
        voucher_expires_at: toTimestamp(new Date(Date.now() + 2 * 86_400_000)),
      })
      .where("id", "=", waiting.id)
      .execute();
    // The edit form, open in another tab since before the delete.
    const openForm = {
      ...(await loadForm(shop.db, dropId)),
      version: (await dropForEdit(shop.db, shop.storage, dropId))?.version,
    };
    expect(await deleteDrop(shop.db, shop.storage, createDemoPayments(shop.db), dropId)).toEqual({
      ok: false,
      reason: "pago_pendiente",
      message:
        "Un pago de esta colección ya se hizo o espera una ficha de OXXO o SPEI que todavía se puede pagar; quedó archivada. Podrás borrarla cuando ese pago se resuelva.",
    });
    expect((await getDrop(shop.db, dropId))?.status).toBe("archivada");
    expect(await statusOf(shop.db, waiting.id)).toBe("esperando_pago");
    // Saved from that tab, it would put the drop back on sale: refused, the drop stays archived.
    expect(await save(shop, dropId, openForm)).toMatchObject({
      ok: false,
      message: "La colección se guardó desde otra pestaña mientras editabas: recarga la página.",
    });
    expect((await getDrop(shop.db, dropId))?.status).toBe("archivada");
  });

  it("a product with numbered pieces sold cannot be taken off its drop: its certificates read its edition", async () => {
    const shop = await open(harness);
    const { dropId, line, ids } = await runningDrop(shop, [
      { name: "Anillo Marea", stock: 3 },
      { name: "Collar Ola", stock: 2 },
    ]);
    const [ring = "", necklace = ""] = ids;
    await shop.db.updateTable("products").set({ edition_size: 3 }).where("id", "=", ring).execute();
    await paidOrder(shop.db, [line(ring, 1)]);
    const form = await loadForm(shop.db, dropId);
    const result = await save(shop, dropId, { ...form, products: form.products.slice(1) });
    expect(result).toMatchObject({
      ok: false,
      reason: "edicion_numerada",
      message:
        "No se puede quitar Anillo Marea: ya tiene piezas numeradas vendidas, y sus certificados nombran su edición. Si ya no se vende, deja su stock en 0.",
    });
    expect((await getDrop(shop.db, dropId))?.products.map((p) => p.id)).toEqual([ring, necklace]);
    // A piece already past its edition (stock set before this was checked) does not block a save
    // that adds nothing to it; one that adds a piece is refused, saying what fits.
    // (3 on sale and 1 sold, of 3 numbers.)
    await shop.db.updateTable("products").set({ stock: 3 }).where("id", "=", ring).execute();
    expect(await save(shop, dropId, await loadForm(shop.db, dropId))).toEqual({ ok: true });
    await shop.db.updateTable("products").set({ stock: 2 }).where("id", "=", ring).execute();
    const more = withProduct(await loadForm(shop.db, dropId), 0, { stock: "3" });
    expect(await save(shop, dropId, more)).toMatchObject({
      ok: false,
      reason: "edicion_numerada",
      message:
        "Anillo Marea: su edición es de 3 piezas numeradas, 1 ya vendida; a la venta caben 2 piezas como máximo.",
    });
    // Nor can its drop be deleted with it.
    expect(await deleteDrop(shop.db, shop.storage, createDemoPayments(shop.db), dropId)).toEqual({
      ok: false,
      reason: "edicion_numerada",
      message:
        "No se puede borrar: Anillo Marea tiene piezas numeradas vendidas, y sus certificados nombran su edición. Archívala para quitarla de la tienda.",
    });
    expect(await getDrop(shop.db, dropId)).not.toBeNull();
  });

  it("deleting or editing a drop that does not exist is refused as no_encontrado", async () => {
    const shop = await open(harness);
    const missing = newId();
    expect(await deleteDrop(shop.db, shop.storage, createDemoPayments(shop.db), missing)).toEqual({
      ok: false,
      reason: "no_encontrado",
      message: "Drop no encontrado.",
    });
    const form = newForm(missing, {}, []);
    expect(await updateDropFromInput(shop.db, shop.storage, missing, form)).toEqual({
      ok: false,
      reason: "no_encontrado",
      message: "Drop no encontrado.",
    });
    expect(await count(shop.db, "drops")).toBe(0);
  });

  it("an edit naming another drop's product is refused and changes nothing", async () => {
    const shop = await open(harness);
    const mine = await runningDrop(shop, [{ name: "Anillo Marea", stock: 4 }]);
    const theirs = await runningDrop(shop, [{ name: "Pulsera Brisa", stock: 2 }]);
    const form = await loadForm(shop.db, mine.dropId);
    const theirProduct = (await loadForm(shop.db, theirs.dropId)).products[0];
    // Its id, with this drop's own photo, so only the product is foreign.
    const stolen = { ...theirProduct, imageId: mine.images[0], name: "Robada", stock: "0" };
    const result = await save(shop, mine.dropId, {
      ...form,
      name: "Cambiada",
      products: [...form.products, stolen],
    });
    expect(result).toEqual({
      ok: false,
      reason: "producto_ajeno",
      message: "Un producto ya no existe: recarga la página.",
    });
    expect((await getDrop(shop.db, mine.dropId))?.name).toBe("Mareas");
    expect((await getDrop(shop.db, theirs.dropId))?.products.map((p) => [p.name, p.stock])).toEqual([
      ["Pulsera Brisa", 2],
    ]);
  });

  it("what each photo shows is saved with it and comes back on the edit form", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const [cover = "", main = "", extraA = "", extraB = ""] = await uploads(shop, dropId, 4);
    const created = await createDropFromInput(
      shop.db,
      shop.storage,
      newForm(dropId, { imageId: cover, imageAlt: "Mesa del taller con piezas de oro" }, [
        {
          imageId: main,
          imageAlt: "Anillo de oro rosa visto de frente",
          extraImageIds: [extraA, extraB],
          extraImageAlts: ["El anillo en la mano", ""],
        },
      ]),
    );
    expect(created).toEqual({ ok: true, id: dropId });
    const alts = Object.fromEntries(
      (await shop.db.selectFrom("media").select(["id", "alt"]).execute()).map((m) => [m.id, m.alt]),
    );
    expect(alts).toEqual({
      [cover]: "Mesa del taller con piezas de oro",
      [main]: "Anillo de oro rosa visto de frente",
      [extraA]: "El anillo en la mano",
      [extraB]: "",
    });
    const form = await dropForEdit(shop.db, shop.storage, dropId);
    expect(form?.image?.alt).toBe("Mesa del taller con piezas de oro");
    expect(form?.products[0]?.image?.alt).toBe("Anillo de oro rosa visto de frente");
    expect(form?.products[0]?.extras.map((e) => e.alt)).toEqual(["El anillo en la mano", ""]);
  });

  it("an edit naming the same product twice is refused, so its stock change is not applied twice", async () => {
    const shop = await open(harness);
    const { dropId, ids } = await runningDrop(shop, [{ name: "Anillo Marea", stock: 10 }]);
    const form = await loadForm(shop.db, dropId);
    const typed = withProduct(form, 0, { stock: "15" });
    const twice = { ...typed, products: [...typed.products, ...typed.products] };
    // The form's schema refuses it, and so does the desk for any other caller.
    expect(dropInput.safeParse(twice).error?.issues[0]?.message).toBe(
      "Un producto aparece dos veces: recarga la página.",
    );
    const parsed = dropInput.parse(typed);
    const result = await updateDropFromInput(shop.db, shop.storage, dropId, {
      ...parsed,
      products: [...parsed.products, ...parsed.products],
    });
    expect(result).toMatchObject({ ok: false, reason: "producto_ajeno" });
    expect(await stockOf(shop.db, ids[0] ?? "")).toBe(10);
  });

  it("an edit naming a photo that is gone (replaced from another tab) is refused as medios_invalidos", async () => {
    const shop = await open(harness);
    const dropId = newId();
    const [cover = "", main = ""] = await uploads(shop, dropId, 2);
    await createDropFromInput(
      shop.db,
      shop.storage,
      newForm(dropId, { imageId: cover }, [{ imageId: main }]),
    );
    const staleTab = await loadForm(shop.db, dropId);
    // Another tab replaces the cover: the old photo's row and files are deleted.
    const newCover = await upload(shop, dropId);
    expect(await save(shop, dropId, { ...(await loadForm(shop.db, dropId)), imageId: newCover })).toEqual({
      ok: true,
    });
    await expectGone(shop, cover);

    // The stale tab still names the old cover.
    await expect(save(shop, dropId, { ...staleTab, name: "Otra" })).resolves.toEqual({
      ok: false,
      reason: "medios_invalidos",
      message: MEDIA_GONE,
    });
    const drop = await getDrop(shop.db, dropId);
    expect(drop?.name).toBe("Mareas");
    expect(drop?.image?.id).toBe(newCover);
  });

  // SQLite runs one writer at a time: there is nothing to deadlock there.
  it.skipIf(harness.dialect !== "postgres")(
    "a save does not deadlock with a checkout taking two of its pieces",
    async () => {
      const shop = await open(harness);
      const { dropId, ids } = await runningDrop(shop, [
        { name: "Anillo Marea", stock: 10 },
        { name: "Collar Ola", stock: 10 },
      ]);
      const [low = "", high = ""] = [...ids].sort();
      const form = await loadForm(shop.db, dropId);
      // The owner lists the piece with the larger id first (ids are random: any order can be this).
      const products = [...form.products]
        .sort((a, b) => ((a.id ?? "") < (b.id ?? "") ? 1 : -1))
        .map((p) => ({ ...p, stock: "12" }));

      // A checkout of both pieces takes them in product-id order (stock.server.ts): the lower id first...
      const checkout = await shop.db.startTransaction().execute();
      await takeStock(checkout, [{ productId: low, quantity: 1 }], new Date());
      const saving = save(shop, dropId, { ...form, products });
      await untilWaitingOnLocks(shop.db);
      // ...then the higher one, which the save already holds while it waits for the lower one.
      const taking = takeStock(checkout, [{ productId: high, quantity: 1 }], new Date()).then(
        async (short) => {
          await checkout.commit().execute();
          return short;
        },
        async (error: unknown) => {
          await checkout.rollback().execute();
          throw error;
        },
      );
      const [saved, took] = await Promise.allSettled([saving, taking]);
      expect(took).toEqual({ status: "fulfilled", value: [] });
      expect(saved).toEqual({ status: "fulfilled", value: { ok: true } });
      expect(await stockOf(shop.db, low)).toBe(11);
      expect(await stockOf(shop.db, high)).toBe(11);
    },
  );

  it("a product taken off the form while a checkout of it is still in its transaction is refused once that checkout commits, not deleted under it", async () => {
    const shop = await open(harness);
    const { dropId, ids, line } = await runningDrop(shop, [
      { name: "Anillo Marea", stock: 5 },
      { name: "Collar Ola", stock: 5 },
    ]);
    const [ring = "", necklace = ""] = ids;
    const form = await loadForm(shop.db, dropId);
    // A shopper's checkout has written its order and taken the ring, and has not committed yet.
    const gate = gatedAfter(shop.db, writeTo("products", "update"));
    const holding = holdCart(gate.db, { lines: [line(ring)], provider: "demo" });
    await gate.reached;
    // The owner takes the ring off the form meanwhile.
    const saving = save(shop, dropId, { ...form, products: form.products.filter((p) => p.id !== ring) });
    await untilWaitingOnLocks(shop.db);
    gate.open();
    const [held, saved] = await Promise.all([holding, saving]);
    expect(held.ok).toBe(true);
    expect(saved).toEqual({
      ok: false,
      reason: "producto_apartado",
      message:
        "No se puede quitar Anillo Marea: tiene piezas apartadas en pagos que aún no terminan. Se puede cuando esos pagos terminen o venzan sus apartados.",
    });
    expect((await getDrop(shop.db, dropId))?.products.map((p) => p.id)).toEqual([ring, necklace]);
    expect(await stockOf(shop.db, ring)).toBe(4);
    expect(await heldPieces(shop.db, [ring])).toEqual(new Map([[ring, 1]]));
  });

  it("a save taking off a piece a checkout is taking, beside one it keeps, waits for that checkout instead of deadlocking with it", async () => {
    const shop = await open(harness);
    const { dropId, ids, line } = await runningDrop(shop, [
      { name: "Anillo Marea", stock: 5 },
      { name: "Collar Ola", stock: 5 },
    ]);
    // Ids are random: the piece taken off is the one with the lower id, which a checkout takes first.
    const [removed = "", kept = ""] = [...ids].sort();
    const form = await loadForm(shop.db, dropId);
    const gate = gatedAfter(shop.db, writeTo("products", "update"));
    const holding = holdCart(gate.db, { lines: [line(removed), line(kept)], provider: "demo" });
    await gate.reached;
    // The checkout holds the lower one; the save keeps the higher one (its stock typed up) and takes
    // the lower one off.
    const saving = save(shop, dropId, {
      ...form,
      products: form.products.filter((p) => p.id !== removed).map((p) => ({ ...p, stock: "7" })),
    });
    await untilWaitingOnLocks(shop.db);
    gate.open();
    const [held, saved] = await Promise.allSettled([holding, saving]);
    expect(held).toMatchObject({ status: "fulfilled", value: { ok: true } });
    expect(saved).toMatchObject({ status: "fulfilled", value: { ok: false, reason: "producto_apartado" } });
    expect(await stockOf(shop.db, removed)).toBe(4);
    expect(await stockOf(shop.db, kept)).toBe(4);
    expect(await heldPieces(shop.db, [removed, kept])).toEqual(
      new Map([
        [removed, 1],
        [kept, 1],
      ]),
    );
  });

  it("deleting a drop while a checkout of its piece is still in its transaction closes that checkout once it commits", async () => {
    const shop = await open(harness);
    const { dropId, ids, line } = await runningDrop(shop, [{ name: "Anillo Marea", stock: 5 }]);
    const ring = ids[0] ?? "";
    // The checkout read the drop as activa, wrote its order and took the ring; not committed yet.
    const gate = gatedAfter(shop.db, writeTo("products", "update"));
    const holding = holdCart(gate.db, { lines: [line(ring)], provider: "demo" });
    await gate.reached;
    const deleting = deleteDrop(shop.db, shop.storage, createDemoPayments(shop.db), dropId);
    await untilWaitingOnLocks(shop.db);
    gate.open();
    const [held, deleted] = await Promise.all([holding, deleting]);
    expect(deleted).toEqual({ ok: true });
    expect(await getDrop(shop.db, dropId)).toBeNull();
    if (!held.ok) throw new Error(held.message);
    // Nobody is left paying for a piece that is gone.
    expect(await statusOf(shop.db, held.id)).toBe("expirado");
  });

  it("a checkout that read the drop before it was archived and took its piece while the delete was closing others is closed too", async () => {
    const shop = await open(harness);
    const { dropId, ids, line } = await runningDrop(shop, [{ name: "Anillo Marea", stock: 5 }]);
    const ring = ids[0] ?? "";
    const first = await hold(shop.db, { lines: [line(ring)], provider: "demo" });
    await setPaymentSession(shop.db, first.id, { id: `demo_${first.id}`, expiresAt: first.expiresAt });
    // A second checkout has read the drop as activa and written its order; no piece taken yet.
    const gate = gatedAfter(shop.db, writeTo("orders", "insert"));
    const holding = holdCart(gate.db, { lines: [line(ring)], provider: "demo" });
    await gate.reached;
    // The delete asks the payment provider to close the first checkout's session: it takes a while.
    const demo = createDemoPayments(shop.db);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let asked = () => {};
    const providerAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const payments = {
      ...demo,
      async expireSession(sessionId: string) {
        asked();
        await answered;
        return demo.expireSession(sessionId);
      },
    };
    const deleting = deleteDrop(shop.db, shop.storage, payments, dropId);
    // PostgreSQL: the delete has archived the drop and read the first checkout only. SQLite: the
    // delete waits for the checkout's write lock, so it reads both (the provider is not asked yet).
    await Promise.race([providerAsked, new Promise((resolve) => setTimeout(resolve, 300))]);
    gate.open();
    const held = await holding;
    answer();
    expect(await deleting).toEqual({ ok: true });
    expect(await getDrop(shop.db, dropId)).toBeNull();
    expect(await statusOf(shop.db, first.id)).toBe("expirado");
    if (held.ok) expect(await statusOf(shop.db, held.id)).toBe("expirado");
    // Nobody is left paying for a piece that is gone.
    const waiting = await shop.db
      .selectFrom("orders")
      .select("id")
      .where("status", "=", "esperando_pago")
      .execute();
    expect(waiting).toEqual([]);
  });
});
