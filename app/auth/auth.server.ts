import { betterAuth } from "better-auth";
import { isAPIError as isLibraryError } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { admin as adminPlugin, twoFactor } from "better-auth/plugins";
import type { Database } from "~/db/database.server";
import { toDate } from "~/db/database.server";
import {
  type AttemptDecision,
  beginLoginAttempt,
  clearLoginFailures,
  deleteOldLoginFailures,
  LOGIN_LIMITS,
  normalizeEmail,
} from "./login-limits.server";
import {
  createPasswordHasher,
  HASHING_BUSY_RETRY_SECONDS,
  HashingBusy,
  type PasswordHasher,
} from "./password-hashing.server";
import { ADMIN_ROLE, checkPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-policy";
import { CHALLENGE_COOKIE, TRUSTED_DEVICE_COOKIE, TRUSTED_DEVICE_DAYS } from "./second-factor";

/**
 * Administrator sign-in. better-auth does the security core (random session tokens stored in the
 * database, signed HttpOnly cookies; password hashes in its own format, made by
 * password-hashing.server.ts; the second factor with its encrypted secret, recovery codes and
 * trusted-device cookie); this module adds what the shop needs on top: an absolute session
 * lifetime, the previous session revoked at each login, failed-login limits per account, per
 * address and shop-wide (wrong codes count in them too), a bounded line for password hashing, the
 * admin role check and a trusted device's 30 days counted from the code typed.
 * docs/decisions/0007-admin-sign-in.md and 0023-second-factor.md explain the choices.
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
  /** The name the authenticator app shows next to the account (the shop's name). */
  issuer?: string;
}

export const SESSION_COOKIE = "sesion_admin";
/** Over HTTPS: `__Host-` makes the browser insist on Secure, Path=/ and no Domain. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Our own header carrying the client's address to the library; never taken from the client. */
const ADDRESS_HEADER = "x-shop-client-address";
/** A refreshed idle expiry is written at most this often per session. */
const REFRESH_EVERY_SECONDS = 60;
/** The sign-in started with the password waits this long for its code. */
const CHALLENGE_MINUTES = 10;

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

export type SignInResult =
  /** `set-up`: the account has no second factor yet; the session only reaches the set-up page. */
  | { ok: true; step: "signed-in" | "set-up"; session: AdminSession; setCookies: string[] }
  /** The password was right; the code comes next, within a short-lived challenge cookie. */
  | { ok: true; step: "code"; setCookies: string[] }
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
  /** The second factor is set up. */
  secondFactor: boolean;
}

export type CodeResult =
  | { ok: true; session: AdminSession; setCookies: string[] }
  | { ok: false; reason: "invalid" }
  /** No sign-in waits for a code here (none started, it took too long, or too many wrong codes). */
  | { ok: false; reason: "expired" }
  | { ok: false; reason: "limited" | "busy"; retryAfterSeconds: number };

export type SetUpResult =
  /** Shown once, right now: only their encrypted list is kept. */
  | { ok: true; recoveryCodes: string[]; setCookies: string[] }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "limited" | "busy"; retryAfterSeconds: number };

