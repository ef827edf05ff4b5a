import type { Db } from "~/db/database.server";
import { newId } from "~/lib/ids";
import type { ProductInput } from "./drop-input";

/** The columns a form sets on a product, new or kept (stock is set apart: see update.server.ts). */
export function productColumns(p: ProductInput, position: number, stamp: string) {
  return {
    position,
    name: p.name,
    description: p.description,
    categoria: p.categoria,
    material: p.material,
    price_cents: p.price,
    karat: p.karat,
    weight_mg: p.weight,
    stones: p.stones,
    edition_size: p.edition,
    option_name: p.option?.name ?? null,
    image_id: p.imageId || null,
    updated_at: stamp,
  };
}

/** A product's extra photos, in the form's order, in place of those it had. */
export async function writeProductImages(trx: Db, productId: string, extras: string[]) {
  await trx.deleteFrom("product_images").where("product_id", "=", productId).execute();
  if (extras.length > 0) {
    await trx
      .insertInto("product_images")
      .values(extras.map((media_id, i) => ({ product_id: productId, position: i + 1, media_id })))
      .execute();
  }
}

/**
 * Values of a product's option, each at its place in the form's list, with its stock (the
 * product's own stock, their sum, is written by the caller).
 */
export async function insertOptionValues(
  trx: Db,
  productId: string,
  values: readonly { value: string; stock: number; position: number }[],
) {
  if (values.length === 0) return;
  await trx
    .insertInto("product_options")
    .values(
      values.map((v) => ({
        id: newId(),
        product_id: productId,
        value: v.value,
        position: v.position,
        stock: v.stock,
      })),
    )
    .execute();
}

/** A product the form adds, with the stock typed (with sizes, their sum), its sizes and extra photos. */
export async function insertProduct(
  trx: Db,
  dropId: string,
  p: ProductInput,
  position: number,
  stamp: string,
) {
  const id = newId();
  await trx
    .insertInto("products")
    .values({
      id,
      drop_id: dropId,
      stock: p.stock,
      created_at: stamp,
      ...productColumns(p, position, stamp),
    })
    .execute();
  await insertOptionValues(
    trx,
    id,
    (p.option?.values ?? []).map((v, position) => ({ ...v, position })),
  );
  await writeProductImages(trx, id, p.extraImageIds);
}
