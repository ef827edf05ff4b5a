import { betterAuth } from "better-auth";
import { isAPIError as isLibraryError } from "better-auth/api";
import { admin as adminPlugin } from "better-auth/plugins";
import type { Database } from "~/db/database.server";
import { toDate } from "~/db/database.server";
import {
  beginLoginAttempt,
  clearLoginFailures,
  deleteOldLoginFailures,
  normalizeEmail,
} from "./login-limits.server";
import {
  createPasswordHasher,
  HASHING_BUSY_RETRY_SECONDS,
  HashingBusy,
  type PasswordHasher,
} from "./password-hashing.server";
import { ADMIN_ROLE, checkPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-policy";

/**
 * Administrator sign-in. better-auth does the security core (random session tokens stored in the
 * database, signed HttpOnly cookies; password hashes in its own format, made by
 * password-hashing.server.ts); this module adds what the shop needs on top: an absolute session
 * lifetime, the previous session revoked at each login, failed-login limits per account, per
 * address and shop-wide, a bounded line for password hashing, and the admin role check.
 * docs/decisions/0007-admin-sign-in.md explains the choices.
 */

export interface AuthSettings {
  /** Signs the session cookie; at least 32 characters. */
  secret: string;
  /** Where the shop is served, e.g. https://tienda.ejemplo.mx. */
  baseUrl: string;
  /** A session unused this long ends (sliding). */
  idleMinutes: number;
  /** A session ends this long after sign-in, however active. */
  absoluteHours: number;
}

export const SESSION_COOKIE = "sesion_admin";
/** Over HTTPS: `__Host-` makes the browser insist on Secure, Path=/ and no Domain. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Our own header carrying the client's address to the library; never taken from the client. */
const ADDRESS_HEADER = "x-shop-client-address";
/** A refreshed idle expiry is written at most this often per session. */
const REFRESH_EVERY_SECONDS = 60;

export interface AdminSession {
  userId: string;
  email: string;
  name: string;
  sessionId: string;
  /** When this session signed in. */
  createdAt: Date;
  expiresAt: Date;
}

export type SignInResult =
  | { ok: true; session: AdminSession; setCookies: string[] }
  | { ok: false; reason: "invalid" }
  /** Too many failures for this account or from this address. */
  | { ok: false; reason: "limited"; retryAfterSeconds: number }
  /** Too many sign-ins across the shop (its ceiling, or the hashing line is full): nothing was checked. */
  | { ok: false; reason: "busy"; retryAfterSeconds: number };

export interface AdminSummary {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  activeSessions: number;
}

function createLibrary(database: Database, settings: AuthSettings, secure: boolean, hasher: PasswordHasher) {
  const timestamps = { createdAt: "created_at", updatedAt: "updated_at" };
  return betterAuth({
    appName: "Tienda",
    database: { db: database.db, type: database.dialect, transaction: true },
    secret: settings.secret,
    baseURL: settings.baseUrl,
    telemetry: { enabled: false },
    // Its own failed-login messages would repeat ours; errors still show.
    logger: { level: "error" },
    // Our routes call it directly; its HTTP handler (and so its IP limiter) is not mounted.
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // The library's format and parameters, through our line (an unknown e-mail costs one hash too).
      password: { hash: hasher.hash, verify: hasher.verify },
    },
    session: {
      modelName: "auth_session",
      fields: {
        ...timestamps,
        userId: "user_id",
        expiresAt: "expires_at",
        ipAddress: "ip_address",
        userAgent: "user_agent",
      },
      expiresIn: settings.idleMinutes * 60,
      updateAge: Math.min(REFRESH_EVERY_SECONDS, settings.idleMinutes * 30),
    },
    user: { modelName: "auth_user", fields: { ...timestamps, emailVerified: "email_verified" } },
    account: {
      modelName: "auth_account",
      fields: {
        ...timestamps,
        accountId: "account_id",
        providerId: "provider_id",
        userId: "user_id",
        accessToken: "access_token",
        refreshToken: "refresh_token",
        idToken: "id_token",
        accessTokenExpiresAt: "access_token_expires_at",
        refreshTokenExpiresAt: "refresh_token_expires_at",
      },
    },
    verification: { modelName: "auth_verification", fields: { ...timestamps, expiresAt: "expires_at" } },
    advanced: {
      cookiePrefix: "admin",
      useSecureCookies: false,
      defaultCookieAttributes: { secure, httpOnly: true, sameSite: "lax", path: "/" },
      cookies: { session_token: { name: secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE } },
      ipAddress: { ipAddressHeaders: [ADDRESS_HEADER] },
      database: { generateId: () => crypto.randomUUID() },
    },
    plugins: [
      adminPlugin({
        // Only createAdmin makes administrators, and it says so explicitly.
        defaultRole: "user",
        adminRoles: [ADMIN_ROLE],
        schema: {
          user: { fields: { banReason: "ban_reason", banExpires: "ban_expires" } },
          session: { fields: { impersonatedBy: "impersonated_by" } },
        },
      }),
    ],
  });
}

