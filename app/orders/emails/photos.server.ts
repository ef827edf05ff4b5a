import type { Db } from "~/db/database.server";
import { absoluteUrl } from "~/lib/urls";
import type { EmailPhoto } from "~/mail/components";
import { jpegUrl, loadMedia } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import type { LinePhotos } from "./order-parts";

/*
 * The photos an order's e-mails show beside its pieces (decision 47): each line's product's main
 * image (`products.image_id`, as the storefront's tiles and the payment page show it), its smallest
 * stored JPEG copy (classic Outlook shows no WebP), made absolute with the shop's public address, as the 'Mi pedido' link is. The alt
 * text is the piece's name as bought. Read when the message is rendered: a photo changed since the
 * purchase is the one the buyer sees.
 */

/** The widest copy wanted: the e-mail shows 64 px; the smallest copy the pipeline keeps is 480 px. */
const PHOTO_WIDTH = 480;

/** Each of the order's lines' photo, in its line order (null for a piece without one). */
export async function orderLinePhotos(
  db: Db,
  storage: MediaStorage,
  orderId: string,
  origin: string,
): Promise<LinePhotos> {
  const lines = await db
    .selectFrom("order_lines")
    .leftJoin("products", "products.id", "order_lines.product_id")
    .select(["order_lines.name", "products.image_id"])
    .where("order_lines.order_id", "=", orderId)
    .orderBy("order_lines.position")
    .execute();
  const media = await loadMedia(
    db,
    lines.map((l) => l.image_id),
  );
  return lines.map((l): EmailPhoto | null => {
    const row = l.image_id ? media.get(l.image_id) : undefined;
    return row ? { url: absoluteUrl(origin, jpegUrl(storage, row, PHOTO_WIDTH)), alt: l.name } : null;
  });
}
