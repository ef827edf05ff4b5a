import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

/*
 * Numbered pieces (issue 24): a drop's product may be a limited edition of N (`edition_size`), and
 * each paid unit gets its number at payment ('Pieza 7 de 30'). A number is a row of its own, so
 * the primary key (product, number) keeps numbers unique under any race, on both databases.
 * Existing products are no edition (null): they sell exactly as before.
 *
 * No foreign key to products: a paid order outlives its drop (decision 29), and so does the number
 * its piece carries. The order's own lines name the product and the position.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .alterTable("products")
    .addColumn("edition_size", "integer", (c) => c.check(sql`edition_size between 1 and 100000`))
    .execute();
  await db.schema
    .createTable("edition_numbers")
    .addColumn("product_id", "text", (c) => c.notNull())
    .addColumn("number", "integer", (c) => c.notNull().check(sql`number >= 1`))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    // The order line the unit belongs to (its position in the order).
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("assigned_at", ts, (c) => c.notNull())
    .addPrimaryKeyConstraint("edition_numbers_pk", ["product_id", "number"])
    .execute();
  await db.schema
    .createIndex("edition_numbers_by_order")
    .on("edition_numbers")
    .columns(["order_id", "position"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("edition_numbers_by_order").execute();
  await db.schema.dropTable("edition_numbers").execute();
  await db.schema.alterTable("products").dropColumn("edition_size").execute();
}
