/**
 * How hard the checkout's proof of work is (app/rate-limits/proof-of-work.server.ts): each try is
 * a PBKDF2-SHA-256 of `cost` iterations, and a solution takes between a fifth of `tries` and
 * `tries` tries. The shop's default costs a phone a second or two; benchmarks and tests lower it
 * (PROOF_OF_WORK_COST, PROOF_OF_WORK_TRIES) so hundreds of browsers can solve real proofs the
 * server really checks without minutes of computing.
 */
export interface ProofDifficulty {
  cost: number;
  tries: number;
}

export const DEFAULT_PROOF_DIFFICULTY: ProofDifficulty = { cost: 1_000, tries: 5_000 };
