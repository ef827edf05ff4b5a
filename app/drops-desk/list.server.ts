import { sql } from "kysely";
import { type DropTimeState, dropTimeState } from "~/catalogue/drop-time";
import { type Db, toDate } from "~/db/database.server";
import type { DropStatus } from "~/db/taxonomy";

export interface AdminDropRow {
  id: string;
  name: string;
  status: DropStatus;
  timeState: DropTimeState;
  startAt: Date;
  endAt: Date;
  products: number;
  pieces: number;
}

/** The drops of one status (Activas, Próximas, Archivadas), by start date, newest first. */
export async function listAdminDrops(db: Db, status: DropStatus, now = new Date()): Promise<AdminDropRow[]> {
  const rows = await db
    .selectFrom("drops")
    .leftJoin("products", "products.drop_id", "drops.id")
    .select(["drops.id", "drops.name", "drops.status", "drops.start_at", "drops.end_at"])
    .select((eb) => [
      eb.fn.count<number>("products.id").as("products"),
      eb.fn.coalesce(eb.fn.sum<number>("products.stock"), sql<number>`0`).as("pieces"),
    ])
    .where("drops.status", "=", status)
    .groupBy(["drops.id", "drops.name", "drops.status", "drops.start_at", "drops.end_at"])
    .orderBy("drops.start_at", "desc")
    .execute();
  return rows.map((r) => {
    const startAt = toDate(r.start_at);
    const endAt = toDate(r.end_at);
    return {
      id: r.id,
      name: r.name,
      status: r.status,
      timeState: dropTimeState({ startAt, endAt }, now),
      startAt,
      endAt,
      products: Number(r.products),
      pieces: Number(r.pieces),
    };
  });
}
