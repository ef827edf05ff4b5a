import { sql } from "kysely";
import { expect, it } from "vitest";
import { countDrops, createDrop, getDrop, InvalidDrop, listDrops } from "~/catalogue/catalogue.server";
import { cartProducts, productImageUrls } from "~/catalogue/views.server";
import { type Database, toTimestamp } from "~/db/database.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

const HOUR = 3_600_000;
const now = new Date("2026-11-22T12:00:00.000Z");

const ring = {
  name: "Anillo Marea",
  categoria: "Anillo" as const,
  material: "Oro amarillo" as const,
  priceCents: 185_000,
  stock: 3,
  imageId: null,
};

async function someMedia(database: Database, ids: string[]) {
  await database.db
    .insertInto("media")
    .values(
      ids.map((id) => ({
        id,
        drop_id: null,
        kind: "image" as const,
        key: `drops/x/${id}`,
        width: 960,
        height: 960,
        widths: "320,960",
        jpeg_widths: "320,960",
        mime: "image/webp",
        created_at: toTimestamp(now),
      })),
    )
    .execute();
}

async function aDrop(database: Database, over: Partial<Parameters<typeof createDrop>[1]> = {}) {
  return createDrop(
    database.db,
    {
      name: "Mareas",
      startAt: new Date(now.getTime() - HOUR),
      endAt: new Date(now.getTime() + HOUR),
      products: [ring, { ...ring, name: "Collar Ola", categoria: "Collar", priceCents: 1_400_000, stock: 0 }],
      ...over,
    },
    now,
  );
}

