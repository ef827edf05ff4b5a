import { betterAuth } from "better-auth";
import { isAPIError as isLibraryError } from "better-auth/api";
import { admin as adminPlugin, twoFactor } from "better-auth/plugins";
import type { Database } from "~/db/database.server";
import type { AuthSettings } from "./auth-config.server";
import type { PasswordHasher } from "./password-hashing.server";
import { ADMIN_ROLE, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./password-policy";
import { TRUSTED_DEVICE_DAYS } from "./second-factor";

/**
 * The sign-in library (better-auth) as the shop sets it up: its tables under our names, its
 * cookies under our prefix, password hashes through our line, the admin role and the second factor.
 * One instance per cookie kind (plain HTTP, or HTTPS with `__Host-`); nothing else here.
 */

export const SESSION_COOKIE = "sesion_admin";
/** Over HTTPS: `__Host-` makes the browser insist on Secure, Path=/ and no Domain. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Our own header carrying the client's address to the library; never taken from the client. */
export const ADDRESS_HEADER = "x-shop-client-address";
/** A refreshed idle expiry is written at most this often per session. */
const REFRESH_EVERY_SECONDS = 60;
/** The sign-in started with the password waits this long for its code. */
const CHALLENGE_MINUTES = 10;

/** The session cookie's name over HTTPS or plain HTTP. */
export function sessionCookieName(isSecure: boolean): string {
  return isSecure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

export function createLibrary(
  database: Database,
  settings: AuthSettings,
  secure: boolean,
  hasher: PasswordHasher,
) {
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
      cookies: { session_token: { name: sessionCookieName(secure) } },
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
        // Its own lock after consecutive wrong codes would shut the owner out on every device,
        // known ones too: our limits count wrong codes per device and account (decision 32).
        accountLockout: { enabled: false },
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

export type Library = ReturnType<typeof createLibrary>;

/** The two instances (plain HTTP and HTTPS cookies) over one database, settings and hashing line. */
export interface Libraries {
  /** The one for these requests' cookies. */
  forRequest(isSecure: boolean): Library;
  /** For work no request's cookie takes part in (the command line's, the secret's key). */
  plain: Library;
}

export function createLibraries(
  database: Database,
  settings: AuthSettings,
  hasher: PasswordHasher,
): Libraries {
  const plain = createLibrary(database, settings, false, hasher);
  const secure = createLibrary(database, settings, true, hasher);
  return { plain, forRequest: (isSecure) => (isSecure ? secure : plain) };
}

/** A refusal (bad cookie, wrong password, malformed input); its server errors are not. */
export function isRefusal(error: unknown): boolean {
  return isLibraryError(error) && error.statusCode < 500;
}

/** The library's reason for refusing (its error code), e.g. INVALID_CODE. */
export const refusalCode = (error: unknown) => (error as { body?: { code?: string } }).body?.code;

export type SignInResponse = { headers: Headers; response: { token: string; user: unknown } };
export type LibraryUser = {
  id: string;
  email: string;
  name: string;
  role?: string | null;
  twoFactorEnabled?: boolean;
};
