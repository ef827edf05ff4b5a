import type { Kysely } from "kysely";
import { isPostgres, timestampType } from "./column-types";

/**
 * Administrator accounts and their sessions. The auth_* tables follow the sign-in library's model
 * (see docs/decisions/0007-admin-sign-in.md); login_failures is ours: failed sign-ins counted per
 * account and per address, in the database so that every app server sees the same count.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const bool = isPostgres(db) ? "boolean" : "integer";

  await db.schema
    .createTable("auth_user")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("email_verified", bool, (c) => c.notNull())
    .addColumn("image", "text")
    .addColumn("role", "text")
    .addColumn("banned", bool)
    .addColumn("ban_reason", "text")
    .addColumn("ban_expires", ts)
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("auth_session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull().references("auth_user.id").onDelete("cascade"))
    .addColumn("expires_at", ts, (c) => c.notNull())
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .addColumn("impersonated_by", "text")
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auth_session_user_id_idx").on("auth_session").column("user_id").execute();

  await db.schema
    .createTable("auth_account")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("auth_user.id").onDelete("cascade"))
    .addColumn("access_token", "text")
    .addColumn("refresh_token", "text")
    .addColumn("id_token", "text")
    .addColumn("access_token_expires_at", ts)
    .addColumn("refresh_token_expires_at", ts)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auth_account_user_id_idx").on("auth_account").column("user_id").execute();

  await db.schema
    .createTable("auth_verification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expires_at", ts, (c) => c.notNull())
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("auth_verification_identifier_idx")
    .on("auth_verification")
    .column("identifier")
    .execute();

  await db.schema
    .createTable("login_failures")
    .addColumn("id", "text", (c) => c.primaryKey())
    // The e-mail as typed (trimmed, lower case), whether or not such an account exists.
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("failed_at", ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("login_failures_email_idx")
    .on("login_failures")
    .columns(["email", "failed_at"])
    .execute();
  await db.schema
    .createIndex("login_failures_address_idx")
    .on("login_failures")
    .columns(["address", "failed_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["login_failures", "auth_verification", "auth_account", "auth_session", "auth_user"])
    await db.schema.dropTable(table).execute();
}
