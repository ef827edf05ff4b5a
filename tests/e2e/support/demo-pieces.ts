import type { Database } from "~/db/database.server";
import { DEMO_DROPS } from "../../../app/demo/catalogue";

// The demo catalogue's running drop has a cover image, and its first piece five photos: only
// looked at by the browser tests, never changed.
export const demoRunningDrop = DEMO_DROPS.find((d) => d.role === "running");
export const photographedPiece = demoRunningDrop?.products.find((p) => p.extraViews === 4);

/** The address of the demo piece with five photos, as the shop running the tests has it. */
export async function photographedPiecePath(database: Database): Promise<string> {
  if (!photographedPiece) throw new Error("the demo catalogue lacks a piece with five photos");
  const row = await database.db
    .selectFrom("products")
    .select(["id", "drop_id"])
    .where("name", "=", photographedPiece.name)
    .executeTakeFirstOrThrow();
  return `/drop/${row.drop_id}/product/${row.id}`;
}
