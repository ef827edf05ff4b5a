import crypto from "node:crypto";
import { type Challenge, createChallenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { DEFAULT_PROOF_DIFFICULTY, type ProofDifficulty } from "~/config/proof-of-work";

/**
 * A proof of work required to start a checkout (ALTCHA, self-hosted: no third party, no puzzle).
 * The shopper's browser solves it in the background while they browse; a script that wants to
 * hold a drop must spend the same computing for every hold. Each solution is good for one
 * checkout only, from the browser it was made for (its `navegador` cookie), within a few minutes
 * (decision 30): proofs cannot be solved in bulk ahead of an opening, nor shared among cookies.
 *
 * Work: PBKDF2-SHA-256 at `cost` iterations, tried for counters until the server's chosen one
 * (between a fifth of `tries` and `tries`) is found: by default about 3 million hash iterations
 * on average, a second or two on a phone, done before the shopper reaches 'Pagar'. Checking it is
 * one HMAC (the server signs the expected key when it makes the challenge).
 */
export const PROOF_OF_WORK = {
  algorithm: "PBKDF2/SHA-256",
  /** PBKDF2 iterations of each try, and the most tries (PROOF_OF_WORK_COST, PROOF_OF_WORK_TRIES). */
  ...DEFAULT_PROOF_DIFFICULTY,
  /**
   * How long a challenge may be solved and spent: long enough for a slow phone to solve it and
   * press 'Pagar' (the page re-solves in the background a minute before, app/cart/proof-of-work.ts),
   * short enough that only the last five minutes' computing can be saved up for an opening.
   */
  validSeconds: 5 * 60,
} as const;

/** `ajeno`: solved for another browser (another `navegador` cookie) than the one checking out. */
export type ProofRefusal = "falta" | "invalido" | "ajeno" | "vencido" | "usado";

export const PROOF_MESSAGES: Record<ProofRefusal, string> = {
  falta: "No pudimos verificar tu navegador. Recarga la página e intenta de nuevo.",
  invalido: "No pudimos verificar tu navegador. Recarga la página e intenta de nuevo.",
  ajeno: "No pudimos verificar tu navegador. Recarga la página e intenta de nuevo.",
  vencido: "La verificación de tu navegador venció. Intenta de nuevo.",
  usado: "La verificación de tu navegador ya se usó. Intenta de nuevo.",
};

export interface ProofOfWork {
  /** A new challenge for this browser (its id, from the `navegador` cookie). */
  challenge(browser: string): Promise<Challenge>;
  /**
   * Checks the `X-Altcha` header of a checkout (base64 JSON `{ challenge, solution }`) from this
   * browser (null: a request without a valid cookie, which no proof was made for).
   */
  verify(
    header: string | null | undefined,
    browser: string | null,
  ): Promise<{ ok: true } | { ok: false; reason: ProofRefusal }>;
  /**
   * `verify` without spending: the checks, and the single-use key the caller must spend (with
   * `RequestLimits.onceWithin`, as `verify` spends it with `once`) before taking it as paid.
   * The front door spends it in the same transaction as the place it pays for.
   */
  check(
    header: string | null | undefined,
    browser: string | null,
  ):
    | { ok: true; singleUse: { key: string; seconds: number } }
    | { ok: false; reason: Exclude<ProofRefusal, "usado"> };
}

export interface ProofOfWorkOptions {
  difficulty?: ProofDifficulty;
  validSeconds?: number;
  /** The clock challenges are made by (tests make one already expired). */
  now?: () => number;
}

/**
 * `once(key, seconds)` answers true the first time it sees `key` within `seconds` (shared by
 * every app server: the request limits' store), so a solution cannot be replayed.
 */
export function createProofOfWork(
  secret: string,
  once: (key: string, seconds: number) => Promise<boolean>,
  options: ProofOfWorkOptions = {},
): ProofOfWork {
  const { cost, tries } = options.difficulty ?? PROOF_OF_WORK;
  const validSeconds = options.validSeconds ?? PROOF_OF_WORK.validSeconds;
  const now = options.now ?? (() => Date.now());
  const fewest = Math.max(1, Math.floor(tries / 5));
  const derive = (purpose: string) => crypto.createHmac("sha256", secret).update(purpose).digest("hex");
  const signatureSecret = derive("altcha-firma");
  const keySecret = derive("altcha-clave");
  const check: ProofOfWork["check"] = (header, browser) => {
    if (!header) return { ok: false, reason: "falta" };
    const payload = parsePayload(header);
    if (!payload || payload.challenge.parameters.algorithm !== PROOF_OF_WORK.algorithm) {
      return { ok: false, reason: "invalido" };
    }
    // Only challenges this shop made, at this shop's cost: a cheaper one would fail the signature.
    const checked = checkSolution(payload, signatureSecret, keySecret, now());
    if (checked !== null) return { ok: false, reason: checked };
    // Checked before it is spent: a proof shown by another browser stays its own browser's.
    if (browser === null || payload.challenge.parameters.data?.navegador !== browserTag(browser)) {
      return { ok: false, reason: "ajeno" };
    }
    return {
      ok: true,
      singleUse: { key: `altcha:${payload.challenge.parameters.nonce}`, seconds: validSeconds },
    };
  };
  return {
    challenge: (browser) =>
      createChallenge({
        algorithm: PROOF_OF_WORK.algorithm,
        cost,
        counter: crypto.randomInt(fewest, Math.max(fewest, tries) + 1),
        deriveKey,
        expiresAt: new Date(now() + validSeconds * 1000),
        // Signed with the rest: a proof names the browser it was made for.
        data: { navegador: browserTag(browser) },
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySecret,
      }),
    async verify(header, browser) {
      const checked = check(header, browser);
      if (!checked.ok) return checked;
      const fresh = await once(checked.singleUse.key, checked.singleUse.seconds);
      return fresh ? { ok: true } : { ok: false, reason: "usado" };
    },
    check,
  };
}

/**
 * altcha-lib's `verifySolution` for this shop's challenges (deterministic mode: the server signed
 * the expected key), done with node:crypto's synchronous HMAC. The library's own goes through
 * WebCrypto, whose every step waits for a turn of the event loop: in a drop's first second, with
 * hundreds of requests queued behind it, the few checkouts that go on to a hold — which everyone
 * else's answer waits for (server/checkout-fast-path.ts) — took hundreds of milliseconds longer.
 * Same checks, same order of trust: the challenge's signature (its parameters as altcha-lib signs
 * them: keys sorted, JSON), then its expiry, then the solution's key against the signed one.
 */
function checkSolution(
  payload: { challenge: Challenge; solution: Solution },
  signatureSecret: string,
  keySecret: string,
  nowMs: number,
): "invalido" | "vencido" | null {
  const { challenge, solution } = payload;
  const parameters = challenge.parameters;
  const hmac = (key: string, data: string | Buffer) =>
    crypto.createHmac("sha256", key).update(data).digest("hex");
  if (!sameText(challenge.signature ?? "", hmac(signatureSecret, JSON.stringify(sortKeys(parameters))))) {
    return "invalido";
  }
  if (parameters.expiresAt && parameters.expiresAt < nowMs / 1000) return "vencido";
  if (
    typeof parameters.keySignature !== "string" ||
    !/^(?:[0-9a-f]{2})+$/.test(solution.derivedKey) ||
    !Number.isInteger(solution.counter) ||
    solution.counter < 0 ||
    solution.counter > 0xffffffff
  ) {
    return "invalido";
  }
  return sameText(parameters.keySignature, hmac(keySecret, Buffer.from(solution.derivedKey, "hex")))
    ? null
    : "invalido";
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** Keys sorted at every level, undefined values left out: the JSON altcha-lib signs. */
function sortKeys(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .flatMap((key) => {
        const inner = (value as Record<string, unknown>)[key];
        return inner === undefined ? [] : [[key, sortKeys(inner)]];
      }),
  );
}

/**
 * What a challenge carries of its browser: a digest of the id, not the id, since the challenge
 * is read by the page's scripts and the cookie is kept from them (HttpOnly).
 */
function browserTag(browser: string): string {
  return crypto.createHash("sha256").update(browser).digest("base64url").slice(0, 22);
}

function parsePayload(header: string): { challenge: Challenge; solution: Solution } | null {
  if (header.length > 4_000) return null;
  try {
    const value = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as unknown;
    const { challenge, solution } = value as { challenge?: Challenge; solution?: Solution };
    const parameters = challenge?.parameters;
    if (
      typeof parameters?.nonce !== "string" ||
      typeof parameters.salt !== "string" ||
      typeof parameters.algorithm !== "string" ||
      typeof challenge?.signature !== "string" ||
      typeof solution?.counter !== "number" ||
      typeof solution.derivedKey !== "string"
    ) {
      return null;
    }
    return { challenge, solution };
  } catch {
    return null;
  }
}