export interface PendingSetUp {
  /** The secret in base 32, for typing into the app by hand. */
  secret: string;
  /** The otpauth:// address the QR code carries. */
  uri: string;
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
      twoFactor({
        issuer: settings.issuer ?? "Tienda",
        trustDeviceMaxAge: TRUSTED_DEVICE_DAYS * 86_400,
        twoFactorCookieMaxAge: CHALLENGE_MINUTES * 60,
        // Its own count of consecutive wrong codes stays on as a second line behind ours.
        schema: {
          user: { fields: { twoFactorEnabled: "two_factor_enabled" } },
          twoFactor: {
            modelName: "auth_two_factor",
            fields: {
              backupCodes: "backup_codes",
              userId: "user_id",
              failedVerificationCount: "failed_verification_count",
              lockedUntil: "locked_until",
            },
          },
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
type LibraryUser = {
  id: string;
  email: string;
  name: string;
  role?: string | null;
  twoFactorEnabled?: boolean;
};

/** The library's reason for refusing (its error code), e.g. INVALID_CODE. */
const refusalCode = (error: unknown) => (error as { body?: { code?: string } }).body?.code;

/** One cookie's value from a request's Cookie header. */
function cookieValue(headers: Headers, name: string): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A signed cookie's value without its signature (the library checks the signature itself). */
function unsigned(value: string): string {
  const dot = value.lastIndexOf(".");
  return dot > 0 ? value.slice(0, dot) : "";
}

/** The record a trusted-device cookie names (`token!identifier`, signed). */
function trustIdentifier(cookie: string | null | undefined): string | null {
  return cookie ? (unsigned(cookie).split("!")[1] ?? null) : null;
}

function withoutCookie(headers: Headers, name: string): Headers {
  const copy = new Headers(headers);
  const kept = (headers.get("cookie") ?? "")
    .split(";")
    .filter((part) => part.slice(0, part.indexOf("=")).trim() !== name)
    .join(";");
  if (kept.trim()) copy.set("cookie", kept);
  else copy.delete("cookie");
  return copy;
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base 32 without padding: how authenticator apps take a secret. */
function base32(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

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
  /** The code from the app, or a recovery code, for the sign-in this browser started with its password. */
  verifyCode(input: {
    code: string;
    /** 'Confiar en este dispositivo': the next sign-ins skip the code for TRUSTED_DEVICE_DAYS. */
    trustDevice: boolean;
    address: string;
    headers: Headers;
    secure: boolean;
  }): Promise<CodeResult>;
  /** The secret the set-up page shows until its first code is typed; null when none waits. */
  pendingSetUp(session: AdminSession): Promise<PendingSetUp | null>;
  /** The first code from the app ends the set-up: a full session, and the recovery codes to keep. */
  completeSetUp(input: {
    session: AdminSession;
    code: string;
    address: string;
    headers: Headers;
    secure: boolean;
  }): Promise<SetUpResult>;
  /** Lost phone: the account sets the second factor up again at its next sign-in; signed out everywhere. */
  resetSecondFactor(email: string): Promise<void>;
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
  /** A refused attempt's answer; the shop-wide ceiling also closes the line here until it frees. */
  function attemptRefused(decision: Extract<AttemptDecision, { allowed: false }>) {
    if (!decision.everywhere)
      return { ok: false, reason: "limited", retryAfterSeconds: decision.retryAfterSeconds } as const;
    closedUntil = Math.max(closedUntil, decision.freeAt);
    return { ok: false, reason: "busy", retryAfterSeconds: decision.retryAfterSeconds } as const;
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

  /** The session a sign-in just created, by its token. */
  async function sessionByToken(token: string, user: LibraryUser, settingUp: boolean): Promise<AdminSession> {
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
  }

  /** The trusted-device record this browser's cookie names, if it is still there. */
  async function trustedDevice(headers: Headers) {
    const identifier = trustIdentifier(cookieValue(headers, TRUSTED_DEVICE_COOKIE));
    if (!identifier) return null;
    const row = await db
      .selectFrom("auth_verification")
      .select(["value", "expires_at"])
      .where("identifier", "=", identifier)
      .executeTakeFirst();
    return row ? { userId: row.value, expiresAt: new Date(row.expires_at).toISOString() } : null;
  }

  /**
   * The library renews a trusted device for another full period at each sign-in it skips the code
   * on; the renewed record keeps the old end, so the trust lasts at most TRUSTED_DEVICE_DAYS from
   * the code typed.
   */
  async function keepTrustDeadline(
    setCookies: string[],
    trusted: { userId: string; expiresAt: string } | null,
    userId: string,
  ): Promise<void> {
    if (!trusted || trusted.userId !== userId) return;
    const renewed = setCookies.find((cookie) => cookie.startsWith(`${TRUSTED_DEVICE_COOKIE}=`));
    const value = renewed?.slice(TRUSTED_DEVICE_COOKIE.length + 1).split(";")[0];
    const identifier = trustIdentifier(value ? decodeURIComponent(value) : null);
    if (!identifier) return;
    await db
      .updateTable("auth_verification")
      .set({ expires_at: trusted.expiresAt })
      .where("identifier", "=", identifier)
      .where("value", "=", userId)
      .execute();
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
          .on("s.created_at", ">", oldestLiveStart()),
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

    async signIn({ email, password, address, headers, secure: isSecure, previousSessionId }) {
      // Known to be busy: refused before anything is read or written, so a flood costs next to nothing.
      const wait = busyFor();
      if (wait !== null) return { ok: false, reason: "busy", retryAfterSeconds: wait };
      const decision = await beginLoginAttempt(db, { email, address });
      if (!decision.allowed) return attemptRefused(decision);
      const lib = library(isSecure);
      const withAddress = new Headers(headers);
      withAddress.set(ADDRESS_HEADER, address);
      const trusted = await trustedDevice(headers);
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
      const setCookies = result.headers.getSetCookie();
      if ((result.response as { twoFactorRedirect?: boolean }).twoFactorRedirect) {
        const account = await db
          .selectFrom("auth_user")
          .select("role")
          .where("email", "=", normalizeEmail(email))
          .executeTakeFirst();
        if (account?.role !== ADMIN_ROLE) return { ok: false, reason: "invalid" };
        // The password is right but the sign-in is not done: the attempt does not count, and the
        // account's earlier failures stay until a right code.
        await decision.attempt.withdrawn();
        if (previousSessionId) await signOut(previousSessionId, isSecure);
        return { ok: true, step: "code", setCookies };
      }
      const user = result.response.user as LibraryUser;
      if (user.role !== ADMIN_ROLE) {
        // Only administrators sign in here; the fresh session is dropped at once.
        await db.deleteFrom("auth_session").where("token", "=", result.response.token).execute();
        return { ok: false, reason: "invalid" };
      }
      const settingUp = !user.twoFactorEnabled;
      // A secret already waiting is kept: the app it was scanned into keeps working.
      const waiting =
        settingUp &&
        (await db
          .selectFrom("auth_two_factor")
          .select("id")
          .where("user_id", "=", user.id)
          .executeTakeFirst());
      if (settingUp && !waiting) {
        // The first sign-in since the second factor came: a new secret waits for the set-up page
        // (the library asks for the password to make one; it was just typed).
        const cookie = setCookies.find((c) =>
          c.startsWith(`${isSecure ? SECURE_SESSION_COOKIE : SESSION_COOKIE}=`),
        );
        try {
          await lib.api.enableTwoFactor({
            body: { password, method: "totp" },
            headers: new Headers({ cookie: cookie?.split(";")[0] ?? "" }),
          });
        } catch (error) {
          await db.deleteFrom("auth_session").where("token", "=", result.response.token).execute();
          if (!(error instanceof HashingBusy)) throw error;
          await decision.attempt.withdrawn();
          return { ok: false, reason: "busy", retryAfterSeconds: HASHING_BUSY_RETRY_SECONDS };
        }
      }
      if (!settingUp) await keepTrustDeadline(setCookies, trusted, user.id);
      await decision.attempt.succeeded();
      // A new token at every login: the one this browser held before (if any) stops working.
      if (previousSessionId) await signOut(previousSessionId, isSecure);
      return {
        ok: true,
        step: settingUp ? "set-up" : "signed-in",
        setCookies,
        session: await sessionByToken(result.response.token, user, settingUp),
      };
    },

    async verifyCode({ code, trustDevice, address, headers, secure: isSecure }) {
      const wait = busyFor();
      if (wait !== null) return { ok: false, reason: "busy", retryAfterSeconds: wait };
      const challenge = cookieValue(headers, CHALLENGE_COOKIE);
      // Whose sign-in waits, to count a wrong code against that account.
      const waiting = challenge
        ? await db
            .selectFrom("auth_verification as v")
            .innerJoin("auth_user as u", "u.id", "v.value")
            .select("u.email")
            .where("v.identifier", "=", unsigned(challenge))
            .where("v.expires_at", ">", new Date().toISOString())
            .executeTakeFirst()
        : undefined;
      if (!waiting) return { ok: false, reason: "expired" };
      const decision = await beginLoginAttempt(db, { email: waiting.email, address });
      if (!decision.allowed) return attemptRefused(decision);
      const lib = library(isSecure);
      // Only the challenge decides whose sign-in this is, not a session cookie the browser still has.
      const forLibrary = withoutCookie(headers, isSecure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
      forLibrary.set(ADDRESS_HEADER, address);
      const typed = code.trim();
      const digits = typed.replace(/\s/g, "");
      const body = { code: /^\d{6}$/.test(digits) ? digits : typed, trustDevice };
      let result: SignInResponse;
      try {
        result = /^\d{6}$/.test(digits)
          ? await lib.api.verifyTOTP({ body, headers: forLibrary, returnHeaders: true })
          : // A session is always made here (no `disableSession`), so the token is there.
            ((await lib.api.verifyBackupCode({
              body,
              headers: forLibrary,
              returnHeaders: true,
            })) as SignInResponse);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        const reason = refusalCode(error);
        // A wrong code stays counted.
        if (reason === "INVALID_CODE" || reason === "INVALID_BACKUP_CODE")
          return { ok: false, reason: "invalid" };
        // Nothing was checked: the library's own lock, or the challenge is used up or gone.
        await decision.attempt.withdrawn();
        if (reason === "ACCOUNT_TEMPORARILY_LOCKED")
          return { ok: false, reason: "limited", retryAfterSeconds: LOGIN_LIMITS.windowMinutes * 60 };
        return { ok: false, reason: "expired" };
      }
      await decision.attempt.succeeded();
      const user = result.response.user as LibraryUser;
      return {
        ok: true,
        setCookies: result.headers.getSetCookie(),
        session: await sessionByToken(result.response.token, user, false),
      };
    },

    async pendingSetUp(session) {
      const row = await db
        .selectFrom("auth_two_factor")
        .select("secret")
        .where("user_id", "=", session.userId)
        .where("verified", "=", database.dialect === "postgres" ? false : 0)
        .executeTakeFirst();
      if (!row) return null;
      const context = await plain.$context;
      // The library keeps the secret encrypted and uses its characters' bytes as the key.
      const key = await symmetricDecrypt({ key: context.secretConfig, data: row.secret });
      const secret = base32(new TextEncoder().encode(key));
      const issuer = settings.issuer ?? "Tienda";
      const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(session.email)}`;
      const query = new URLSearchParams({ secret, issuer, digits: "6", period: "30" });
      return { secret, uri: `otpauth://totp/${label}?${query}` };
    },

    async completeSetUp({ session, code, address, headers, secure: isSecure }) {
      const wait = busyFor();
      if (wait !== null) return { ok: false, reason: "busy", retryAfterSeconds: wait };
      const decision = await beginLoginAttempt(db, { email: session.email, address });
      if (!decision.allowed) return attemptRefused(decision);
      const lib = library(isSecure);
      const withAddress = withoutCookie(headers, CHALLENGE_COOKIE);
      withAddress.set(ADDRESS_HEADER, address);
      let result: SignInResponse;
      try {
        // The library swaps the set-up session for a full one when the code is right.
        result = await lib.api.verifyTOTP({
          body: { code: code.replace(/\s/g, "") },
          headers: withAddress,
          returnHeaders: true,
        });
      } catch (error) {
        if (isRefusal(error)) return { ok: false, reason: "invalid" };
        throw error;
      }
      await decision.attempt.succeeded();
      const codes = await lib.api.viewBackupCodes({ body: { userId: session.userId } });
      return { ok: true, recoveryCodes: codes.backupCodes, setCookies: result.headers.getSetCookie() };
    },

    async resetSecondFactor(email) {
      const normalized = normalizeEmail(email);
      const user = await db
        .selectFrom("auth_user")
        .select("id")
        .where("email", "=", normalized)
        .where("role", "=", ADMIN_ROLE)
        .executeTakeFirst();
      if (!user) throw new AdminAccountError(`No hay un administrador con el correo ${normalized}.`);
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
      });
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
