import crypto from "node:crypto";
import { type Challenge, createChallenge, type Solution, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

/**
 * A proof of work required to start a checkout (ALTCHA, self-hosted: no third party, no puzzle).
 * The shopper's browser solves it in the background while they browse; a script that wants to
 * hold a drop must spend the same computing for every hold. Each solution is good for one
 * checkout only.
 *
 * Work: PBKDF2-SHA-256 at `cost` iterations, tried for counters until the server's chosen one
 * (between counterMin and counterMax) is found: about 3 million hash iterations on average, a
 * second or two on a phone, done before the shopper reaches 'Pagar'. Checking it is one HMAC
 * (the server signs the expected key when it makes the challenge).
 */
export const PROOF_OF_WORK = {
  algorithm: "PBKDF2/SHA-256",
  cost: 1_000,
  counterMin: 1_000,
  counterMax: 5_000,
  validMinutes: 30,
} as const;

export type ProofRefusal = "falta" | "invalido" | "vencido" | "usado";

export const PROOF_MESSAGES: Record<ProofRefusal, string> = {
  falta: "No pudimos verificar tu navegador. Recarga la página e intenta de nuevo.",
  invalido: "No pudimos verificar tu navegador. Recarga la página e intenta de nuevo.",
  vencido: "La verificación de tu navegador venció. Intenta de nuevo.",
  usado: "La verificación de tu navegador ya se usó. Intenta de nuevo.",
};

export interface ProofOfWork {
  challenge(): Promise<Challenge>;
  /** Checks the `X-Altcha` header of a checkout: base64 JSON `{ challenge, solution }`. */
  verify(header: string | null | undefined): Promise<{ ok: true } | { ok: false; reason: ProofRefusal }>;
}

/**
 * `once(key, seconds)` answers true the first time it sees `key` within `seconds` (shared by
 * every app server: the request limits' store), so a solution cannot be replayed.
 */
export function createProofOfWork(
  secret: string,
  once: (key: string, seconds: number) => Promise<boolean>,
): ProofOfWork {
  const derive = (purpose: string) => crypto.createHmac("sha256", secret).update(purpose).digest("hex");
  const signatureSecret = derive("altcha-firma");
  const keySecret = derive("altcha-clave");
  return {
    challenge: () =>
      createChallenge({
        algorithm: PROOF_OF_WORK.algorithm,
        cost: PROOF_OF_WORK.cost,
        counter: crypto.randomInt(PROOF_OF_WORK.counterMin, PROOF_OF_WORK.counterMax + 1),
        deriveKey,
        expiresAt: new Date(Date.now() + PROOF_OF_WORK.validMinutes * 60_000),
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySecret,
      }),
    async verify(header) {
      if (!header) return { ok: false, reason: "falta" };
      const payload = parsePayload(header);
      if (!payload || payload.challenge.parameters.algorithm !== PROOF_OF_WORK.algorithm) {
        return { ok: false, reason: "invalido" };
      }
      // Only challenges this shop made, at this shop's cost: a cheaper one would fail the signature.
      let result: Awaited<ReturnType<typeof verifySolution>>;
      try {
        result = await verifySolution({
          challenge: payload.challenge,
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret: signatureSecret,
          hmacKeySignatureSecret: keySecret,
        });
      } catch {
        return { ok: false, reason: "invalido" };
      }
      if (result.expired) return { ok: false, reason: "vencido" };
      if (!result.verified) return { ok: false, reason: "invalido" };
      const fresh = await once(
        `altcha:${payload.challenge.parameters.nonce}`,
        PROOF_OF_WORK.validMinutes * 60,
      );
      return fresh ? { ok: true } : { ok: false, reason: "usado" };
    },
  };
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
