import type { Kysely } from "kysely";
import type { Database } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";

/*
 * Rows written as a shop from before a migration had them, for tests that migrate such a shop:
 * only the columns every migration since the orders desk (0007) has had, so today's code (which
 * writes columns those shops did not have yet) plays no part in making them.
 */

const HOUR = 3_600_000;

// biome-ignore lint/suspicious/noExplicitAny: the tables as an older migration left them, not today's types
const untyped = (database: Database) => database.db as unknown as Kysely<any>;

/** A drop of that shape, running from an hour ago for a day unless told otherwise: its id. */
export async function oldDrop(
  database: Database,
  options: { name?: string; status?: "activa" | "proximamente"; startAt?: Date; endAt?: Date } = {},
): Promise<string> {
  const now = Date.now();
  const id = newId();
  await untyped(database)
    .insertInto("drops")
    .values({
      id,
      name: options.name ?? "Mareas",
      small_description: "",
      full_description: "",
      description: "",
      fechas: "",
      image_id: null,
      video_id: null,
      max_per_order: null,
      start_at: toTimestamp(options.startAt ?? new Date(now - HOUR)),
      end_at: toTimestamp(options.endAt ?? new Date(now + 24 * HOUR)),
      status: options.status ?? "activa",
      created_at: toTimestamp(new Date(now - 2 * HOUR)),
      updated_at: toTimestamp(new Date(now - 2 * HOUR)),
    })
    .execute();
  return id;
}

/** Pieces of that shape in `dropId`, in order: their ids. */
export async function oldProducts(
  database: Database,
  dropId: string,
  pieces: { name: string; categoria: string; stock: number }[],
): Promise<string[]> {
  const stamp = toTimestamp(new Date(Date.now() - 2 * HOUR));
  const ids = pieces.map(() => newId());
  await untyped(database)
    .insertInto("products")
    .values(
      pieces.map((p, position) => ({
        id: ids[position],
        drop_id: dropId,
        position,
        name: p.name,
        description: "Oro de 14k.",
        categoria: p.categoria,
        material: "Oro amarillo",
        price_cents: 450_000,
        stock: p.stock,
        image_id: null,
        created_at: stamp,
        updated_at: stamp,
      })),
    )
    .execute();
  return ids;
}
