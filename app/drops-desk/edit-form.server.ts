import { getDrop } from "~/catalogue/catalogue.server";
import { heldPieces } from "~/catalogue/held-pieces.server";
import { gramsNumber } from "~/catalogue/metal";
import { heldPerValue } from "~/catalogue/options.server";
import { type Db, toDate } from "~/db/database.server";
import { shopDateTimeStamp } from "~/lib/dates";
import { variantUrl } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { waitingForRestock } from "~/waitlist/restock-waiting.server";
import { pesosText } from "./drop-input";
import type { DropFormValues } from "./form-values";

/** A drop as the edit form opens it: typed values, sizes, uploaded media with their addresses, held pieces. */
export async function dropForEdit(
  db: Db,
  storage: MediaStorage,
  dropId: string,
): Promise<DropFormValues | null> {
  const drop = await getDrop(db, dropId, { extraImages: true });
  if (!drop) return null;
  const held = await heldPieces(
    db,
    drop.products.map((p) => p.id),
  );
  const heldOfValue = await heldPerValue(
    db,
    drop.products.flatMap((p) => p.option?.values.map((v) => v.id) ?? []),
  );
  const waiting = await waitingForRestock(
    db,
    drop.products.map((p) => p.id),
  );
  const image = (row: Parameters<typeof variantUrl>[1] | null) =>
    row ? { id: row.id, url: variantUrl(storage, row, 480), alt: row.alt } : null;
  // To the second (spec: timestamps with seconds), so a save never moves them.
  const [startDate = "", startTime = ""] = shopDateTimeStamp(drop.startAt, { seconds: true }).split(" ");
  const [endDate = "", endTime = ""] = shopDateTimeStamp(drop.endAt, { seconds: true }).split(" ");
  const { updated_at } = await db
    .selectFrom("drops")
    .select("updated_at")
    .where("id", "=", dropId)
    .executeTakeFirstOrThrow();
  return {
    id: drop.id,
    version: toDate(updated_at).toISOString(),
    name: drop.name,
    startDate,
    startTime,
    endDate,
    endTime,
    maxPerOrder: drop.maxPerOrder === null ? "" : String(drop.maxPerOrder),
    holdMinutes: String(drop.holdMinutes),
    lotterySeconds: String(drop.opening.lotterySeconds),
    openingMinutes: String(drop.opening.openingMinutes),
    openingHoldMinutes: String(drop.opening.openingHoldMinutes),
    openingHoldsPerAddress: String(drop.opening.openingHoldsPerAddress),
    cardOnlyHours: String(drop.opening.cardOnlyHours),
    smallDescription: drop.smallDescription,
    fullDescription: drop.fullDescription,
    status: drop.status,
    image: image(drop.image),
    video: drop.video ? { id: drop.video.id, url: storage.publicUrl(drop.video.key), alt: "" } : null,
    products: drop.products.map((p) => ({
      id: p.id,
      name: p.name,
      price: pesosText(p.priceCents),
      stock: String(p.stock),
      stockLoaded: String(p.stock),
      held: held.get(p.id) ?? 0,
      waiting: waiting.byProduct.get(p.id) ?? 0,
      categoria: p.categoria,
      material: p.material,
      karat: p.metal.karat === null ? "" : String(p.metal.karat),
      weight: p.metal.weightMg === null ? "" : gramsNumber(p.metal.weightMg),
      stones: p.metal.stones ?? "",
      edition: p.editionSize === null ? "" : String(p.editionSize),
      optionName: p.option?.name ?? "",
      // Each value's stock is saved, like the product's, as a difference from what was loaded.
      options: (p.option?.values ?? []).map((v) => ({
        id: v.id,
        value: v.value,
        stock: String(v.stock),
        stockLoaded: String(v.stock),
        held: heldOfValue.get(v.id) ?? 0,
        waiting: waiting.byValue.get(v.id) ?? 0,
      })),
      description: p.description,
      image: image(p.image),
      extras: p.extraImages.map((m) => ({ id: m.id, url: variantUrl(storage, m, 480), alt: m.alt })),
    })),
  };
}
