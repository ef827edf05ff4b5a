import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createProofOfWork } from "~/rate-limits/proof-of-work.server";
import { LIMIT_RULES } from "~/rate-limits/request-limits.server";
import {
  browserCookieOf,
  CHEAP_PROOF_OF_WORK,
  shopBrowser,
  shopBrowsers,
  solvedProof,
} from "../support/browser";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer, TEST_SESSION_SECRET } from "../support/server-process";

// Drop-day limits over HTTP, on both databases: per browser tight, per address high enough for a
// crowd behind one mobile carrier, and shared by every app server of the shop.
vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-limits-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const TOO_MANY = /^Demasiados intentos seguidos\. Intenta de nuevo en \d+ (segundos?|minutos?)\.$/;
const UNVERIFIED = "No pudimos verificar tu navegador. Recarga la página e intenta de nuevo.";
/** A signed browser cookie, as the shop issues them: `navegador=<22 characters>.<43 characters>`. */
const SIGNED = /^navegador=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;
/** The browser id a cookie carries (what the shop stores). */
const idOf = (cookie: string) => cookie.slice("navegador=".length).split(".")[0] ?? "";

describeEachDatabase("request limits", (harness) => {
  const servers: RunningServer[] = [];
  let first: RunningServer;
  let second: RunningServer;

  beforeAll(async () => {
    await harness.fresh();
    const env = (name: string) => ({
      DATA_DIR: path.join(tmp, `${harness.dialect}-${name}`),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      REQUEST_LIMITS: "true",
      CHECKOUT_CHALLENGE: "true",
      ...CHEAP_PROOF_OF_WORK,
    });
    first = await startServer(env("a"));
    servers.push(first);
    // Two app servers on one database (on SQLite, two processes on one file).
    second = await startServer(env("b"));
    servers.push(second);
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  /**
   * A checkout of an empty cart: refused (400) for want of a proof of work, or by the route when
   * it has one, but counted by the limits first.
   */
  async function checkout(server: RunningServer, cookie: string | null, proof?: string) {
    const res = await fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: server.url,
        ...(cookie ? { cookie } : {}),
        ...(proof ? { "x-altcha": proof } : {}),
      },
      body: JSON.stringify({ cart: [] }),
    });
    const body = (await res.json()) as { message: string };
    return {
      status: res.status,
      message: body.message,
      retryAfter: res.headers.get("retry-after"),
      proofRefused: res.headers.get("x-reto-rechazado"),
      newCookie: browserCookieOf(res),
    };
  }

  it("one browser: 200 checkouts in a minute are refused past its allowance, with a Spanish 429 and Retry-After", async () => {
    const browser = await shopBrowser(first.url);
    const answers = [];
    for (let i = 0; i < 200; i++) answers.push(await checkout(i % 2 ? first : second, browser));
    const refused = answers.filter((a) => a.status === 429);
    const passed = answers.filter((a) => a.status !== 429);
    // Counted across both servers: the allowance is the shop's, not each server's.
    expect(passed).toHaveLength(LIMIT_RULES.checkout.browser.points);
    expect(refused).toHaveLength(200 - LIMIT_RULES.checkout.browser.points);
    for (const answer of refused) {
      expect(answer.message).toMatch(TOO_MANY);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    }
    // Another browser at the same address is not held back by it.
    expect((await checkout(first, await shopBrowser(second.url))).status).toBe(400);
  });

  it("a crowd of 300 browsers behind one address can all check out", async () => {
    const crowd = await shopBrowsers(first.url, 300);
    const answers = await Promise.all(crowd.map((browser, i) => checkout(i % 2 ? first : second, browser)));
    expect(answers.filter((a) => a.status === 429)).toEqual([]);
  });

  it("a checkout needs a solved proof of work, good once on any server", async () => {
    const browser = await shopBrowser(first.url);
    const missing = await checkout(first, browser);
    expect(missing.status).toBe(400);
    expect(missing.message).toBe(UNVERIFIED);
    expect(missing.proofRefused).toBe("falta");

    // What the shopper's browser does in the background: ask for a challenge and solve it.
    const { proof } = await solvedProof(first.url, browser);
    const passed = await checkout(second, browser, proof);
    expect(passed.status).toBe(400);
    expect(passed.message).toContain("carrito"); // past the guard: the route judged the (empty) cart
    expect(passed.proofRefused).toBeNull();
    const replayed = await checkout(first, browser, proof);
    expect(replayed.status).toBe(400);
    expect(replayed.message).toBe("La verificación de tu navegador ya se usó. Intenta de nuevo.");
    expect(replayed.proofRefused).toBe("usado");
  });

  it("a proof is its browser's: refused from another browser and from a cookieless or forged one, still good for its own", async () => {
    const ana = await shopBrowser(first.url);
    const luz = await shopBrowser(second.url);
    const { proof } = await solvedProof(first.url, ana);
    for (const other of [luz, null, `navegador=${idOf(ana)}.${"A".repeat(43)}`]) {
      const refused = await checkout(second, other, proof);
      expect(refused.status).toBe(400);
      expect(refused.message).toBe(UNVERIFIED);
      expect(refused.proofRefused).toBe("ajeno");
    }
    // Refused without being spent: Ana's checkout goes past the guard with it.
    const hers = await checkout(first, ana, proof);
    expect(hers.message).toContain("carrito");
  });

  it("/api/reto gives a browser without a cookie its signed cookie and a challenge for it, and says so", async () => {
    const res = await fetch(`${first.url}/api/reto`);
    const cookie = browserCookieOf(res);
    expect(cookie).toMatch(SIGNED);
    expect(res.headers.get("x-navegador-nuevo")).toBe("1");
    const challenge = await res.json();
    const solution = await solveChallenge({ challenge, deriveKey });
    const proof = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    expect((await checkout(second, cookie, proof)).message).toContain("carrito");
    // A browser with its cookie is not told it is new.
    const again = await fetch(`${first.url}/api/reto`, { headers: { cookie: cookie ?? "" } });
    expect(again.headers.get("x-navegador-nuevo")).toBeNull();
    expect(browserCookieOf(again)).toBeNull();
    await again.arrayBuffer();
  });

  it("a proof solved before its five minutes ran out is refused as expired: proofs cannot be saved up for an opening", async () => {
    const browser = await shopBrowser(first.url);
    // A challenge this shop made six minutes ago, for this browser: signed as the server signs
    // (same code, the test servers' secret), with the clock set back.
    const earlier = createProofOfWork(TEST_SESSION_SECRET, async () => true, {
      difficulty: { cost: 1, tries: 20 },
      now: () => Date.now() - 6 * 60_000,
    });
    const challenge = await earlier.challenge(idOf(browser));
    const solution = await solveChallenge({ challenge, deriveKey });
    const proof = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    const refused = await checkout(second, browser, proof);
    expect(refused.status).toBe(400);
    expect(refused.message).toBe("La verificación de tu navegador venció. Intenta de nuevo.");
    expect(refused.proofRefused).toBe("vencido");
    // The same made four minutes ago is still good: the server's checks are the real ones.
    const recent = createProofOfWork(TEST_SESSION_SECRET, async () => true, {
      difficulty: { cost: 1, tries: 20 },
      now: () => Date.now() - 4 * 60_000,
    });
    const fresh = await recent.challenge(idOf(browser));
    const freshSolution = await solveChallenge({ challenge: fresh, deriveKey });
    const freshProof = Buffer.from(JSON.stringify({ challenge: fresh, solution: freshSolution })).toString(
      "base64",
    );
    expect((await checkout(first, browser, freshProof)).message).toContain("carrito");
  });

  it("challenges: a browser gets its allowance a minute, then a Spanish 429; another browser still gets one", async () => {
    const browser = await shopBrowser(first.url);
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT_RULES.challenge.browser.points; i++) {
      statuses.push(
        (await fetch(`${i % 2 ? first.url : second.url}/api/reto`, { headers: { cookie: browser } })).status,
      );
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    const refused = await fetch(`${first.url}/api/reto`, { headers: { cookie: browser } });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(TOO_MANY);
    const another = await shopBrowser(second.url);
    expect((await fetch(`${first.url}/api/reto`, { headers: { cookie: another } })).status).toBe(200);
  });

  it("the sign-in's forms share one allowance per browser: past it, the code's form gets a Spanish 429 too", async () => {
    const browser = await shopBrowser(first.url);
    const post = (server: RunningServer, pathname: string) =>
      fetch(`${server.url}${pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          cookie: browser,
          origin: server.url,
          accept: "text/html",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ codigo: "000000" }),
      });
    const forms = ["/login/codigo", "/login/configurar", "/login/codigo.data"];
    for (let i = 0; i < LIMIT_RULES.login.browser.points; i++) {
      const res = await post(i % 2 ? second : first, forms[i % forms.length] ?? "/login/codigo");
      expect(res.status).not.toBe(429);
    }
    const refused = await post(first, "/login/codigo");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain("Demasiados intentos seguidos");
  });

  it("/cancel past a browser's allowance: a Spanish 429 page", async () => {
    const browser = await shopBrowser(second.url);
    let last: Response | undefined;
    for (let i = 0; i <= LIMIT_RULES.cancel.browser.points; i++) {
      last = await fetch(`${second.url}/cancel`, { headers: { cookie: browser, accept: "text/html" } });
      if (i < LIMIT_RULES.cancel.browser.points) expect(last.status).toBe(200);
    }
    expect(last?.status).toBe(429);
    const html = (await last?.text()) ?? "";
    expect(html).toContain('lang="es-MX"');
    expect(html).toContain("Demasiados intentos seguidos");
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  // Last: it spends the address's cookieless allowance for this minute, which the tests above
  // use (a proof shown without a cookie).
  it("a client without the browser cookie, or with one the shop did not sign, gets a small allowance per address, and a signed cookie from /api", async () => {
    // Made-up, altered, another shop's, the old unsigned format: all the same as no cookie.
    const real = await shopBrowser(first.url);
    const forged = [
      null,
      "navegador=prueba000001xxxxxxxxxx",
      `navegador=${"A".repeat(22)}.${"B".repeat(43)}`,
      `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`,
      `navegador=${idOf(await shopBrowser(first.url))}.${real.split(".")[1]}`,
    ];
    const answers = [];
    for (let i = 0; i < LIMIT_RULES.checkout.cookieless.points + 5; i++)
      answers.push(await checkout(i % 2 ? first : second, forged[i % forged.length] ?? null));
    // One allowance for them all (the tests above spent two of it): were any of them a browser,
    // none would be refused.
    const passed = answers.filter((a) => a.status !== 429).length;
    expect(passed).toBeLessThanOrEqual(LIMIT_RULES.checkout.cookieless.points);
    expect(answers.slice(passed).every((a) => a.status === 429)).toBe(true);
    expect(answers.length - passed).toBeGreaterThanOrEqual(5);
    // Each is given a new, signed cookie with its answer, as a request without one is.
    for (const answer of answers) expect(answer.newCookie).toMatch(SIGNED);
    expect(new Set(answers.map((a) => a.newCookie)).size).toBe(answers.length);
    // The cart drawer asks /api/cart before any checkout: that answer gives the browser its cookie.
    const cart = await fetch(`${first.url}/api/cart`);
    const cookie = cart.headers.getSetCookie().find((c) => c.startsWith("navegador="));
    expect(cookie).toMatch(
      /^navegador=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; Expires=.*; HttpOnly; SameSite=Lax$/,
    );
    const signed = await checkout(first, cookie?.split(";")[0] ?? "");
    expect(signed.status).toBe(400);
    // A browser the shop knows: no new cookie.
    expect(signed.newCookie).toBeNull();
    // The one the forged cookie was cut from is still good.
    expect((await checkout(second, real)).status).toBe(400);
  });
});
