import type { Kysely } from "kysely";
import { hasColumn } from "./column-types";

/*
 * Which numbered pieces of a return line came back (decision 33): when a line holds more numbers
 * than pieces that arrived ('Piezas 7 y 8 de 30', one returned), the owner says which certificate
 * came with it, and only that number goes to the next buyer. A JSON list of numbers; null: not
 * asked (every number of the line came back, or none is numbered).
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Already there: a run stopped before Kysely recorded it (SQLite: no transaction around it).
  if (!(await hasColumn(db, "return_lines", "numbers")))
    await db.schema.alterTable("return_lines").addColumn("numbers", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("return_lines").dropColumn("numbers").execute();
}
