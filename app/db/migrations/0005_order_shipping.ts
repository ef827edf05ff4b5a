import type { Kysely } from "kysely";

const COLUMNS = [
  "ship_name",
  "ship_phone",
  "ship_line1",
  "ship_line2",
  "ship_city",
  "ship_state",
  "ship_postal_code",
  "ship_country",
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Where a paid order goes: collected by the payment page, needed to ship it.
  for (const column of COLUMNS) await db.schema.alterTable("orders").addColumn(column, "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable("orders").dropColumn(column).execute();
}
