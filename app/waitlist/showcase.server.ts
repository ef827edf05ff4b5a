import { productHref } from "~/catalogue/views.server";
import type { Db } from "~/db/database.server";
import { formatMXN } from "~/lib/money";
import { absoluteUrl } from "~/lib/urls";
import { jpegUrl, loadMedia } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import type { DropShowcase } from "./emails";

/*
 * What a drop's opening e-mail shows of it (issue 25): its cover and its first pieces, each with
 * its photo, name and price, linked to its page. Read when the message is rendered, so a photo
 * or a price changed meanwhile is what the reader sees. Image addresses are absolute: a mail
 * client has no page to resolve them against.
 */

/** Pieces shown; the rest are one click away ('Ver la colección'). */
const PIECES_SHOWN = 6;
/** Image widths: mail clients show them at 520 px at most, pieces two to a row. */
const COVER_WIDTH = 960;
const PIECE_WIDTH = 480;

export async function dropShowcase(
  db: Db,
  storage: MediaStorage,
  dropId: string,
  origin: string,
): Promise<DropShowcase> {
  const drop = await db.selectFrom("drops").select("image_id").where("id", "=", dropId).executeTakeFirst();
  const products = await db
    .selectFrom("products")
    .select(["id", "name", "price_cents", "image_id"])
    .where("drop_id", "=", dropId)
    .orderBy("position")
    .orderBy("id")
    .limit(PIECES_SHOWN)
    .execute();
  const media = await loadMedia(db, [drop?.image_id ?? null, ...products.map((p) => p.image_id)]);
  const image = (id: string | null | undefined, width: number) => {
    const row = id ? media.get(id) : undefined;
    return row ? { url: absoluteUrl(origin, jpegUrl(storage, row, width)), alt: row.alt } : null;
  };
  return {
    cover: image(drop?.image_id, COVER_WIDTH),
    pieces: products.map((p) => ({
      name: p.name,
      price: formatMXN(p.price_cents),
      url: absoluteUrl(origin, productHref(dropId, p.id)),
      image: image(p.image_id, PIECE_WIDTH),
    })),
  };
}
