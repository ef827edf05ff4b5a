import type { Database } from "~/db/database.server";
import { findAdmin } from "./accounts.server";
import {
  ADDRESS_HEADER,
  isRefusal,
  type Libraries,
  type LibraryUser,
  type SignInResponse,
  sessionCookieName,
} from "./better-auth.server";
import { withoutCookie } from "./cookie-headers";
import type { Devices } from "./devices.server";
import { beginLoginAttempt, normalizeEmail } from "./login-limits.server";
import { HASHING_BUSY_RETRY_SECONDS, HashingBusy, type PasswordHasher } from "./password-hashing.server";
import { ADMIN_ROLE } from "./password-policy";
import { TRUSTED_DEVICE_COOKIE } from "./second-factor";
import type { AdminSession, Sessions } from "./sessions.server";
import {
  type AttemptRefusal,
  beforeAttempt,
  type ProofChecker,
  type SignInGate,
} from "./sign-in-gate.server";
import { keepTrustDeadline, trustedDevice, trustGiven } from "./trusted-devices.server";

/**
 * The first step of signing in: the e-mail and password, through the sign-in gate. It ends in a
 * session (a trusted device skips the code), in the code page (the second factor is set up), or
 * in the set-up page (it is not yet: a new secret waits there).
 */

export type SignInResult =
  /** `set-up`: the account has no second factor yet; the session only reaches the set-up page. */
  | { ok: true; step: "signed-in" | "set-up"; session: AdminSession; setCookies: string[] }
  /** The password was right; the code comes next, within a short-lived challenge cookie. */
  | { ok: true; step: "code"; setCookies: string[] }
  | { ok: false; reason: "invalido" }
  /**
   * `limitado`: too many failures for this account or from this address. `ocupado`: too many
   * sign-ins across the shop (its ceiling, or the hashing line is full): nothing was checked.
   */
  | AttemptRefusal;

export interface PasswordSignInInput {
  email: string;
  password: string;
  address: string;
  headers: Headers;
  secure: boolean;
  /** The session this browser held until now (it ends: a new token at every login). */
  previousSessionId?: string | null;
  /** The browser's id from its signed `navegador` cookie; null without one. */
  browserId?: string | null;
  /** The proof of work the form brought (decision 32); null or "" for none. */
  proof?: string | null;
}

export function createPasswordSignIn(parts: {
  database: Database;
  libraries: Libraries;
  gate: SignInGate;
  sessions: Sessions;
  devices: Devices;
  proofs: ProofChecker | null;
  hasher: PasswordHasher;
}): (input: PasswordSignInInput) => Promise<SignInResult> {
  const { libraries, gate, sessions, devices, hasher } = parts;
  const { db } = parts.database;

  return async function signIn(input) {
    const { email, password, address, headers, secure: isSecure, previousSessionId } = input;
    const browserId = input.browserId ?? null;
    // Known to be busy: refused before anything is written, so a flood costs next to nothing.
    const { known, refusal, proof } = await beforeAttempt(parts, input);
    if (refusal) return refusal;
    const decision = await beginLoginAttempt(db, {
      email,
      address,
      device: browserId,
      known,
      proof,
    });
    if (!decision.allowed) return gate.refused(decision);
    const lib = libraries.forRequest(isSecure);
    // The trusted-device cookie skips the code only on the browser it was given to.
    const trustHere = known && (await devices.trustHere(headers, browserId)) !== null;
    const withAddress = trustHere ? new Headers(headers) : withoutCookie(headers, TRUSTED_DEVICE_COOKIE);
    withAddress.set(ADDRESS_HEADER, address);
    const trusted = trustHere ? await trustedDevice(db, headers) : null;
    let result: SignInResponse;
    try {
      const signInEmail = () =>
        lib.api.signInEmail({
          body: { email: normalizeEmail(email), password, rememberMe: true },
          headers: withAddress,
          returnHeaders: true,
        });
      // A device the owner used before goes to the head of the hashing line.
      result = known ? await hasher.first(signInEmail) : await signInEmail();
    } catch (error) {
      if (error instanceof HashingBusy) {
        // The line filled up meanwhile (known and unknown e-mails both hash): nothing was checked.
        await decision.attempt.withdrawn();
        return { ok: false, reason: "ocupado", retryAfterSeconds: HASHING_BUSY_RETRY_SECONDS };
      }
      // Unknown e-mail, wrong password, malformed input: all the same to the person typing.
      if (isRefusal(error)) return { ok: false, reason: "invalido" };
      throw error;
    }
    const setCookies = result.headers.getSetCookie();
    if ((result.response as { twoFactorRedirect?: boolean }).twoFactorRedirect) {
      if (!(await findAdmin(db, email))) return { ok: false, reason: "invalido" };
      // The password is right but the sign-in is not done: the attempt does not count, and the
      // account's earlier failures stay until a right code.
      await decision.attempt.withdrawn();
      if (previousSessionId) await sessions.signOut(previousSessionId, isSecure);
      return { ok: true, step: "code", setCookies };
    }
    const user = result.response.user as LibraryUser;
    if (user.role !== ADMIN_ROLE) {
      // Only administrators sign in here; the fresh session is dropped at once.
      await db.deleteFrom("auth_session").where("token", "=", result.response.token).execute();
      return { ok: false, reason: "invalido" };
    }
    const settingUp = !user.twoFactorEnabled;
    if (settingUp) {
      // A sign-in before the second factor is set up: a new secret waits for the set-up page (the
      // library asks for the password to make one; it was just typed), for this session alone.
      // Not one shown before: whoever else signed in with the password (a leaked one) and saw that
      // secret must not see the one the owner scans, nor keep a session that would become whole
      // when she finishes (decision 23). So every other session of the account ends here.
      const cookie = setCookies.find((c) => c.startsWith(`${sessionCookieName(isSecure)}=`));
      try {
        await lib.api.enableTwoFactor({
          body: { password, method: "totp" },
          headers: new Headers({ cookie: cookie?.split(";")[0] ?? "" }),
        });
      } catch (error) {
        await db.deleteFrom("auth_session").where("token", "=", result.response.token).execute();
        if (!(error instanceof HashingBusy)) throw error;
        await decision.attempt.withdrawn();
        return { ok: false, reason: "ocupado", retryAfterSeconds: HASHING_BUSY_RETRY_SECONDS };
      }
      await db
        .deleteFrom("auth_session")
        .where("user_id", "=", user.id)
        .where("token", "<>", result.response.token)
        .execute();
    }
    if (!settingUp) {
      await keepTrustDeadline(db, setCookies, trusted, user.id);
      // Signed in without a code (a trusted device): the renewed trust is bound to this browser too.
      await devices.remember(user.id, browserId, trustGiven(setCookies));
    }
    await decision.attempt.succeeded();
    // A new token at every login: the one this browser held before (if any) stops working.
    if (previousSessionId) await sessions.signOut(previousSessionId, isSecure);
    return {
      ok: true,
      step: settingUp ? "set-up" : "signed-in",
      setCookies,
      session: await sessions.byToken(result.response.token, user, settingUp),
    };
  };
}
