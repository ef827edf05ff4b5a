import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import type { Db } from "~/db/database.server";
import { createDropFromInput } from "~/drops-desk/create.server";
import { dropInput } from "~/drops-desk/drop-input";
import { dropForEdit } from "~/drops-desk/edit-form.server";
import type { DropFormValues, ProductFormValues } from "~/drops-desk/form-values";
import type { OptionValueFormValues } from "~/drops-desk/option-input";
import { publishDrop } from "~/drops-desk/publish.server";
import { updateDropFromInput } from "~/drops-desk/update.server";
import { shopDateTimeStamp } from "~/lib/dates";
import { newId } from "~/lib/ids";
import { createLocalStorage } from "~/media/local-storage.server";
import { storeImage } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import { holdCart, releaseHold } from "~/orders/holds.server";
import { confirmPayment } from "~/orders/payment.server";
import { createDemoPayments } from "~/payments/demo-payments.server";
import { oaxacaAddress } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

/*
 * The drops desk's sizes (issue 24, decision 34) on both databases: a ring created with its sizes
 * stores each with its stock and the product's stock as their sum; an edit moves each size's
 * stock by the difference from what the form loaded, so a shopper's hold made meanwhile is kept;
 * sizes are added, removed (never one a checkout holds), renamed (keeping their id), and a product
 * takes sizes on or off only while nothing of it is held.
 */

const DAY = 86_400_000;
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

interface Shop {
  db: Db;
  storage: MediaStorage;
}

/** The edit form as the page posts it: what `dropForEdit` loaded, with the owner's changes. */
function posted(form: DropFormValues) {
  const { image, video, products, ...drop } = form;
  return {
    ...drop,
    imageId: image?.id ?? "",
    videoId: video?.id ?? "",
    products: products.map(({ image: main, extras, ...p }) => ({
      ...p,
      imageId: main?.id ?? "",
      imageAlt: main?.alt ?? "",
      extraImageIds: extras.map((m) => m.id),
      extraImageAlts: extras.map((m) => m.alt),
    })),
  };
}

/** A running, active drop made through the desk with a ring in sizes 5–8 (1, 2, 3, 4 pieces). */
async function ringDrop(shop: Shop) {
  const dropId = newId();
  const body = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#b08d57" } })
    .png()
    .toBuffer();
  const image = await storeImage(shop.storage, { dropId, body });
  await shop.db.insertInto("media").values(image).execute();
  const [startDate, startTime] = shopDateTimeStamp(new Date(Date.now() - DAY)).split(" ");
  const [endDate, endTime] = shopDateTimeStamp(new Date(Date.now() + DAY)).split(" ");
  const input = dropInput.parse({
    id: dropId,
    name: "Mareas",
    startDate,
    startTime,
    endDate,
    endTime,
    products: [
      {
        name: "Anillo Marea",
        price: "4500",
        categoria: "Anillo",
        material: "Oro rosa",
        imageId: image.id,
        optionName: "Talla",
        options: [
          { value: "5", stock: "1" },
          { value: "6", stock: "2" },
          { value: "7", stock: "3" },
          { value: "8", stock: "4" },
        ],
      },
    ],
  });
  expect(await createDropFromInput(shop.db, shop.storage, input)).toEqual({ ok: true, id: dropId });
  await shop.db.updateTable("drops").set({ status: "activa" }).where("id", "=", dropId).execute();
  // A new drop is a draft (decision 38): published, shoppers can hold its pieces.
  expect(await publishDrop(shop.db, dropId, null)).toEqual({ ok: true });
  const productId = (
    await shop.db.selectFrom("products").select("id").where("drop_id", "=", dropId).executeTakeFirstOrThrow()
  ).id;
  return { dropId, productId };
}

async function open(harness: { fresh: () => Promise<{ db: Db }> }): Promise<Shop> {
  const database = await harness.fresh();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-sizes-"));
  roots.push(root);
  return { db: database.db, storage: createLocalStorage(root) };
}

async function load(shop: Shop, dropId: string): Promise<DropFormValues> {
  const form = await dropForEdit(shop.db, shop.storage, dropId);
  if (!form) throw new Error("drop vanished");
  return form;
}

/** The form with the first product's sizes changed as the owner typed them. */
function withSizes(
  form: DropFormValues,
  change: (sizes: OptionValueFormValues[]) => OptionValueFormValues[],
  product: Partial<ProductFormValues> = {},
): DropFormValues {
  const [first, ...rest] = form.products;
  if (!first) throw new Error("no product");
  return { ...form, products: [{ ...first, options: change(first.options), ...product }, ...rest] };
}

const size = (value: string, stock: number): OptionValueFormValues => ({
  id: "",
  value,
  stock: String(stock),
  stockLoaded: "",
  held: 0,
});