describeEachDatabase("catalogue storage", (harness) => {
  it("creates a drop with its products and reads them back intact", async () => {
    const database = await harness.fresh();
    const id = await aDrop(database, { smallDescription: "Olas de oro", status: "archivado" });
    const drop = await getDrop(database.db, id);
    expect(drop).not.toBeNull();
    expect(drop?.name).toBe("Mareas");
    expect(drop?.smallDescription).toBe("Olas de oro");
    expect(drop?.status).toBe("archivada");
    expect(drop?.startAt.toISOString()).toBe(new Date(now.getTime() - HOUR).toISOString());
    expect(drop?.endAt.toISOString()).toBe(new Date(now.getTime() + HOUR).toISOString());
    expect(drop?.createdAt.toISOString()).toBe(now.toISOString());
    expect(drop?.products.map((p) => [p.name, p.priceCents, p.stock, p.categoria])).toEqual([
      ["Anillo Marea", 185_000, 3, "Anillo"],
      ["Collar Ola", 1_400_000, 0, "Collar"],
    ]);
  });

  it("new drops start as proximamente", async () => {
    const database = await harness.fresh();
    const drop = await getDrop(database.db, await aDrop(database));
    expect(drop?.status).toBe("proximamente");
  });

  it("lists drops newest first and counts them", async () => {
    const database = await harness.fresh();
    await aDrop(database, { name: "Vieja", createdAt: new Date(now.getTime() - 400 * 24 * HOUR) });
    await aDrop(database, { name: "Nueva" });
    expect((await listDrops(database.db)).map((d) => d.name)).toEqual(["Nueva", "Vieja"]);
    expect(await countDrops(database.db)).toBe(2);
  });

  it("only getDrop with extraImages loads the galleries; the listing can leave products out", async () => {
    const database = await harness.fresh();
    await someMedia(database, ["cover", "main", "extra1", "extra2"]);
    const id = await aDrop(database, {
      imageId: "cover",
      products: [{ ...ring, imageId: "main", extraImageIds: ["extra2", "extra1"] }, ring],
    });

    const detail = await getDrop(database.db, id, { extraImages: true });
    expect(detail?.products.map((p) => p.extraImages.map((m) => m.id))).toEqual([["extra2", "extra1"], []]);
    expect(detail?.products[0]?.image?.id).toBe("main");

    const plain = await getDrop(database.db, id);
    expect(plain?.products[0]?.image?.id).toBe("main");
    expect(plain?.products[0]).not.toHaveProperty("extraImages");
    const [listed] = await listDrops(database.db);
    expect(listed?.products.map((p) => p.name)).toEqual(["Anillo Marea", "Anillo Marea"]);
    expect(listed?.products[0]).not.toHaveProperty("extraImages");

    const [info] = await listDrops(database.db, { products: false });
    expect(info?.name).toBe("Mareas");
    expect(info?.image?.id).toBe("cover");
    expect(info).not.toHaveProperty("products");
  });

  it("the cart's view of its products: current data and whether the drop sells now", async () => {
    const database = await harness.fresh();
    await someMedia(database, ["main"]);
    const running = await getDrop(
      database.db,
      await aDrop(database, { name: "Abierta", products: [{ ...ring, imageId: "main" }] }),
    );
    const ended = await getDrop(
      database.db,
      await aDrop(database, {
        name: "Cerrada",
        startAt: new Date(now.getTime() - 3 * HOUR),
        endAt: new Date(now.getTime() - 2 * HOUR),
      }),
    );
    const open = running?.products[0]?.id ?? "";
    const closed = ended?.products[0]?.id ?? "";
    const storage = createLocalStorage("/nonexistent-media-root");

    const products = await cartProducts(database.db, storage, [open, closed, "noexiste"], now);
    expect(products).toHaveLength(2);
    expect(products.find((p) => p.id === open)).toEqual({
      id: open,
      name: "Anillo Marea",
      priceCents: 185_000,
      stock: 3,
      image: "/media/drops/x/main-320.webp",
      purchasable: true,
      held: 0,
      maxPerPerson: null,
      option: null,
    });
    expect(products.find((p) => p.id === closed)).toEqual({
      id: closed,
      name: "Anillo Marea",
      priceCents: 185_000,
      stock: 3,
      image: null,
      purchasable: false,
      held: 0,
      maxPerPerson: null,
      option: null,
    });

    const urls = await productImageUrls(database.db, storage, "https://tienda.mx", [open, closed]);
    // Its JPEG copy: the payment provider may show it outside a browser (its receipts).
    expect([...urls]).toEqual([[open, "https://tienda.mx/media/drops/x/main-960.jpg"]]);
  });

  it("the cart's view of a ring by size: each size's stock, and a size at 0 held by an unpaid checkout", async () => {
    const database = await harness.fresh();
    const drop = await getDrop(
      database.db,
      await aDrop(database, {
        products: [
          {
            ...ring,
            option: {
              name: "Talla",
              values: [
                { value: "6", stock: 0 },
                { value: "7", stock: 1 },
                { value: "8", stock: 2 },
              ],
            },
          },
        ],
      }),
    );
    const product = drop?.products[0];
    if (!drop || !product?.option) throw new Error("a ring by size");
    expect(product.stock).toBe(3);
    const seven = product.option.values.find((v) => v.value === "7")?.id ?? "";
    await hold(database.db, {
      lines: [{ productId: product.id, dropId: drop.id, quantity: 1, optionId: seven }],
      provider: "demo",
      now,
    });
    const [view] = await cartProducts(
      database.db,
      createLocalStorage("/nonexistent-media-root"),
      [product.id],
      now,
    );
    expect(view?.stock).toBe(2);
    expect(view?.option).toEqual({
      name: "Talla",
      values: [
        { id: expect.any(String), value: "6", stock: 0, held: 0 },
        { id: seven, value: "7", stock: 0, held: 1 },
        { id: expect.any(String), value: "8", stock: 2, held: 0 },
      ],
    });
  });

  it("an unknown drop is null, not an error", async () => {
    const database = await harness.fresh();
    expect(await getDrop(database.db, "no-existe")).toBeNull();
  });

  it("the database itself refuses stock below zero", async () => {
    const database = await harness.fresh();
    const drop = await getDrop(database.db, await aDrop(database));
    const productId = drop?.products[0]?.id ?? "";
    await expect(
      database.db
        .updateTable("products")
        .set({ stock: sql`stock - 4` })
        .where("id", "=", productId)
        .execute(),
    ).rejects.toThrow();
    const after = await getDrop(database.db, drop?.id ?? "");
    expect(after?.products[0]?.stock).toBe(3);
  });

  it("the database refuses unknown categories, materials and statuses", async () => {
    const database = await harness.fresh();
    const drop = await getDrop(database.db, await aDrop(database));
    const id = drop?.products[0]?.id ?? "";
    const bad = [
      database.db
        .updateTable("products")
        .set({ categoria: "Reloj" as never })
        .where("id", "=", id),
      database.db
        .updateTable("products")
        .set({ material: "Plata" as never })
        .where("id", "=", id),
      database.db
        .updateTable("drops")
        .set({ status: "borrada" as never })
        .where("id", "=", drop?.id ?? ""),
      database.db.updateTable("products").set({ price_cents: -1 }).where("id", "=", id),
    ];
    for (const query of bad) await expect(query.execute()).rejects.toThrow();
  });

  it("refuses an end date before the start, and more than four extra images", async () => {
    const database = await harness.fresh();
    await expect(
      aDrop(database, { startAt: new Date(now.getTime() + HOUR), endAt: new Date(now.getTime() - HOUR) }),
    ).rejects.toBeInstanceOf(InvalidDrop);
    await expect(
      aDrop(database, { products: [{ ...ring, extraImageIds: ["a", "b", "c", "d", "e"] }] }),
    ).rejects.toBeInstanceOf(InvalidDrop);
    expect(await countDrops(database.db)).toBe(0);
  });

  it("a failing product rolls back the whole drop", async () => {
    const database = await harness.fresh();
    await expect(aDrop(database, { products: [ring, { ...ring, stock: -1 }] })).rejects.toThrow();
    expect(await countDrops(database.db)).toBe(0);
  });

  it("deleting a drop deletes its products", async () => {
    const database = await harness.fresh();
    const id = await aDrop(database);
    await database.db.deleteFrom("drops").where("id", "=", id).execute();
    const left = await database.db.selectFrom("products").select("id").execute();
    expect(left).toEqual([]);
  });

  it("timestamps keep their order and compare the same way on both databases", async () => {
    const database = await harness.fresh();
    const t = now.getTime();
    // Millisecond steps that sort wrongly as text unless every value is written the same way.
    for (const [name, offset] of [
      ["b", 500],
      ["a", 0],
      ["c", 1000],
      ["d", 59_999],
    ] as const) {
      await aDrop(database, { name, createdAt: new Date(t + offset), endAt: new Date(t + offset) });
    }
    expect((await listDrops(database.db)).map((d) => d.name)).toEqual(["d", "c", "b", "a"]);
    const endingFrom = await database.db
      .selectFrom("drops")
      .select("name")
      .where("end_at", ">=", toTimestamp(new Date(t + 500)))
      .orderBy("name")
      .execute();
    expect(endingFrom.map((r) => r.name)).toEqual(["b", "c", "d"]);
  });
});
