import { type Kysely, sql } from "kysely";
import { hasColumn } from "./column-types";

/*
 * How many of a return line's pieces arrived (decision 48): the owner records it on receiving
 * them, and only those are refunded (and go back to stock when she says so). Null until then.
 * Returns received before this migration were refunded for every piece they asked: recorded as
 * all arrived, so their figures do not change.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Already there: a run stopped before Kysely recorded it (SQLite: no transaction around it).
  if (!(await hasColumn(db, "return_lines", "received")))
    await db.schema.alterTable("return_lines").addColumn("received", "integer").execute();
  await db
    .updateTable("return_lines")
    .set({ received: sql`quantity` })
    .where("restock", "is not", null)
    .where("received", "is", null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("return_lines").dropColumn("received").execute();
}
