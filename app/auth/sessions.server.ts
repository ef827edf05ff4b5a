import type { Db } from "~/db/database.server";
import { toDate } from "~/db/database.server";
import type { AuthSettings } from "./auth-config.server";
import {
  isRefusal,
  type Libraries,
  type Library,
  type LibraryUser,
  sessionCookieName,
} from "./better-auth.server";
import { deleteOldLoginFailures } from "./login-limits.server";
import { ADMIN_ROLE } from "./password-policy";

/**
 * Administrators' sessions: random tokens the library keeps in the database behind a signed
 * HttpOnly cookie, ending when unused for `idleMinutes` (sliding) and `absoluteHours` after
 * sign-in however active; signing out, everywhere, and the sweep of ended ones.
 */

export interface AdminSession {
  userId: string;
  email: string;
  name: string;
  sessionId: string;
  /** When this session signed in. */
  createdAt: Date;
  expiresAt: Date;
  /**
   * Signed in with the password only, before the second factor was ever set up: this session
   * reaches the set-up page and nothing else.
   */
  settingUp: boolean;
}

export interface Sessions {
  /** The administrator's session these request headers carry, refreshing its idle expiry. */
  readSession(
    headers: Headers,
    isSecure: boolean,
  ): Promise<{ session: AdminSession | null; setCookies: string[] }>;
  /** Ends a session (if any) and returns the cookie that clears it from the browser. */
  signOut(sessionId: string | null, isSecure: boolean): Promise<string[]>;
  /** Ends every session of one account (lost phone, password reset). */
  signOutEverywhere(userId: string): Promise<number>;
  /** Deletes sessions past either lifetime whose cookie never came back, and old failed logins. */
  deleteEndedSessions(): Promise<number>;
  /** The session a sign-in just created, by its token. */
  byToken(token: string, user: LibraryUser, settingUp: boolean): Promise<AdminSession>;
  /** Sessions that signed in before this are past their absolute lifetime. */
  oldestLiveStart(): string;
}

export function createSessions(db: Db, settings: AuthSettings, libraries: Libraries): Sessions {
  function hasSessionCookie(headers: Headers, isSecure: boolean): boolean {
    const cookie = headers.get("cookie");
    return cookie?.includes(`${sessionCookieName(isSecure)}=`) ?? false;
  }

  /** Deleted here, not through the library (which only logs a failed delete), so a database failure is an error. */
  async function signOut(sessionId: string | null, isSecure: boolean): Promise<string[]> {
    if (sessionId) await db.deleteFrom("auth_session").where("id", "=", sessionId).execute();
    // The same name and attributes the library gives the cookie, expired.
    const name = sessionCookieName(isSecure);
    return [`${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${isSecure ? "; Secure" : ""}`];
  }

  const oldestLiveStart = () => new Date(Date.now() - settings.absoluteHours * 3_600_000).toISOString();

  return {
    async readSession(headers, isSecure) {
      // Shoppers carry no session cookie: their pages never touch the sessions table.
      if (!hasSessionCookie(headers, isSecure)) return { session: null, setCookies: [] };
      const lib = libraries.forRequest(isSecure);
      let found: Awaited<ReturnType<Library["api"]["getSession"]>>;
      let setCookies: string[];
      try {
        const result = await lib.api.getSession({ headers, returnHeaders: true });
        found = result.response;
        setCookies = result.headers.getSetCookie();
      } catch (error) {
        if (isRefusal(error)) return { session: null, setCookies: [] };
        throw error;
      }
      if (!found) return { session: null, setCookies };
      const user = found.user as LibraryUser;
      // Only administrators sign in; any other account's session counts as none.
      if (user.role !== ADMIN_ROLE) return { session: null, setCookies: [] };
      const createdAt = new Date(found.session.createdAt);
      const endsAt = createdAt.getTime() + settings.absoluteHours * 3_600_000;
      if (Date.now() >= endsAt) {
        // Past its absolute lifetime: end it, however recently it was used.
        return { session: null, setCookies: await signOut(found.session.id, isSecure) };
      }
      let expiresAt = new Date(found.session.expiresAt);
      if (expiresAt.getTime() > endsAt) {
        // The idle refresh never reaches past the absolute end (so the row tells the truth).
        expiresAt = new Date(endsAt);
        await db
          .updateTable("auth_session")
          .set({ expires_at: expiresAt.toISOString() })
          .where("id", "=", found.session.id)
          .execute();
      }
      return {
        session: {
          userId: found.user.id,
          email: found.user.email,
          name: found.user.name,
          sessionId: found.session.id,
          createdAt,
          expiresAt,
          // With the second factor set up, the library makes a session only after the code.
          settingUp: !user.twoFactorEnabled,
        },
        setCookies,
      };
    },

    signOut,

    async signOutEverywhere(userId) {
      const result = await db.deleteFrom("auth_session").where("user_id", "=", userId).executeTakeFirst();
      // A lost phone or a stolen password is why: no device stays trusted to skip the code (each
      // asks it once more), no sign-in half done (password given, code pending) can be finished,
      // and no browser stays a known device spared the limits on sign-in attempts.
      await db
        .deleteFrom("auth_verification")
        .where("value", "=", userId)
        .where((eb) => eb.or([eb("identifier", "like", "trust-device-%"), eb("identifier", "like", "2fa-%")]))
        .execute();
      await db.deleteFrom("admin_devices").where("user_id", "=", userId).execute();
      return Number(result.numDeletedRows);
    },

    async deleteEndedSessions() {
      await deleteOldLoginFailures(db);
      const result = await db
        .deleteFrom("auth_session")
        .where((eb) =>
          eb.or([
            eb("expires_at", "<=", new Date().toISOString()),
            eb("created_at", "<=", oldestLiveStart()),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async byToken(token, user, settingUp) {
      const row = await db
        .selectFrom("auth_session")
        .select(["id", "created_at", "expires_at"])
        .where("token", "=", token)
        .executeTakeFirstOrThrow();
      return {
        userId: user.id,
        email: user.email,
        name: user.name,
        sessionId: row.id,
        createdAt: toDate(row.created_at),
        expiresAt: toDate(row.expires_at),
        settingUp,
      };
    },

    oldestLiveStart,
  };
}
