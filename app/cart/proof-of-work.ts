import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";

/**
 * The checkout's proof of work, solved in the background (the browser's own PBKDF2, off the main
 * thread) from the moment the cart has something in it, so that 'Pagar' rarely waits for it.
 * Each solution serves one checkout; the next one starts solving right after it is taken.
 */
export const CHALLENGE_ENDPOINT = "/api/reto";
/** A little under the server's 30 minutes, so a solution is never sent as it expires. */
const FRESH_MS = 25 * 60_000;

let pending: { solved: Promise<string | null>; startedAt: number } | null = null;

async function solve(fetcher: typeof fetch): Promise<string | null> {
  try {
    const response = await fetcher(CHALLENGE_ENDPOINT, { headers: { accept: "application/json" } });
    // 404: this shop does not ask for one.
    if (!response.ok) return null;
    const challenge = (await response.json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) return null;
    return btoa(JSON.stringify({ challenge, solution }));
  } catch {
    return null;
  }
}

/** Starts solving if nothing fresh is under way. */
export function prepareProofOfWork(fetcher: typeof fetch = fetch): void {
  if (pending && Date.now() - pending.startedAt < FRESH_MS) return;
  pending = { solved: solve(fetcher), startedAt: Date.now() };
}

/** The solution for this checkout (waiting for it if need be), or null when none could be had. */
export async function takeProofOfWork(fetcher: typeof fetch = fetch): Promise<string | null> {
  prepareProofOfWork(fetcher);
  const solved = await (pending as NonNullable<typeof pending>).solved;
  pending = null;
  prepareProofOfWork(fetcher);
  return solved;
}
