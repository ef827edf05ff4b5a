import type { Devices } from "./devices.server";
import type { AttemptDecision } from "./login-limits.server";
import { HASHING_BUSY_RETRY_SECONDS, type PasswordHasher } from "./password-hashing.server";

/**
 * The door every sign-in step goes through (the password, the code, the set-up): busy when the
 * hashing line is full or the shop-wide ceiling on failed logins holds, limited when this account,
 * device or address failed too often, asked for a proof of work past the account's or the
 * shop-wide limit when the shop asks for them (decision 32). This server remembers the ceiling
 * until it lifts, so that a flood is refused before anything is read from the database; a device
 * the owner signed in from before is never held at it.
 */

/**
 * A refused attempt, as every sign-in step answers it. `prueba`: it may go through with a proof
 * of work (the page solves one and sends the form again).
 */
export type AttemptRefusal = {
  ok: false;
  reason: "limitado" | "ocupado" | "prueba";
  retryAfterSeconds: number;
};

export interface SignInGate {
  /**
   * Seconds to wait when this server already knows a sign-in would be refused as busy, unless it
   * comes from a known device (or, where the shop asks for them, brings a proof of work); null
   * when it does not. Reads nothing from the database.
   */
  busyFor(): number | null;
  /** Seconds to wait while the hashing line is full, for everyone; null when it is not. */
  hashingBusyFor(): number | null;
  /** A refused attempt's answer; the shop-wide ceiling also closes the gate here until it frees. */
  refused(decision: Extract<AttemptDecision, { allowed: false }>): AttemptRefusal;
  /**
   * What an unknown device is told before anything is read while the gate is closed: `prueba`
   * when `proofs` (the shop asks for them), else `ocupado`; null while it is open.
   */
  closedTo(proofs: boolean): AttemptRefusal | null;
}

export function createSignInGate(hasher: PasswordHasher): SignInGate {
  /** Until when the shop-wide ceiling is known to hold (refused attempts do not move it). */
  let closedUntil = 0;
  const closedFor = () => {
    const left = closedUntil - Date.now();
    return left > 0 ? Math.ceil(left / 1000) : null;
  };
  const hashingBusyFor = () => (hasher.isFull() ? HASHING_BUSY_RETRY_SECONDS : null);
  return {
    busyFor: () => hashingBusyFor() ?? closedFor(),
    hashingBusyFor,
    refused(decision) {
      if (decision.everywhere) closedUntil = Math.max(closedUntil, decision.freeAt);
      const reason = decision.proof ? "prueba" : decision.everywhere ? "ocupado" : "limitado";
      return { ok: false, reason, retryAfterSeconds: decision.retryAfterSeconds };
    },
    closedTo(proofs) {
      const wait = closedFor();
      if (wait === null) return null;
      return { ok: false, reason: proofs ? "prueba" : "ocupado", retryAfterSeconds: wait };
    },
  };
}

/** Checks a proof of work made for a browser, spending it (app/rate-limits: the same as checkout's). */
export interface ProofChecker {
  spend(proof: string, browserId: string | null): Promise<boolean>;
}

/**
 * Where a sign-in step stands before anything is written: whether this browser signed in to the
 * account before, a refusal when the server already knows it must refuse (an unknown device while
 * the hashing line is full, or while the shop-wide ceiling holds and it brings no good proof of
 * work), and how the attempt spends its proof if it comes to need one. While the ceiling holds a
 * proof is checked here, before any write: a junk one costs the server an HMAC, not a row.
 */
export async function beforeAttempt(
  parts: { devices: Devices; gate: SignInGate; proofs: ProofChecker | null },
  input: { email: string; browserId?: string | null; proof?: string | null },
): Promise<{ known: boolean; refusal: AttemptRefusal | null; proof: (() => Promise<boolean>) | null }> {
  const { devices, gate, proofs } = parts;
  const browserId = input.browserId ?? null;
  const known = await devices.knownFor(input.email, browserId);
  const lazy = proofs ? async () => Boolean(input.proof) && proofs.spend(input.proof ?? "", browserId) : null;
  if (known) return { known, refusal: null, proof: lazy };
  const hashing = gate.hashingBusyFor();
  if (hashing !== null)
    return { known, refusal: { ok: false, reason: "ocupado", retryAfterSeconds: hashing }, proof: null };
  const closed = gate.closedTo(proofs !== null);
  if (!closed) return { known, refusal: null, proof: lazy };
  if (proofs && input.proof && (await proofs.spend(input.proof, browserId))) {
    return { known, refusal: null, proof: async () => true };
  }
  return { known, refusal: closed, proof: null };
}
