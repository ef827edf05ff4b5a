import type { Database, Db } from "~/db/database.server";
import { toDate } from "~/db/database.server";
import { isRefusal, type Libraries } from "./better-auth.server";
import { clearLoginFailures, normalizeEmail } from "./login-limits.server";
import type { PasswordHasher } from "./password-hashing.server";
import { ADMIN_ROLE, checkPassword } from "./password-policy";
import type { Sessions } from "./sessions.server";

/**
 * Administrator accounts, the command line's work (scripts/admin.ts) and the demo administrator's:
 * create one, a new password, the second factor set up again (lost phone), the list. There is no
 * sign-up: these are the only ways an account comes to be or changes.
 */

export interface AdminSummary {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  activeSessions: number;
  /** The second factor is set up. */
  secondFactor: boolean;
}

/** What the command line tells the person typing (in Spanish): the account or the password will not do. */
export class AdminAccountError extends Error {
  override name = "AdminAccountError";
}

/** The administrator with this e-mail (typed in any case, with spaces around), if there is one. */
export async function findAdmin(db: Db, email: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom("auth_user")
    .select("id")
    .where("email", "=", normalizeEmail(email))
    .where("role", "=", ADMIN_ROLE)
    .executeTakeFirst();
}

export interface Accounts {
  createAdmin(input: { email: string; name: string; password: string }): Promise<AdminSummary>;
  resetPassword(email: string, password: string): Promise<void>;
  /** Lost phone: the account sets the second factor up again at its next sign-in; signed out everywhere. */
  resetSecondFactor(email: string): Promise<void>;
  listAdmins(): Promise<AdminSummary[]>;
}

export function createAccounts(parts: {
  database: Database;
  libraries: Libraries;
  hasher: PasswordHasher;
  sessions: Sessions;
}): Accounts {
  const { database, libraries, hasher, sessions } = parts;
  const { db } = database;

  async function requireAdmin(email: string): Promise<{ id: string }> {
    const user = await findAdmin(db, email);
    if (!user) throw new AdminAccountError(`No hay un administrador con el correo ${normalizeEmail(email)}.`);
    return user;
  }

  async function summary(id: string): Promise<AdminSummary> {
    const [admin] = await listAdmins(id);
    if (!admin) throw new AdminAccountError("La cuenta no existe.");
    return admin;
  }

  async function listAdmins(onlyId?: string): Promise<AdminSummary[]> {
    let query = db
      .selectFrom("auth_user as u")
      .leftJoin("auth_session as s", (join) =>
        join
          .onRef("s.user_id", "=", "u.id")
          .on("s.expires_at", ">", new Date().toISOString())
          .on("s.created_at", ">", sessions.oldestLiveStart()),
      )
      .select((eb) => [
        "u.id",
        "u.email",
        "u.name",
        "u.created_at",
        "u.two_factor_enabled",
        eb.fn.count<number>("s.id").as("active"),
      ])
      .where("u.role", "=", ADMIN_ROLE)
      .groupBy(["u.id", "u.email", "u.name", "u.created_at", "u.two_factor_enabled"])
      .orderBy("u.email");
    if (onlyId) query = query.where("u.id", "=", onlyId);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      createdAt: toDate(row.created_at),
      activeSessions: Number(row.active),
      secondFactor: Boolean(row.two_factor_enabled),
    }));
  }

  return {
    async createAdmin({ email, name, password }) {
      const problem = checkPassword(password);
      if (problem) throw new AdminAccountError(problem);
      const normalized = normalizeEmail(email);
      // Any account, administrator or not, holds its e-mail.
      const taken = await db
        .selectFrom("auth_user")
        .select("id")
        .where("email", "=", normalized)
        .executeTakeFirst();
      if (taken) throw new AdminAccountError(`Ya existe una cuenta con el correo ${normalized}.`);
      try {
        const created = await libraries.plain.api.createUser({
          body: { email: normalized, password, name: name.trim() || normalized, role: ADMIN_ROLE },
        });
        return await summary(created.user.id);
      } catch (error) {
        if (isRefusal(error))
          throw new AdminAccountError(`No se pudo crear la cuenta: ${(error as Error).message}`);
        throw error;
      }
    },

    async resetPassword(email, password) {
      const problem = checkPassword(password);
      if (problem) throw new AdminAccountError(problem);
      const user = await requireAdmin(email);
      const context = await libraries.plain.$context;
      await context.internalAdapter.updatePassword(user.id, await hasher.hash(password));
      // Whoever knew the old password is signed out everywhere, and no browser stays a known
      // device (a lost phone is why a password is reset): each is known again after its next sign-in.
      await sessions.signOutEverywhere(user.id);
      await db.deleteFrom("admin_devices").where("user_id", "=", user.id).execute();
      // A second factor not set up yet may have been shown to whoever had the old password.
      await db
        .deleteFrom("auth_two_factor")
        .where("user_id", "=", user.id)
        .where("verified", "=", database.dialect === "postgres" ? false : 0)
        .execute();
      await clearLoginFailures(db, email);
    },

    async resetSecondFactor(email) {
      const user = await requireAdmin(email);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("auth_two_factor").where("user_id", "=", user.id).execute();
        await trx
          .updateTable("auth_user")
          .set({ two_factor_enabled: database.dialect === "postgres" ? false : 0 })
          .where("id", "=", user.id)
          .execute();
        // Its trusted devices and a sign-in waiting for a code end with it, and so do its sessions.
        await trx
          .deleteFrom("auth_verification")
          .where("value", "=", user.id)
          .where((eb) =>
            eb.or([eb("identifier", "like", "trust-device-%"), eb("identifier", "like", "2fa-%")]),
          )
          .execute();
        await trx.deleteFrom("auth_session").where("user_id", "=", user.id).execute();
        // No browser stays a known device, and the new app's codes start afresh.
        await trx.deleteFrom("admin_devices").where("user_id", "=", user.id).execute();
        await trx.deleteFrom("admin_code_steps").where("user_id", "=", user.id).execute();
      });
    },

    listAdmins: () => listAdmins(),
  };
}
