import type { Kysely } from "kysely";

/*
 * The widths a photo is also stored in as JPEG, for e-mails and link previews (classic Outlook and
 * WhatsApp show no WebP; decision 4). Photos stored before this migration start with none: a
 * background job makes their copies from their stored WebP and fills this in
 * (app/media/jpeg-copies.server.ts); until then their e-mails and previews show the WebP, as before.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("media")
    .addColumn("jpeg_widths", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").dropColumn("jpeg_widths").execute();
}
