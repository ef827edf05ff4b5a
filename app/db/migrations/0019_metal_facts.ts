import { type Kysely, sql } from "kysely";

/*
 * The metal's facts as fields (issue 24): the gold's karat, the piece's weight and its stones.
 * Every column is nullable and existing products keep null (nothing is said of them yet), so they
 * sell exactly as before on both databases.
 *
 * The weight is whole milligrams in an `integer`, not grams in a float or a `numeric`: a float
 * would not keep 2.35 exactly, and `numeric` comes back from PostgreSQL as text but from SQLite as a
 * float. An integer is exact and the same on both, sorts and compares as a number, and a CHECK can
 * bound it; the form takes grams with up to two decimals, so 2.35 g is 2350 and back.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("products")
    .addColumn("karat", "integer", (c) => c.check(sql`karat in (10, 14, 18)`))
    .execute();
  await db.schema
    .alterTable("products")
    // More than 0 and at most 1 kg.
    .addColumn("weight_mg", "integer", (c) => c.check(sql`weight_mg > 0 and weight_mg <= 1000000`))
    .execute();
  await db.schema
    .alterTable("products")
    // 'Zirconia blanca'; null for none. length() counts characters on both databases.
    .addColumn("stones", "text", (c) => c.check(sql`length(stones) between 1 and 80`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["stones", "weight_mg", "karat"]) {
    await db.schema.alterTable("products").dropColumn(column).execute();
  }
}
