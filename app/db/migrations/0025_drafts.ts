import type { Kysely } from "kysely";
import { timestampType } from "./column-types";

/*
 * Drafts and publishing (issue 25, decision 38). `visible_from` is the moment a drop becomes
 * public: null while it is a draft, a future moment while it is scheduled ('Visible desde').
 * Every drop that existed before this migration was public, so it stays public: its
 * `visible_from` is its creation moment. A writer that does not name the column (the demo seed,
 * scripts, tests) makes a drop public all along (2000-01-01); the admin's form writes null.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("drops")
    .addColumn("visible_from", timestampType(db), (c) => c.defaultTo("2000-01-01T00:00:00.000Z"))
    .execute();
  await db
    .updateTable("drops")
    .set((eb) => ({ visible_from: eb.ref("created_at") }))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("drops").dropColumn("visible_from").execute();
}