type Library = ReturnType<typeof createLibrary>;

/** A refusal (bad cookie, wrong password, malformed input); its server errors are not. */
function isRefusal(error: unknown): boolean {
  return isLibraryError(error) && error.statusCode < 500;
}
type SignInResponse = { headers: Headers; response: { token: string; user: unknown } };

export interface AdminAuth {
  /** The administrator's session these request headers carry, refreshing its idle expiry. */
  readSession(
    headers: Headers,
    secure: boolean,
  ): Promise<{ session: AdminSession | null; setCookies: string[] }>;
  signIn(input: {
    email: string;
    password: string;
    address: string;
    headers: Headers;
    secure: boolean;
    /** The session this browser held until now (it ends: a new token at every login). */
    previousSessionId?: string | null;
  }): Promise<SignInResult>;
  /**
   * Seconds to wait when this server already knows a sign-in would be refused as busy (the
   * hashing line is full, or the shop-wide ceiling was reached and has not lifted yet); null when
   * it does not. Reads nothing from the database: cheap enough to run before anything else.
   */
  busyFor(): number | null;
  /** Ends a session (if any) and returns the cookie that clears it from the browser. */
  signOut(sessionId: string | null, secure: boolean): Promise<string[]>;
  /** Ends every session of one account (lost phone, password reset). */
  signOutEverywhere(userId: string): Promise<number>;
  /** Deletes sessions past either lifetime whose cookie never came back, and old failed logins. */
  deleteEndedSessions(): Promise<number>;
  createAdmin(input: { email: string; name: string; password: string }): Promise<AdminSummary>;
  resetPassword(email: string, password: string): Promise<void>;
  listAdmins(): Promise<AdminSummary[]>;
  settings: AuthSettings;
}

export class AdminAccountError extends Error {
  override name = "AdminAccountError";
}

export interface AdminAuthOptions {
  /** The line password hashes wait in; one per process is what bounds the hashing. */
  hasher?: PasswordHasher;
}

