import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  // The mail log in Campañas (decision 25): the subject a message was sent with, recorded when its
  // template renders it (null until then), and an index for the newest-first listing.
  await db.schema.alterTable("emails").addColumn("subject", "text").execute();
  await db.schema.createIndex("emails_created_idx").on("emails").column("created_at").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("emails_created_idx").execute();
  await db.schema.alterTable("emails").dropColumn("subject").execute();
}
