import type { Database } from "~/db/database.server";
import { type Accounts, createAccounts } from "./accounts.server";
import type { AuthSettings } from "./auth-config.server";
import { createLibraries } from "./better-auth.server";
import { createDevices } from "./devices.server";
import {
  createPasswordHasher,
  type PasswordHasher,
  QUICK_HASHING_LINE,
  QUICK_SCRYPT,
} from "./password-hashing.server";
import { createPasswordSignIn, type PasswordSignInInput, type SignInResult } from "./password-sign-in.server";
import { createSecondFactor, type SecondFactor } from "./second-factor.server";
import { createSessions, type Sessions } from "./sessions.server";
import { createSignInGate, type ProofChecker } from "./sign-in-gate.server";

/**
 * Administrator sign-in, put together. better-auth does the security core (random session tokens
 * stored in the database, signed HttpOnly cookies; password hashes in its own format, made by
 * password-hashing.server.ts; the second factor with its encrypted secret, recovery codes and
 * trusted-device cookie); the modules beside this one add what the shop needs on top, one job each:
 *
 * - better-auth.server.ts: the library set up over our tables and cookies;
 * - sessions.server.ts: reading a session (absolute lifetime), signing out, the sweep;
 * - sign-in-gate.server.ts: busy and limited refusals, shared by every step below;
 * - password-sign-in.server.ts: the e-mail and password, the previous session revoked at each login;
 * - second-factor.server.ts: the code (or a recovery code) and the set-up with its secret;
 * - trusted-devices.server.ts: a trusted device's 30 days counted from the code typed;
 * - devices.server.ts: the browsers an administrator signed in from, never shut out by a flood;
 * - code-steps.server.ts: an app code works once;
 * - accounts.server.ts: the command line's work (create, new password, second factor again, list)
 *   and the one look-up of an administrator by e-mail.
 *
 * docs/decisions/0007-admin-sign-in.md and 0023-second-factor.md explain the choices.
 */

export type { AdminSummary } from "./accounts.server";
export { AdminAccountError } from "./accounts.server";
export type { AuthSettings } from "./auth-config.server";
export { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "./better-auth.server";
export type { SignInResult } from "./password-sign-in.server";
export type { CodeResult, PendingSetUp, SetUpResult } from "./second-factor.server";
export type { AdminSession } from "./sessions.server";
export type { ProofChecker } from "./sign-in-gate.server";

export interface AdminAuth extends Omit<Sessions, "byToken" | "oldestLiveStart">, SecondFactor, Accounts {
  signIn(input: PasswordSignInInput): Promise<SignInResult>;
  /**
   * Seconds to wait when this server already knows a sign-in would be refused as busy (the
   * hashing line is full, or the shop-wide ceiling was reached and has not lifted yet); null when
   * it does not. Reads nothing from the database: cheap enough to run before anything else.
   */
  busyFor(): number | null;
  /**
   * Whether this browser is some administrator's known device (decision 32): a flood never holds
   * it at the door. Remembered a minute by this server once seen.
   */
  knownDevice(browserId: string | null): Promise<boolean>;
  settings: AuthSettings;
}

export interface AdminAuthOptions {
  /** The line password hashes wait in; one per process is what bounds the hashing. */
  hasher?: PasswordHasher;
  /**
   * Checks the proofs of work an unknown device brings past the account's or the shop-wide limit
   * of failed sign-ins; without it those limits refuse (the shop asks for no proofs).
   */
  proofs?: ProofChecker | null;
}

export function createAdminAuth(
  database: Database,
  settings: AuthSettings,
  options: AdminAuthOptions = {},
): AdminAuth {
  const hasher =
    options.hasher ??
    (settings.quickPasswordHashes
      ? createPasswordHasher(QUICK_HASHING_LINE, QUICK_SCRYPT)
      : createPasswordHasher());
  const libraries = createLibraries(database, settings, hasher);
  const gate = createSignInGate(hasher);
  const sessions = createSessions(database.db, settings, libraries);
  const devices = createDevices(database.db);
  const door = { gate, devices, hasher, proofs: options.proofs ?? null };
  const secondFactor = createSecondFactor({ database, settings, libraries, sessions, ...door });
  const accounts = createAccounts({ database, libraries, hasher, sessions });
  return {
    settings,
    readSession: sessions.readSession,
    signIn: createPasswordSignIn({ database, libraries, sessions, ...door }),
    busyFor: gate.busyFor,
    knownDevice: devices.knownToAnyone,
    signOut: sessions.signOut,
    signOutEverywhere: sessions.signOutEverywhere,
    deleteEndedSessions: sessions.deleteEndedSessions,
    verifyCode: secondFactor.verifyCode,
    pendingSetUp: secondFactor.pendingSetUp,
    completeSetUp: secondFactor.completeSetUp,
    resetSecondFactor: accounts.resetSecondFactor,
    createAdmin: accounts.createAdmin,
    resetPassword: accounts.resetPassword,
    listAdmins: accounts.listAdmins,
  };
}
