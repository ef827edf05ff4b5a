import { type Kysely, sql } from "kysely";

/*
 * Sizes (issue 24, decision 34): a product may have one option ('Talla' for rings, 'Largo' for
 * necklaces and bracelets) whose values each have their own stock. The product's own `stock` stays,
 * as the sum of its values' (every stock move changes both in one transaction), so everything
 * that counts pieces per product keeps counting right; the hold takes from the value. A product
 * without an option (all of today's) sells exactly as before. An order line names the value it
 * holds, by id and as the buyer chose it ('7', '45 cm'), kept if the value is later removed.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("products")
    .addColumn("option_name", "text", (c) => c.check(sql`option_name in ('Talla', 'Largo')`))
    .execute();
  await db.schema
    .createTable("product_options")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("value", "text", (c) => c.notNull().check(sql`length(value) between 1 and 20`))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("stock", "integer", (c) => c.notNull().check(sql`stock >= 0`))
    .addUniqueConstraint("product_options_value", ["product_id", "value"])
    .execute();
  await db.schema
    .createIndex("product_options_by_product")
    .on("product_options")
    .columns(["product_id", "position"])
    .execute();
  await db.schema.alterTable("order_lines").addColumn("option_id", "text").execute();
  await db.schema.alterTable("order_lines").addColumn("option_value", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("order_lines").dropColumn("option_value").execute();
  await db.schema.alterTable("order_lines").dropColumn("option_id").execute();
  await db.schema.dropIndex("product_options_by_product").execute();
  await db.schema.dropTable("product_options").execute();
  await db.schema.alterTable("products").dropColumn("option_name").execute();
}
