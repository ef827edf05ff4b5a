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

/** A product the form adds, with the stock typed and its extra photos. */
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
  await writeProductImages(trx, id, p.extraImageIds);
}
