import type { AttemptDecision } from "./login-limits.server";
import { HASHING_BUSY_RETRY_SECONDS, type PasswordHasher } from "./password-hashing.server";

/**
 * The door every sign-in step goes through (the password, the code, the set-up): busy when the
 * hashing line is full or the shop-wide ceiling on failed logins holds, limited when this account
 * or address failed too often. This server remembers the ceiling until it lifts, so that a flood
 * is refused before anything is read from the database.
 */

/** A refused attempt, as every sign-in step answers it. */
export type AttemptRefusal = { ok: false; reason: "limitado" | "ocupado"; retryAfterSeconds: number };

export interface SignInGate {
  /**
   * Seconds to wait when this server already knows a sign-in would be refused as busy; null when
   * it does not. Reads nothing from the database.
   */
  busyFor(): number | null;
  /** A refused attempt's answer; the shop-wide ceiling also closes the gate here until it frees. */
  refused(decision: Extract<AttemptDecision, { allowed: false }>): AttemptRefusal;
}

export function createSignInGate(hasher: PasswordHasher): SignInGate {
  /** Until when the shop-wide ceiling is known to hold (refused attempts do not move it). */
  let closedUntil = 0;
  return {
    busyFor() {
      if (hasher.isFull()) return HASHING_BUSY_RETRY_SECONDS;
      const left = closedUntil - Date.now();
      return left > 0 ? Math.ceil(left / 1000) : null;
    },
    refused(decision) {
      if (!decision.everywhere)
        return { ok: false, reason: "limitado", retryAfterSeconds: decision.retryAfterSeconds };
      closedUntil = Math.max(closedUntil, decision.freeAt);
      return { ok: false, reason: "ocupado", retryAfterSeconds: decision.retryAfterSeconds };
    },
  };
}
