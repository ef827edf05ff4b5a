import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // Configuración (decision 24): one row. `overrides` holds only what the owner changed (JSON);
  // everything else comes from the environment. `version` grows with every save: each app server
  // reads this one number every ~2 s and reloads the row when it moved.
  await db.schema
    .createTable("shop_settings")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("overrides", "text", (c) => c.notNull())
    .addColumn("updated_at", ts)
    .execute();
  await db.insertInto("shop_settings").values({ id: 1, version: 0, overrides: "{}" }).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("shop_settings").execute();
}