export function createAdminAuth(
  database: Database,
  settings: AuthSettings,
  options: AdminAuthOptions = {},
): AdminAuth {
  const hasher = options.hasher ?? createPasswordHasher();
  /** Until when the shop-wide ceiling is known to hold (refused attempts do not move it). */
  let closedUntil = 0;

  function busyFor(): number | null {
    if (hasher.isFull()) return HASHING_BUSY_RETRY_SECONDS;
    const left = closedUntil - Date.now();
    return left > 0 ? Math.ceil(left / 1000) : null;
  }
  const plain = createLibrary(database, settings, false, hasher);
  const secure = createLibrary(database, settings, true, hasher);
  const library = (isSecure: boolean): Library => (isSecure ? secure : plain);
  const { db } = database;

  function hasSessionCookie(headers: Headers, isSecure: boolean): boolean {
    const cookie = headers.get("cookie");
    return cookie?.includes(`${isSecure ? SECURE_SESSION_COOKIE : SESSION_COOKIE}=`) ?? false;
  }

  /** Deleted here, not through the library (which only logs a failed delete), so a database failure is an error. */
  async function signOut(sessionId: string | null, isSecure: boolean): Promise<string[]> {
    if (sessionId) await db.deleteFrom("auth_session").where("id", "=", sessionId).execute();
    // The same name and attributes the library gives the cookie, expired.
    const name = isSecure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
    return [`${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${isSecure ? "; Secure" : ""}`];
  }

  /** Sessions that signed in before this are past their absolute lifetime. */
  const oldestLiveStart = () => new Date(Date.now() - settings.absoluteHours * 3_600_000).toISOString();

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
          .on("s.created_at", ">", oldestLiveStart()),
      )
      .select((eb) => ["u.id", "u.email", "u.name", "u.created_at", eb.fn.count<number>("s.id").as("active")])
      .where("u.role", "=", ADMIN_ROLE)
      .groupBy(["u.id", "u.email", "u.name", "u.created_at"])
      .orderBy("u.email");
    if (onlyId) query = query.where("u.id", "=", onlyId);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      createdAt: toDate(row.created_at),
      activeSessions: Number(row.active),
    }));
  }

  return {
    settings,

    async readSession(headers, isSecure) {
      // Shoppers carry no session cookie: their pages never touch the sessions table.
      if (!hasSessionCookie(headers, isSecure)) return { session: null, setCookies: [] };
      const lib = library(isSecure);
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
      // Only administrators sign in; any other account's session counts as none.
      if ((found.user as { role?: string | null }).role !== ADMIN_ROLE)
        return { session: null, setCookies: [] };
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
        },
        setCookies,
      };
    },

    async signIn({ email, password, address, headers, secure: isSecure, previousSessionId }) {
      // Known to be busy: refused before anything is read or written, so a flood costs next to nothing.
      const wait = busyFor();
      if (wait !== null) return { ok: false, reason: "busy", retryAfterSeconds: wait };
      const decision = await beginLoginAttempt(db, { email, address });
      if (!decision.allowed) {
        if (!decision.everywhere)
          return { ok: false, reason: "limited", retryAfterSeconds: decision.retryAfterSeconds };
        closedUntil = Math.max(closedUntil, decision.freeAt);
        return { ok: false, reason: "busy", retryAfterSeconds: decision.retryAfterSeconds };
      }
      const lib = library(isSecure);
      const withAddress = new Headers(headers);
      withAddress.set(ADDRESS_HEADER, address);
      let result: SignInResponse;
      try {
        result = await lib.api.signInEmail({
          body: { email: normalizeEmail(email), password, rememberMe: true },
          headers: withAddress,
          returnHeaders: true,
        });
      } catch (error) {
        if (error instanceof HashingBusy) {
          // The line filled up meanwhile (known and unknown e-mails both hash): nothing was checked.
          await decision.attempt.withdrawn();
          return { ok: false, reason: "busy", retryAfterSeconds: HASHING_BUSY_RETRY_SECONDS };
        }
        // Unknown e-mail, wrong password, malformed input: all the same to the person typing.
        if (isRefusal(error)) return { ok: false, reason: "invalid" };
        throw error;
      }
      const user = result.response.user as { id: string; email: string; name: string; role?: string | null };
      const setCookies = result.headers.getSetCookie();
      if (user.role !== ADMIN_ROLE) {
        // Only administrators sign in here; the fresh session is dropped at once.
        await db.deleteFrom("auth_session").where("token", "=", result.response.token).execute();
        return { ok: false, reason: "invalid" };
      }
      await decision.attempt.succeeded();
      // A new token at every login: the one this browser held before (if any) stops working.
      if (previousSessionId) await signOut(previousSessionId, isSecure);
      const session = await db
        .selectFrom("auth_session")
        .select(["id", "created_at", "expires_at"])
        .where("token", "=", result.response.token)
        .executeTakeFirstOrThrow();
      return {
        ok: true,
        setCookies,
        session: {
          userId: user.id,
          email: user.email,
          name: user.name,
          sessionId: session.id,
          createdAt: toDate(session.created_at),
          expiresAt: toDate(session.expires_at),
        },
      };
    },

    busyFor,

    signOut,

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

    async signOutEverywhere(userId) {
      const result = await db.deleteFrom("auth_session").where("user_id", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async createAdmin({ email, name, password }) {
      const problem = checkPassword(password);
      if (problem) throw new AdminAccountError(problem);
      const normalized = normalizeEmail(email);
      const taken = await db
        .selectFrom("auth_user")
        .select("id")
        .where("email", "=", normalized)
        .executeTakeFirst();
      if (taken) throw new AdminAccountError(`Ya existe una cuenta con el correo ${normalized}.`);
      try {
        const created = await plain.api.createUser({
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
      const normalized = normalizeEmail(email);
      const user = await db
        .selectFrom("auth_user")
        .select("id")
        .where("email", "=", normalized)
        .where("role", "=", ADMIN_ROLE)
        .executeTakeFirst();
      if (!user) throw new AdminAccountError(`No hay un administrador con el correo ${normalized}.`);
      const context = await plain.$context;
      await context.internalAdapter.updatePassword(user.id, await hasher.hash(password));
      // Whoever knew the old password is signed out everywhere.
      await db.deleteFrom("auth_session").where("user_id", "=", user.id).execute();
      await clearLoginFailures(db, normalized);
    },

    listAdmins: () => listAdmins(),
  };
}
