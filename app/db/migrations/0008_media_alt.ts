import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // What a photo shows, for people who cannot see it (the owner edits it; empty: the page says the
  // product's or drop's name).
  await db.schema
    .alterTable("media")
    .addColumn("alt", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").dropColumn("alt").execute();
}
