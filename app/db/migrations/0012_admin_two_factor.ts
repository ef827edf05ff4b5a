import type { Kysely } from "kysely";
import { isPostgres, timestampType } from "./column-types";

/**
 * The administrator's second factor (docs/decisions/0023-second-factor.md), in the sign-in
 * library's model: whether the account has finished setting it up, and per account the
 * authenticator secret and the recovery codes (both encrypted with the session secret), with the
 * library's own count of consecutive wrong codes.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const postgres = isPostgres(db);
  const bool = postgres ? "boolean" : "integer";
  const no = postgres ? false : 0;

  // Every administrator starts without one: the next sign-in goes to set it up.
  await db.schema
    .alterTable("auth_user")
    .addColumn("two_factor_enabled", bool, (c) => c.notNull().defaultTo(no))
    .execute();

  await db.schema
    .createTable("auth_two_factor")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().unique().references("auth_user.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("backup_codes", "text", (c) => c.notNull())
    // False until the first code from the app is typed on the set-up page.
    .addColumn("verified", bool, (c) => c.notNull().defaultTo(no))
    .addColumn("failed_verification_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_until", ts)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("auth_two_factor").execute();
  await db.schema.alterTable("auth_user").dropColumn("two_factor_enabled").execute();
}
