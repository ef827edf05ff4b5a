import { sql } from "kysely";
import { type DropTimeState, dropTimeState } from "~/catalogue/drop-time";
import { adminTab, type Publication, publicationOf } from "~/catalogue/publishing";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import type { DropStatus } from "~/db/taxonomy";

export interface AdminDropRow {
  id: string;
  name: string;
  status: DropStatus;
  timeState: DropTimeState;
  /** 'Borrador', 'Programada' or 'Publicada' (decision 38). */
  publication: Publication;
  visibleFrom: Date | null;
  startAt: Date;
  endAt: Date;
  products: number;
  pieces: number;
}

/**
 * The stored status follows the dates (decision 38): a published drop whose start has come, still
 * `proximamente`, is written `activa`. Run whenever the admin reads its drops, so the status
 * field, the tabs and the shop agree without a job; `updated_at` is left alone (it is the edit
 * form's version, and nothing the owner typed changed). Returns how many drops it moved.
 */
export async function settleStartedDrops(db: Db, now = new Date()): Promise<number> {
  const stamp = toTimestamp(now);
  const result = await db
    .updateTable("drops")
    .set({ status: "activa" })
    .where("status", "=", "proximamente")
    .where("visible_from", "<=", stamp)
    .where("start_at", "<=", stamp)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The drops of one tab (Activas, Próximas, Archivadas) by the one rule of `adminTab`, by start
 * date, newest first.
 */
export async function listAdminDrops(db: Db, tab: DropStatus, now = new Date()): Promise<AdminDropRow[]> {
  await settleStartedDrops(db, now);
  const rows = await db
    .selectFrom("drops")
    .leftJoin("products", "products.drop_id", "drops.id")
    .select([
      "drops.id",
      "drops.name",
      "drops.status",
      "drops.start_at",
      "drops.end_at",
      "drops.visible_from",
    ])
    .select((eb) => [
      eb.fn.count<number>("products.id").as("products"),
      eb.fn.coalesce(eb.fn.sum<number>("products.stock"), sql<number>`0`).as("pieces"),
    ])
    // Archived drops only under Archivadas, the others never there: the status narrows the read.
    .$if(tab === "archivada", (qb) => qb.where("drops.status", "=", "archivada"))
    .$if(tab !== "archivada", (qb) => qb.where("drops.status", "!=", "archivada"))
    .groupBy([
      "drops.id",
      "drops.name",
      "drops.status",
      "drops.start_at",
      "drops.end_at",
      "drops.visible_from",
    ])
    .orderBy("drops.start_at", "desc")
    .orderBy("drops.id")
    .execute();
  return rows
    .map((r) => {
      const startAt = toDate(r.start_at);
      const endAt = toDate(r.end_at);
      const visibleFrom = r.visible_from === null ? null : toDate(r.visible_from);
      return {
        id: r.id,
        name: r.name,
        status: r.status,
        timeState: dropTimeState({ startAt, endAt }, now),
        publication: publicationOf(visibleFrom, now),
        visibleFrom,
        startAt,
        endAt,
        products: Number(r.products),
        pieces: Number(r.pieces),
      };
    })
    .filter((d) => adminTab(d, now) === tab);
}
