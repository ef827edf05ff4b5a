import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await db.schema
    .createTable("shop_meta")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("media")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("drop_id", "text")
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('image', 'video')`))
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("width", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("height", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("widths", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("mime", "text", (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("media_drop_id_idx").on("media").column("drop_id").execute();

  await db.schema
    .createTable("drops")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) > 0`))
    .addColumn("small_description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("full_description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("fechas", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("start_at", ts, (c) => c.notNull())
    .addColumn("end_at", ts, (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("proximamente").check(sql`status in ('proximamente', 'activa', 'archivada')`),
    )
    .addColumn("image_id", "text", (c) => c.references("media.id").onDelete("set null"))
    .addColumn("video_id", "text", (c) => c.references("media.id").onDelete("set null"))
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .addCheckConstraint("drops_dates_ordered", sql`end_at >= start_at`)
    .execute();
  await db.schema.createIndex("drops_created_at_idx").on("drops").column("created_at").execute();

  await db.schema
    .createTable("products")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("drop_id", "text", (c) => c.notNull().references("drops.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) > 0`))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("categoria", "text", (c) =>
      c.notNull().check(sql`categoria in ('Pulsera', 'Collar', 'Arete', 'Anillo')`),
    )
    .addColumn("material", "text", (c) =>
      c.notNull().check(sql`material in ('Oro amarillo', 'Oro rosa', 'Oro blanco')`),
    )
    // Money is integer centavos; stock can never go below zero, whatever the code does.
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn("stock", "integer", (c) => c.notNull().check(sql`stock >= 0`))
    .addColumn("image_id", "text", (c) => c.references("media.id").onDelete("set null"))
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("products_drop_idx").on("products").columns(["drop_id", "position"]).execute();

  await db.schema
    .createTable("product_images")
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull().check(sql`position between 1 and 4`))
    .addColumn("media_id", "text", (c) => c.notNull().references("media.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("product_images_pk", ["product_id", "position"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["product_images", "products", "drops", "media", "shop_meta"]) {
    await db.schema.dropTable(table).execute();
  }
}
