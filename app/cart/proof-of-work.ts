import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";
import { NEW_BROWSER_HEADER } from "~/rate-limits/proof-headers";

/**
 * The checkout's proof of work, solved in the background (the browser's own PBKDF2, off the main
 * thread) from the moment the cart has something in it, so that 'Pagar' rarely waits for it.
 * Each solution serves one checkout, from this browser (its cookie), within the server's five
 * minutes; the next one starts solving right after one is taken, and a solution not taken is
 * solved again before it goes stale, while the page is in view (decision 30).
 */
export const CHALLENGE_ENDPOINT = "/api/reto";
/** A minute under the server's five: time for a slow phone to solve the next one and send it. */
const FRESH_MS = 4 * 60_000;

type Proof = { proof: string; at: number };

/** A solved proof not yet taken, and when its challenge was asked for. */
let ready: Proof | null = null;
let solving: Promise<void> | null = null;
let refresh: ReturnType<typeof setTimeout> | undefined;

const fresh = (proof: Proof | null): proof is Proof => proof !== null && Date.now() - proof.at < FRESH_MS;

async function askChallenge(fetcher: typeof fetch) {
  const at = Date.now();
  const response = await fetcher(CHALLENGE_ENDPOINT, { headers: { accept: "application/json" } });
  // 404: this shop does not ask for one.
  if (!response.ok) return null;
  const challenge = (await response.json()) as Challenge;
  return { challenge, at, newBrowser: response.headers.has(NEW_BROWSER_HEADER) };
}

async function solved(asked: { challenge: Challenge; at: number }): Promise<Proof | null> {
  const solution = await solveChallenge({ challenge: asked.challenge, deriveKey });
  if (!solution) return null;
  return { proof: btoa(JSON.stringify({ challenge: asked.challenge, solution })), at: asked.at };
}

/** The browser a challenge was made for (a digest the server signed with it). */
const browserOf = (challenge: Challenge) => challenge.parameters.data?.navegador ?? null;

async function solve(fetcher: typeof fetch): Promise<Proof | null> {
  try {
    const first = await askChallenge(fetcher);
    if (!first) return null;
    const proof = await solved(first);
    if (!proof || !first.newBrowser) return proof;
    // Made for a cookie issued with it, which another first request may have replaced: a
    // challenge asked now is for the cookie the browser kept. Same browser: the proof stands.
    const again = await askChallenge(fetcher);
    if (!again || browserOf(again.challenge) === browserOf(first.challenge)) return proof;
    return solved(again);
  } catch {
    return null;
  }
}

/** Runs `run` now if the page is in view, else once it is shown again. */
function whenVisible(run: () => void): void {
  if (typeof document === "undefined" || !document.hidden) {
    run();
    return;
  }
  const shown = () => {
    if (document.hidden) return;
    document.removeEventListener("visibilitychange", shown);
    run();
  };
  document.addEventListener("visibilitychange", shown);
}

function start(fetcher: typeof fetch): Promise<void> {
  if (solving) return solving;
  const current = solve(fetcher).then((proof) => {
    solving = null;
    if (!proof) return;
    ready = proof;
    // Solved again before it goes stale; a hidden tab waits until it is shown (or for 'Pagar').
    clearTimeout(refresh);
    refresh = setTimeout(
      () =>
        whenVisible(() => {
          if (ready === proof) void start(fetcher);
        }),
      Math.max(0, proof.at + FRESH_MS - Date.now()),
    );
  });
  solving = current;
  return current;
}

/** Starts solving unless a fresh solution is at hand or one is under way. */
export function prepareProofOfWork(fetcher: typeof fetch = fetch): void {
  if (!fresh(ready)) void start(fetcher);
}

/**
 * The solution for this checkout (waiting for it if need be), or null when none could be had.
 * `again: false` (the 'Avísame' form, which is sent once): the next one is not solved ahead.
 */
export async function takeProofOfWork(
  fetcher: typeof fetch = fetch,
  options: { again?: boolean } = {},
): Promise<string | null> {
  if (!fresh(ready)) await start(fetcher);
  const taken = fresh(ready) ? ready.proof : null;
  ready = null;
  if (options.again ?? true) void start(fetcher);
  return taken;
}
