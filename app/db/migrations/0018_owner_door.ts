import type { Kysely } from "kysely";
import { timestampType } from "./column-types";

/**
 * The owner's door (decision 32): the browsers an administrator has signed in from (each by its
 * signed `navegador` cookie), which a flood of failures from elsewhere never shuts out; the
 * trusted-device cookie bound to one of them; the last code step each administrator used, so a
 * code works once across app servers; and failed sign-ins counted per device too.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable("admin_devices")
    .addColumn("user_id", "text", (c) => c.notNull().references("auth_user.id").onDelete("cascade"))
    // The browser's id from its signed cookie (app/rate-limits/browser-cookie.server.ts).
    .addColumn("browser_id", "text", (c) => c.notNull())
    // The record of the trusted-device cookie given to this browser, if any: it skips the code here only.
    .addColumn("trust_identifier", "text")
    .addColumn("first_signed_in_at", ts, (c) => c.notNull())
    .addColumn("last_signed_in_at", ts, (c) => c.notNull())
    .addPrimaryKeyConstraint("admin_devices_pk", ["user_id", "browser_id"])
    .execute();
  await db.schema.createIndex("admin_devices_by_browser").on("admin_devices").column("browser_id").execute();
  await db.schema
    .createIndex("admin_devices_by_trust")
    .on("admin_devices")
    .column("trust_identifier")
    .execute();

  await db.schema
    .createTable("admin_code_steps")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("auth_user.id").onDelete("cascade"))
    // The 30-second step (Unix time / 30, an integer until 2106) of the last app code accepted:
    // it and every earlier one are spent.
    .addColumn("last_step", "integer", (c) => c.notNull())
    .execute();

  // Failures from before today had no device: '' (none), and counted as from unknown devices.
  await db.schema
    .alterTable("login_failures")
    .addColumn("device", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("login_failures")
    .addColumn("known", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("login_failures_device_idx")
    .on("login_failures")
    .columns(["device", "failed_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("login_failures_device_idx").execute();
  await db.schema.alterTable("login_failures").dropColumn("known").execute();
  await db.schema.alterTable("login_failures").dropColumn("device").execute();
  await db.schema.dropTable("admin_code_steps").execute();
  await db.schema.dropIndex("admin_devices_by_trust").execute();
  await db.schema.dropIndex("admin_devices_by_browser").execute();
  await db.schema.dropTable("admin_devices").execute();
}
