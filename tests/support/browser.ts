import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

/*
 * A browser as the shop sees one: the signed `navegador` cookie only the shop issues
 * (app/rate-limits/browser-cookie.server.ts), and proofs of work solved for it. Tests and
 * benchmarks ask the shop for them over HTTP, as a real browser does: nothing is made up.
 */

/** Fast proofs for test servers: set with CHECKOUT_CHALLENGE=true (app/config/proof-of-work.ts). */
export const CHEAP_PROOF_OF_WORK = { PROOF_OF_WORK_COST: "1", PROOF_OF_WORK_TRIES: "20" } as const;

/** The `navegador=…` pair from an answer's Set-Cookie, or null. */
export function browserCookieOf(response: Response): string | null {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("navegador="));
  return cookie?.split(";")[0] ?? null;
}

/**
 * A new browser's cookie (`navegador=…`, for a Cookie header), from the shop: the answer of its
 * first /api request (the cart drawer's /api/cart), as every browser gets it.
 */
export async function shopBrowser(url: string): Promise<string> {
  const response = await fetch(`${url}/api/cart`, { headers: { accept: "application/json" } });
  await response.arrayBuffer();
  const cookie = browserCookieOf(response);
  if (!cookie) throw new Error(`${url}/api/cart gave no browser cookie (status ${response.status})`);
  return cookie;
}

/** `n` browsers' cookies from the shop, asked a few at a time. */
export async function shopBrowsers(url: string, n: number, atOnce = 20): Promise<string[]> {
  const cookies: string[] = [];
  while (cookies.length < n) {
    const batch = Math.min(atOnce, n - cookies.length);
    cookies.push(...(await Promise.all(Array.from({ length: batch }, () => shopBrowser(url)))));
  }
  return cookies;
}

/**
 * What the page does in the background: a challenge from /api/reto for this browser (its cookie;
 * without one, the shop issues one with the challenge), solved. Returns the `X-Altcha` header
 * and the cookie the challenge was made for.
 */
export async function solvedProof(
  url: string,
  cookie: string | null,
): Promise<{ proof: string; cookie: string }> {
  const response = await fetch(`${url}/api/reto`, {
    headers: { accept: "application/json", ...(cookie ? { cookie } : {}) },
  });
  if (!response.ok) throw new Error(`${url}/api/reto answered ${response.status}`);
  const challenge = (await response.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("the challenge was not solved");
  return {
    proof: Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"),
    cookie: browserCookieOf(response) ?? cookie ?? "",
  };
}
