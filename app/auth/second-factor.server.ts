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
import { spendStep, stepOfCode } from "./code-steps.server";
import { cookieValue, unsigned, withoutCookie } from "./cookie-headers";
import type { Devices } from "./devices.server";
import { beginLoginAttempt } from "./login-limits.server";
import type { PasswordHasher } from "./password-hashing.server";
import { CHALLENGE_COOKIE, TRUSTED_DEVICE_COOKIE } from "./second-factor";
import type { AdminSession, Sessions } from "./sessions.server";
import {
  type AttemptRefusal,
  beforeAttempt,
  type ProofChecker,
  type SignInGate,
} from "./sign-in-gate.server";
import { trustGiven } from "./trusted-devices.server";

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
    /** The browser's id from its signed cookie; null without one. */
    browserId?: string | null;
    /** The proof of work the form brought; null or "" for none. */
    proof?: string | null;
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
    browserId?: string | null;
    proof?: string | null;
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
  devices: Devices;
  proofs: ProofChecker | null;
  hasher: PasswordHasher;
}): SecondFactor {
  const { database, settings, libraries, gate, sessions, devices, hasher } = parts;
  const { db } = database;

  /** The secret as the library keeps it (its characters' bytes are the key), decrypted. */
  async function secretKey(encrypted: string): Promise<string> {
    const context = await libraries.plain.$context;
    return symmetricDecrypt({ key: context.secretConfig, data: encrypted });
  }

  /**
   * False when `code` is an app code already used by this administrator (its step, or a later
   * one, was spent): a code works once. A code of no step in the window is left to the library.
   */
  async function spendCode(userId: string, encrypted: string | null, code: string): Promise<boolean> {
    if (!encrypted || !/^\d{6}$/.test(code)) return true;
    const step = await stepOfCode(await secretKey(encrypted), code);
    return step === null || (await spendStep(db, userId, step));
  }

  return {
    async verifyCode(input) {
      const { code, trustDevice, address, headers, secure: isSecure } = input;
      const browserId = input.browserId ?? null;
      const challenge = cookieValue(headers, CHALLENGE_COOKIE);
      // Whose sign-in waits, to count a wrong code against that account.
      const waiting = challenge
        ? await db
            .selectFrom("auth_verification as v")
            .innerJoin("auth_user as u", "u.id", "v.value")
            .leftJoin("auth_two_factor as t", "t.user_id", "u.id")
            .select(["u.id", "u.email", "t.secret"])
            .where("v.identifier", "=", unsigned(challenge))
            .where("v.expires_at", ">", new Date().toISOString())
            .executeTakeFirst()
        : undefined;
      if (!waiting) {
        const wait = gate.busyFor();
        if (wait !== null) return { ok: false, reason: "ocupado", retryAfterSeconds: wait };
        return { ok: false, reason: "vencido" };
      }
      const { known, refusal, proof } = await beforeAttempt(parts, { ...input, email: waiting.email });
      if (refusal) return refusal;
      const decision = await beginLoginAttempt(db, {
        email: waiting.email,
        address,
        device: browserId,
        known,
        proof,
      });
      if (!decision.allowed) return gate.refused(decision);
      const lib = libraries.forRequest(isSecure);
      // Only the challenge decides whose sign-in this is, not a session cookie the browser still
      // has; a trusted-device cookie from another browser plays no part either.
      const forLibrary = withoutCookie(
        withoutCookie(headers, sessionCookieName(isSecure)),
        TRUSTED_DEVICE_COOKIE,
      );
      forLibrary.set(ADDRESS_HEADER, address);
      const typed = code.trim();
      const digits = typed.replace(/\s/g, "");
      const body = { code: /^\d{6}$/.test(digits) ? digits : typed, trustDevice };
      // A code already used (here or on another app server) is a wrong code, and counts as one.
      if (!(await spendCode(waiting.id, waiting.secret, digits))) return { ok: false, reason: "invalido" };
      let result: SignInResponse;
      try {
        const verify = () =>
          /^\d{6}$/.test(digits)
            ? lib.api.verifyTOTP({ body, headers: forLibrary, returnHeaders: true })
            : // A session is always made here (no `disableSession`), so the token is there.
              (lib.api.verifyBackupCode({
                body,
                headers: forLibrary,
                returnHeaders: true,
              }) as Promise<SignInResponse>);
        result = known ? await hasher.first(verify) : await verify();
      } catch (error) {
        if (!isRefusal(error)) throw error;
        const reason = refusalCode(error);
        // A wrong code stays counted.
        if (reason === "INVALID_CODE" || reason === "INVALID_BACKUP_CODE")
          return { ok: false, reason: "invalido" };
        // Nothing was checked: the challenge is used up or gone.
        await decision.attempt.withdrawn();
        return { ok: false, reason: "vencido" };
      }
      await decision.attempt.succeeded();
      const user = result.response.user as LibraryUser;
      const setCookies = result.headers.getSetCookie();
      // From now on a device the owner signed in from: never held back by a flood from elsewhere.
      await devices.remember(user.id, browserId, trustDevice ? trustGiven(setCookies) : null);
      return {
        ok: true,
        setCookies,
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
      const secret = base32(new TextEncoder().encode(await secretKey(row.secret)));
      const issuer = settings.issuer ?? "Tienda";
      const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(session.email)}`;
      const query = new URLSearchParams({ secret, issuer, digits: "6", period: "30" });
      return { secret, uri: `otpauth://totp/${label}?${query}` };
    },

    async completeSetUp(input) {
      const { session, code, address, headers, secure: isSecure } = input;
      const { known, refusal, proof } = await beforeAttempt(parts, { ...input, email: session.email });
      if (refusal) return refusal;
      const decision = await beginLoginAttempt(db, {
        email: session.email,
        address,
        device: input.browserId,
        known,
        proof,
      });
      if (!decision.allowed) return gate.refused(decision);
      const digits = code.replace(/\s/g, "");
      const pending = await db
        .selectFrom("auth_two_factor")
        .select("secret")
        .where("user_id", "=", session.userId)
        .executeTakeFirst();
      if (!(await spendCode(session.userId, pending?.secret ?? null, digits)))
        return { ok: false, reason: "invalido" };
      const lib = libraries.forRequest(isSecure);
      const withAddress = withoutCookie(headers, CHALLENGE_COOKIE);
      withAddress.set(ADDRESS_HEADER, address);
      let result: SignInResponse;
      try {
        // The library swaps the set-up session for a full one when the code is right.
        result = await lib.api.verifyTOTP({
          body: { code: digits },
          headers: withAddress,
          returnHeaders: true,
        });
      } catch (error) {
        if (isRefusal(error)) return { ok: false, reason: "invalido" };
        throw error;
      }
      await decision.attempt.succeeded();
      // The account is whole now: no other session of it (one made with the password alone, by
      // anyone) becomes whole with it (decision 23). The library's answer names the set-up
      // session it replaced; the new one is the cookie it set.
      const setCookies = result.headers.getSetCookie();
      const cookie = setCookies
        .filter((c) => c.startsWith(`${sessionCookieName(isSecure)}=`))
        .map((c) => c.split(";")[0])
        .join("; ");
      const whole = (await sessions.readSession(new Headers({ cookie }), isSecure)).session;
      if (whole)
        await db
          .deleteFrom("auth_session")
          .where("user_id", "=", session.userId)
          .where("id", "<>", whole.sessionId)
          .execute();
      await devices.remember(session.userId, input.browserId ?? null);
      const codes = await lib.api.viewBackupCodes({ body: { userId: session.userId } });
      return { ok: true, recoveryCodes: codes.backupCodes, setCookies };
    },
  };
}
