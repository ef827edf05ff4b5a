import { ADMIN_ROLE } from "~/auth/password-policy";
import type { Db } from "~/db/database.server";
import { type ChecklistItem, type ShopState, setUpChecklist } from "./checklist";

/**
 * The administrators whose second factor is not set up (read-only: the sign-in library keeps the
 * flag). One small query on the accounts table, which holds a handful of rows.
 */
export async function adminsWithoutSecondFactor(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("auth_user")
    .select(["email", "two_factor_enabled"])
    .where("role", "=", ADMIN_ROLE)
    .orderBy("email")
    .execute();
  // SQLite keeps the flag as 0/1, PostgreSQL as a boolean.
  return rows.filter((row) => !row.two_factor_enabled).map((row) => row.email);
}

/**
 * The set-up checklist for this app server: Configuración in force (in memory, kept current by
 * its poll), how mail and payments are configured, and the one query above.
 */
export async function readSetUpChecklist(
  db: Db,
  state: Omit<ShopState, "adminsWithoutSecondFactor">,
): Promise<ChecklistItem[]> {
  return setUpChecklist({ ...state, adminsWithoutSecondFactor: await adminsWithoutSecondFactor(db) });
}
