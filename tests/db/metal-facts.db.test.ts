import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { NO_METAL_FACTS } from "~/catalogue/metal";
import { type Db, migrateToLatest, toTimestamp } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { createDropFromInput } from "~/drops-desk/create.server";
import { dropInput } from "~/drops-desk/drop-input";
import { dropForEdit } from "~/drops-desk/edit-form.server";
import { updateDropFromInput } from "~/drops-desk/update.server";
import { shopDateTimeStamp } from "~/lib/dates";
import { newId } from "~/lib/ids";
import { createLocalStorage } from "~/media/local-storage.server";
import { storeImage } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { lineMetalFacts } from "~/orders/line-metal.server";
import { confirmPayment } from "~/orders/payment.server";
import { oaxacaAddress } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { oldDrop, oldProducts } from "../support/old-rows";
import { hold } from "../support/orders";

const HOUR = 3_600_000;

const storageRoots: string[] = [];
afterAll(() => {
  for (const root of storageRoots) fs.rmSync(root, { recursive: true, force: true });
});

function localStorage(): MediaStorage {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-media-"));
  storageRoots.push(root);
  return createLocalStorage(root);
}

/** A photo uploaded for `dropId` as the upload route stores it. */
async function upload(db: Db, storage: MediaStorage, dropId: string): Promise<string> {
  const body = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#c9a44c" } })
    .png()
    .toBuffer();
  const row = await storeImage(storage, { dropId, body });
  await db.insertInto("media").values(row).execute();
  return row.id;
}

/** Running now, in the form's Mexico City dates. */
function runningDates() {
  const [startDate, startTime] = shopDateTimeStamp(new Date(Date.now() - HOUR)).split(" ");
  const [endDate, endTime] = shopDateTimeStamp(new Date(Date.now() + 24 * HOUR)).split(" ");
  return { startDate, startTime, endDate, endTime };
}