function save(shop: Shop, dropId: string, form: DropFormValues) {
  return updateDropFromInput(shop.db, shop.storage, dropId, dropInput.parse(posted(form)));
}

/** The product's stock, its option, and each size's stock and id in the owner's order. */
async function stored(db: Db, productId: string) {
  const product = await db
    .selectFrom("products")
    .select(["stock", "option_name"])
    .where("id", "=", productId)
    .executeTakeFirstOrThrow();
  const values = await db
    .selectFrom("product_options")
    .select(["id", "value", "stock"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .execute();
  return {
    stock: product.stock,
    option: product.option_name,
    sizes: Object.fromEntries(values.map((v) => [v.value, v.stock])),
    ids: Object.fromEntries(values.map((v) => [v.value, v.id])),
  };
}

describeEachDatabase("the drops desk's sizes", (harness) => {
  it("creates a ring in sizes 5–8 with each size's stock, its own the sum; the edit form loads them", async () => {
    const shop = await open(harness);
    const { dropId, productId } = await ringDrop(shop);
    expect(await stored(shop.db, productId)).toMatchObject({
      stock: 10,
      option: "Talla",
      sizes: { "5": 1, "6": 2, "7": 3, "8": 4 },
    });
    const form = await load(shop, dropId);
    expect(form.products[0]).toMatchObject({ optionName: "Talla", stock: "10", stockLoaded: "10" });
    expect(form.products[0]?.options.map((v) => [v.value, v.stock, v.stockLoaded, v.held])).toEqual([
      ["5", "1", "1", 0],
      ["6", "2", "2", 0],
      ["7", "3", "3", 0],
      ["8", "4", "4", 0],
    ]);
  });

  it("a size's stock saved while a shopper holds one of it moves by the difference: the hold is kept", async () => {
    const shop = await open(harness);
    const { dropId, productId } = await ringDrop(shop);
    const form = await load(shop, dropId);
    const { ids } = await stored(shop.db, productId);
    // The shopper holds one size 7 while the owner's form is open…
    const order = await hold(shop.db, {
      lines: [{ productId, dropId, quantity: 1, optionId: ids["7"] }],
      provider: "demo",
    });
    expect(await stored(shop.db, productId)).toMatchObject({ stock: 9, sizes: { "7": 2 } });
    // …and the owner, who saw 3, types 5: two more arrived. 2 left + 2 = 4; the sum 9 + 2 = 11.
    const raised = withSizes(form, (sizes) => sizes.map((v) => (v.value === "7" ? { ...v, stock: "5" } : v)));
    expect(await save(shop, dropId, raised)).toEqual({ ok: true });
    expect(await stored(shop.db, productId)).toMatchObject({
      stock: 11,
      sizes: { "5": 1, "6": 2, "7": 4, "8": 4 },
      ids,
    });
    const line = await shop.db
      .selectFrom("order_lines")
      .innerJoin("orders", "orders.id", "order_lines.order_id")
      .select(["orders.status", "order_lines.option_id", "order_lines.option_value", "order_lines.quantity"])
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(line).toEqual({ status: "esperando_pago", option_id: ids["7"], option_value: "7", quantity: 1 });
    // Released, the piece goes back to size 7 and to the sum.
    await releaseHold(shop.db, order.id);
    expect(await stored(shop.db, productId)).toMatchObject({ stock: 12, sizes: { "7": 5 } });
  });

  it("a cut below what is left of a size is refused with what there is now; nothing changes", async () => {
    const shop = await open(harness);
    const { dropId, productId } = await ringDrop(shop);
    const form = await load(shop, dropId);
    const { ids } = await stored(shop.db, productId);
    await hold(shop.db, {
      lines: [{ productId, dropId, quantity: 2, optionId: ids["7"] }],
      provider: "demo",
    });
    const before = await stored(shop.db, productId);
    // Saw 3, types 0: takes 3 off the 1 left.
    const cut = withSizes(form, (sizes) => sizes.map((v) => (v.value === "7" ? { ...v, stock: "0" } : v)));
    expect(await save(shop, dropId, cut)).toEqual({
      ok: false,
      reason: "stock_cambio",
      message:
        "El stock de Anillo Marea talla 7 cambió mientras editabas (ahora hay 1): recarga la página y vuelve a escribirlo.",
    });
    expect(await stored(shop.db, productId)).toEqual(before);
  });

  it("adds, removes, renames and reorders sizes; a size a checkout holds cannot be removed", async () => {
    const shop = await open(harness);
    const { dropId, productId } = await ringDrop(shop);
    const { ids } = await stored(shop.db, productId);
    const order = await hold(shop.db, {
      lines: [{ productId, dropId, quantity: 1, optionId: ids["8"] }],
      provider: "demo",
    });
    const form = await load(shop, dropId);
    expect(form.products[0]?.options.find((v) => v.value === "8")?.held).toBe(1);
    const before = await stored(shop.db, productId);
    const noEight = withSizes(form, (sizes) => sizes.filter((v) => v.value !== "8"));
    expect(await save(shop, dropId, noEight)).toEqual({
      ok: false,
      reason: "producto_apartado",
      message:
        "No se puede quitar la talla 8 de Anillo Marea: tiene piezas apartadas en pagos que aún no terminan. Se puede cuando esos pagos terminen o venzan sus apartados.",
    });
    expect(await stored(shop.db, productId)).toEqual(before);

    // Size 5 (free) goes, 9 comes with 2, 6 is renamed 6.5, and 7 and 8 trade places and names.
    const edited = withSizes(form, (sizes) => {
      const at = (value: string) => sizes.find((v) => v.value === value) as OptionValueFormValues;
      return [
        { ...at("6"), value: "6.5" },
        { ...at("8"), value: "7" },
        { ...at("7"), value: "8" },
        size("9", 2),
      ];
    });
    expect(await save(shop, dropId, edited)).toEqual({ ok: true });
    const after = await stored(shop.db, productId);
    // 9 (3 after the hold) - 1 (size 5) + 2 (size 9).
    expect(after).toEqual({
      stock: 10,
      option: "Talla",
      sizes: { "6.5": 2, "7": 3, "8": 3, "9": 2 },
      ids: { "6.5": ids["6"], "7": ids["8"], "8": ids["7"], "9": after.ids["9"] },
    });
    // The order keeps the size as chosen; its line still names its value's id.
    const line = await shop.db
      .selectFrom("order_lines")
      .select(["option_id", "option_value"])
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(line).toEqual({ option_id: ids["8"], option_value: "8" });
  });

  it("takes sizes off or on only while nothing is held: then the stock typed, or the sizes' sum, stands", async () => {
    const shop = await open(harness);
    const { dropId, productId } = await ringDrop(shop);
    const { ids } = await stored(shop.db, productId);
    const order = await hold(shop.db, {
      lines: [{ productId, dropId, quantity: 1, optionId: ids["5"] }],
      provider: "demo",
    });
    const plain = withSizes(await load(shop, dropId), () => [], { optionName: "", stock: "6" });
    const before = await stored(shop.db, productId);
    expect(await save(shop, dropId, plain)).toMatchObject({
      ok: false,
      reason: "producto_apartado",
      message:
        "No se pueden quitar las tallas de Anillo Marea: tiene piezas apartadas en pagos que aún no terminan. Se puede cuando esos pagos terminen o venzan sus apartados.",
    });
    expect(await stored(shop.db, productId)).toEqual(before);

    await releaseHold(shop.db, order.id);
    // The owner saw 10 and types 6.
    const freed = withSizes(await load(shop, dropId), () => [], { optionName: "", stock: "6" });
    expect(await save(shop, dropId, freed)).toEqual({ ok: true });
    expect(await stored(shop.db, productId)).toEqual({ stock: 6, option: null, sizes: {}, ids: {} });

    // Back to sizes, now as lengths, while a shopper holds one (without a size): refused.
    const plainOrder = await hold(shop.db, { lines: [{ productId, dropId, quantity: 1 }], provider: "demo" });
    const lengths = (form: DropFormValues) =>
      withSizes(form, () => [size("40 cm", 1), size("45 cm", 2)], { optionName: "Largo" });
    expect(await save(shop, dropId, lengths(await load(shop, dropId)))).toMatchObject({
      ok: false,
      reason: "producto_apartado",
      message:
        "No se pueden agregar largos a Anillo Marea: tiene piezas apartadas en pagos que aún no terminan. Se puede cuando esos pagos terminen o venzan sus apartados.",
    });
    await releaseHold(shop.db, plainOrder.id);
    expect(await save(shop, dropId, lengths(await load(shop, dropId)))).toEqual({ ok: true });
    expect(await stored(shop.db, productId)).toMatchObject({
      stock: 3,
      option: "Largo",
      sizes: { "40 cm": 1, "45 cm": 2 },
    });
  });

  it("a piece sold before its product had sizes, cancelled after, does not come back as stock no size sells", async () => {
    const shop = await open(harness);
    const { dropId, productId } = await ringDrop(shop);
    // Sizes off, 6 pieces; one is bought and paid (no size), then the owner splits the rest in lengths.
    expect(
      await save(
        shop,
        dropId,
        withSizes(await load(shop, dropId), () => [], { optionName: "", stock: "6" }),
      ),
    ).toEqual({ ok: true });
    const bought = await hold(shop.db, { lines: [{ productId, dropId, quantity: 1 }], provider: "demo" });
    await confirmPayment(shop.db, {
      orderId: bought.id,
      customerName: "Ana Pérez",
      customerEmail: "ana@example.mx",
      shipping: oaxacaAddress("Ana Pérez", "951 123 4567"),
    });
    const lengths = withSizes(await load(shop, dropId), () => [size("40 cm", 2), size("45 cm", 3)], {
      optionName: "Largo",
    });
    expect(await save(shop, dropId, lengths)).toEqual({ ok: true });
    const before = await stored(shop.db, productId);
    expect(before).toMatchObject({ stock: 5, sizes: { "40 cm": 2, "45 cm": 3 } });
    // The shop cancels the paid order: its piece had no length, so it goes back to no shelf.
    expect(await cancelPaidOrder(shop.db, createDemoPayments(shop.db), bought.id)).toMatchObject({
      ok: true,
    });
    expect(await stored(shop.db, productId)).toEqual(before);
  });

  it("sizes added to a piece that sold meanwhile are refused with what is left, not sold again", async () => {
    const shop = await open(harness);
    const { dropId, productId } = await ringDrop(shop);
    // A piece without sizes, 6 of it; the owner opens the form to split them into lengths.
    expect(
      await save(
        shop,
        dropId,
        withSizes(await load(shop, dropId), () => [], { optionName: "", stock: "6" }),
      ),
    ).toEqual({
      ok: true,
    });
    const form = await load(shop, dropId);
    // Meanwhile two are bought and paid.
    const order = await hold(shop.db, { lines: [{ productId, dropId, quantity: 2 }], provider: "demo" });
    await confirmPayment(shop.db, {
      orderId: order.id,
      customerName: "Ana Pérez",
      customerEmail: "ana@example.mx",
      shipping: oaxacaAddress("Ana Pérez", "951 123 4567"),
    });
    const lengths = (f: DropFormValues, a: number, b: number) =>
      withSizes(f, () => [size("40 cm", a), size("45 cm", b)], { optionName: "Largo" });
    expect(await save(shop, dropId, lengths(form, 2, 4))).toEqual({
      ok: false,
      reason: "stock_cambio",
      message:
        "El stock de Anillo Marea cambió mientras editabas (ahora hay 4): recarga la página y reparte las 4 que quedan en largos.",
    });
    expect(await stored(shop.db, productId)).toEqual({ stock: 4, option: null, sizes: {}, ids: {} });
    // Reloaded, she splits the four that are left.
    expect(await save(shop, dropId, lengths(await load(shop, dropId), 1, 3))).toEqual({ ok: true });
    expect(await stored(shop.db, productId)).toMatchObject({
      stock: 4,
      option: "Largo",
      sizes: { "40 cm": 1, "45 cm": 3 },
    });
  });

  it("saves racing checkouts on the same sizes: no deadlock, each size and the sum stay right", async () => {
    const shop = await open(harness);
    const { dropId, productId } = await ringDrop(shop);
    const { ids } = await stored(shop.db, productId);
    const form = await load(shop, dropId);
    // The owner adds 10 to sizes 7 and 8 while 12 shoppers try for one of either.
    const raised = withSizes(form, (sizes) =>
      sizes.map((v) =>
        v.value === "7" || v.value === "8" ? { ...v, stock: String(Number(v.stock) + 10) } : v,
      ),
    );
    const [saved, ...holds] = await Promise.all([
      save(shop, dropId, raised),
      ...Array.from({ length: 12 }, (_, i) =>
        holdCart(shop.db, {
          lines: [{ productId, dropId, quantity: 1, optionId: ids[i % 2 === 0 ? "7" : "8"] }],
          provider: "demo",
          browser: `navegador-${i}`,
        }),
      ),
    ]);
    expect(saved).toEqual({ ok: true });
    const heldOf = async (optionId: string | undefined) =>
      Number(
        (
          await shop.db
            .selectFrom("order_lines")
            .select((eb) => eb.fn.sum<number>("quantity").as("n"))
            .where("option_id", "=", optionId ?? "")
            .executeTakeFirst()
        )?.n ?? 0,
      );
    const [held7, held8] = [await heldOf(ids["7"]), await heldOf(ids["8"])];
    expect(held7 + held8).toBe(holds.filter((h) => h.ok).length);
    const after = await stored(shop.db, productId);
    expect(after.sizes).toEqual({ "5": 1, "6": 2, "7": 13 - held7, "8": 14 - held8 });
    expect(after.stock).toBe(1 + 2 + 13 - held7 + 14 - held8);
  });
});
