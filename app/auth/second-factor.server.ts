import { symmetricDecrypt } from "better-auth/crypto";
import type { Database } from "~/db/database.server";
import type { AuthSettings } from "./auth-config.server";
import {
  ADDRESS_HEADER,
  isRefusal,
  type Libraries,
  type LibraryUser,
  refusalCode,
  type SignInResponse,
  sessionCookieName,
} from "./better-auth.server";
import { cookieValue, unsigned, withoutCookie } from "./cookie-headers";
import { beginLoginAttempt, LOGIN_LIMITS } from "./login-limits.server";
import { CHALLENGE_COOKIE } from "./second-factor";
import type { AdminSession, Sessions } from "./sessions.server";
import type { AttemptRefusal, SignInGate } from "./sign-in-gate.server";

/**
 * The second factor (docs/decisions/0023-second-factor.md): the code from the authenticator app,
 * or a recovery code, that ends a sign-in started with the password; and its set-up, the secret
 * shown once and the first code that confirms it. Wrong codes count in the login limits.
 */

export type CodeResult =
  | { ok: true; session: AdminSession; setCookies: string[] }
  | { ok: false; reason: "invalido" }
  /** No sign-in waits for a code here (none started, it took too long, or too many wrong codes). */
  | { ok: false; reason: "vencido" }
  | AttemptRefusal;

export type SetUpResult =
  /** Shown once, right now: only their encrypted list is kept. */
  | { ok: true; recoveryCodes: string[]; setCookies: string[] }
  | { ok: false; reason: "invalido" }
  | AttemptRefusal;

export interface PendingSetUp {
  /** The secret in base 32, for typing into the app by hand. */
  secret: string;
  /** The otpauth:// address the QR code carries. */
  uri: string;
}

export interface SecondFactor {
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

export function createSecondFactor(parts: {
  database: Database;
  settings: AuthSettings;
  libraries: Libraries;
  gate: SignInGate;
  sessions: Sessions;
}): SecondFactor {
  const { database, settings, libraries, gate, sessions } = parts;
  const { db } = database;

  return {
    async verifyCode({ code, trustDevice, address, headers, secure: isSecure }) {
      const wait = gate.busyFor();
      if (wait !== null) return { ok: false, reason: "ocupado", retryAfterSeconds: wait };
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
      if (!waiting) return { ok: false, reason: "vencido" };
      const decision = await beginLoginAttempt(db, { email: waiting.email, address });
      if (!decision.allowed) return gate.refused(decision);
      const lib = libraries.forRequest(isSecure);
      // Only the challenge decides whose sign-in this is, not a session cookie the browser still has.
      const forLibrary = withoutCookie(headers, sessionCookieName(isSecure));
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
          return { ok: false, reason: "invalido" };
        // Nothing was checked: the library's own lock, or the challenge is used up or gone.
        await decision.attempt.withdrawn();
        if (reason === "ACCOUNT_TEMPORARILY_LOCKED")
          return { ok: false, reason: "limitado", retryAfterSeconds: LOGIN_LIMITS.windowMinutes * 60 };
        return { ok: false, reason: "vencido" };
      }
      await decision.attempt.succeeded();
      const user = result.response.user as LibraryUser;
      return {
        ok: true,
        setCookies: result.headers.getSetCookie(),
        session: await sessions.byToken(result.response.token, user, false),
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
      const context = await libraries.plain.$context;
      // The library keeps the secret encrypted and uses its characters' bytes as the key.
      const key = await symmetricDecrypt({ key: context.secretConfig, data: row.secret });
      const secret = base32(new TextEncoder().encode(key));
      const issuer = settings.issuer ?? "Tienda";
      const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(session.email)}`;
      const query = new URLSearchParams({ secret, issuer, digits: "6", period: "30" });
      return { secret, uri: `otpauth://totp/${label}?${query}` };
    },

    async completeSetUp({ session, code, address, headers, secure: isSecure }) {
      const wait = gate.busyFor();
      if (wait !== null) return { ok: false, reason: "ocupado", retryAfterSeconds: wait };
      const decision = await beginLoginAttempt(db, { email: session.email, address });
      if (!decision.allowed) return gate.refused(decision);
      const lib = libraries.forRequest(isSecure);
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
        if (isRefusal(error)) return { ok: false, reason: "invalido" };
        throw error;
      }
      await decision.attempt.succeeded();
      const codes = await lib.api.viewBackupCodes({ body: { userId: session.userId } });
      return { ok: true, recoveryCodes: codes.backupCodes, setCookies: result.headers.getSetCookie() };
    },
  };
}