describeEachDatabase("the metal's facts", (harness) => {
  it("save from the drop form and read back exactly (2.35 g), on create and on edit", async () => {
    const database = await harness.fresh();
    const { db } = database;
    const storage = localStorage();
    const dropId = newId();
    const [ring, chain] = [await upload(db, storage, dropId), await upload(db, storage, dropId)];
    const base = { price: "4500", stock: "3", categoria: "Anillo", material: "Oro amarillo" };
    const created = await createDropFromInput(
      db,
      storage,
      dropInput.parse({
        id: dropId,
        name: "Mareas",
        ...runningDates(),
        products: [
          {
            ...base,
            name: "Anillo Marea",
            imageId: ring,
            karat: "14",
            weight: "2.35",
            stones: "Zirconia blanca",
          },
          { ...base, name: "Cadena Sola", imageId: chain, karat: "", weight: "", stones: "Sin piedras" },
        ],
      }),
    );
    expect(created).toEqual({ ok: true, id: dropId });

    const drop = await getDrop(db, dropId);
    expect(drop?.products.map((p) => [p.name, p.metal])).toEqual([
      ["Anillo Marea", { karat: 14, weightMg: 2350, stones: "Zirconia blanca" }],
      ["Cadena Sola", NO_METAL_FACTS],
    ]);
    // Stored as whole milligrams: exact on both engines.
    const stored = await db
      .selectFrom("products")
      .select(["name", "karat", "weight_mg", "stones"])
      .orderBy("position")
      .execute();
    expect(stored).toEqual([
      { name: "Anillo Marea", karat: 14, weight_mg: 2350, stones: "Zirconia blanca" },
      { name: "Cadena Sola", karat: null, weight_mg: null, stones: null },
    ]);

    // The edit form shows them as typed, and a save of it changes nothing.
    const form = await dropForEdit(db, storage, dropId);
    expect(form?.products.map((p) => ({ karat: p.karat, weight: p.weight, stones: p.stones }))).toEqual([
      { karat: "14", weight: "2.35", stones: "Zirconia blanca" },
      { karat: "", weight: "", stones: "" },
    ]);
    if (!form) throw new Error("no form");
    const asPosted = (change: (i: number) => Record<string, string>) => ({
      ...form,
      status: form.status,
      imageId: "",
      videoId: "",
      products: form.products.map((p, i) => ({
        id: p.id,
        name: p.name,
        price: p.price,
        stock: p.stock,
        stockLoaded: p.stockLoaded,
        categoria: p.categoria,
        material: p.material,
        karat: p.karat,
        weight: p.weight,
        stones: p.stones,
        description: p.description,
        imageId: p.image?.id ?? "",
        ...change(i),
      })),
    });
    expect(await updateDropFromInput(db, storage, dropId, dropInput.parse(asPosted(() => ({}))))).toEqual({
      ok: true,
    });
    expect((await getDrop(db, dropId))?.products.map((p) => p.metal)).toEqual([
      { karat: 14, weightMg: 2350, stones: "Zirconia blanca" },
      NO_METAL_FACTS,
    ]);

    // Edited: the ring loses its stones and becomes 18 k of 0.8 g; the chain gets 10 k, 12.05 g.
    const edited = (await dropForEdit(db, storage, dropId)) ?? form;
    const changes = [
      { karat: "18", weight: "0.80", stones: "" },
      { karat: "10", weight: "12,05", stones: "Perla de 6 mm" },
    ];
    expect(
      await updateDropFromInput(
        db,
        storage,
        dropId,
        dropInput.parse({ ...asPosted((i) => changes[i] ?? {}), version: edited.version }),
      ),
    ).toEqual({ ok: true });
    expect((await getDrop(db, dropId))?.products.map((p) => p.metal)).toEqual([
      { karat: 18, weightMg: 800, stones: null },
      { karat: 10, weightMg: 12_050, stones: "Perla de 6 mm" },
    ]);
    expect((await dropForEdit(db, storage, dropId))?.products.map((p) => p.weight)).toEqual(["0.8", "12.05"]);
  });

  it("the database itself refuses a karat, weight or stones out of range", async () => {
    const { db } = await harness.fresh();
    const stamp = toTimestamp(new Date());
    const dropId = await createDrop(db, {
      name: "Mareas",
      startAt: new Date(Date.now() - HOUR),
      endAt: new Date(Date.now() + HOUR),
      products: [],
    });
    const product = (over: Record<string, unknown>) =>
      db
        .insertInto("products")
        .values({
          id: newId(),
          drop_id: dropId,
          position: 0,
          name: "Anillo",
          description: "",
          categoria: "Anillo",
          material: "Oro rosa",
          price_cents: 100,
          stock: 1,
          image_id: null,
          created_at: stamp,
          updated_at: stamp,
          ...over,
        })
        .execute();
    for (const bad of [
      { karat: 22 },
      { karat: 0 },
      { weight_mg: 0 },
      { weight_mg: -5 },
      { weight_mg: 1_000_001 },
      { stones: "" },
      { stones: "z".repeat(81) },
    ]) {
      await expect(product(bad), JSON.stringify(bad)).rejects.toThrow(/check|constraint/i);
    }
    await product({ karat: 10, weight_mg: 1_000_000, stones: "ñ".repeat(80) });
    await product({});
    expect(
      await db.selectFrom("products").select(["karat", "weight_mg", "stones"]).orderBy("karat").execute(),
    ).toEqual(
      expect.arrayContaining([
        { karat: 10, weight_mg: 1_000_000, stones: "ñ".repeat(80) },
        { karat: null, weight_mg: null, stones: null },
      ]),
    );
  });

  it("migration 0019 keeps a shop's existing products and orders as they were, still sellable", async () => {
    const database = await harness.fresh({ migrate: true });
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0018_owner_door")).error).toBeUndefined();
    const dropId = await oldDrop(database);
    const ids = await oldProducts(database, dropId, [
      { name: "Anillo Marea", categoria: "Anillo", stock: 3 },
      { name: "Collar Luna", categoria: "Collar", stock: 3 },
    ]);

    expect((await migrateToLatest(database))[0]).toBe("0019_metal_facts");

    const db = database.db;
    const drop = await getDrop(db, dropId);
    expect(
      drop?.products.map((p) => ({ name: p.name, stock: p.stock, price: p.priceCents, metal: p.metal })),
    ).toEqual([
      { name: "Anillo Marea", stock: 3, price: 450_000, metal: NO_METAL_FACTS },
      { name: "Collar Luna", stock: 3, price: 450_000, metal: NO_METAL_FACTS },
    ]);
    // Still sold as before: held, paid, its stock taken; the slip has no facts to show for it.
    const order = await hold(db, {
      lines: [{ productId: ids[0] ?? "", dropId, quantity: 2 }],
      provider: "demo",
    });
    expect(
      await confirmPayment(db, {
        orderId: order.id,
        customerName: "Ana Pérez",
        customerEmail: "ana@example.mx",
        shipping: oaxacaAddress("Ana Pérez", "951 123 4567"),
      }),
    ).toBe("paid");
    expect((await getDrop(db, dropId))?.products[0]?.stock).toBe(1);
    expect(await lineMetalFacts(db, order.id)).toEqual([NO_METAL_FACTS]);
  });

  it("an order's lines carry their pieces' facts, in the lines' order, for the packing slip", async () => {
    const { db } = await harness.fresh();
    const dropId = await createDrop(db, {
      name: "Mareas",
      status: "activa",
      startAt: new Date(Date.now() - HOUR),
      endAt: new Date(Date.now() + HOUR),
      products: [
        {
          name: "Anillo Marea",
          categoria: "Anillo",
          material: "Oro amarillo",
          priceCents: 450_000,
          stock: 3,
          imageId: null,
          metal: { karat: 14, weightMg: 2350, stones: "Zirconia blanca" },
        },
        {
          name: "Cadena",
          categoria: "Collar",
          material: "Oro rosa",
          priceCents: 100_000,
          stock: 3,
          imageId: null,
        },
      ],
    });
    const [ring, chain] = (await getDrop(db, dropId))?.products ?? [];
    const order = await hold(db, {
      lines: [
        { productId: chain?.id ?? "", dropId, quantity: 1 },
        { productId: ring?.id ?? "", dropId, quantity: 1 },
      ],
      provider: "demo",
    });
    const facts = await lineMetalFacts(db, order.id);
    const lines = await db
      .selectFrom("order_lines")
      .select("name")
      .where("order_id", "=", order.id)
      .orderBy("position")
      .execute();
    expect(lines.map((l, i) => [l.name, facts[i]])).toEqual(
      expect.arrayContaining([
        ["Anillo Marea", { karat: 14, weightMg: 2350, stones: "Zirconia blanca" }],
        ["Cadena", NO_METAL_FACTS],
      ]),
    );
    expect(facts).toHaveLength(2);
  });
});
