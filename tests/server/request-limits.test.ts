import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { LIMIT_RULES } from "~/rate-limits/request-limits.server";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";

// Drop-day limits over HTTP, on both databases: per browser tight, per address high enough for a
// crowd behind one mobile carrier, and shared by every app server of the shop.
vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-limits-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const TOO_MANY = /^Demasiados intentos seguidos\. Intenta de nuevo en \d+ (segundos?|minutos?)\.$/;
let browsers = 0;
/** A browser cookie of its own, as /api answers give one. */
const newBrowser = () => `navegador=${`prueba${String(++browsers).padStart(6, "0")}`.padEnd(22, "x")}`;

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
    return { status: res.status, message: body.message, retryAfter: res.headers.get("retry-after") };
  }

  it("one browser: 200 checkouts in a minute are refused past its allowance, with a Spanish 429 and Retry-After", async () => {
    const browser = newBrowser();
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
    expect((await checkout(first, newBrowser())).status).toBe(400);
  });

  it("a crowd of 300 browsers behind one address can all check out", async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => checkout(i % 2 ? first : second, newBrowser())),
    );
    expect(answers.filter((a) => a.status === 429)).toEqual([]);
  });

  it("a client without the browser cookie gets a small allowance per address, and the cookie from /api", async () => {
    const answers = [];
    for (let i = 0; i < LIMIT_RULES.checkout.cookieless.points + 5; i++)
      answers.push(await checkout(first, null));
    expect(answers.filter((a) => a.status !== 429)).toHaveLength(LIMIT_RULES.checkout.cookieless.points);
    // The cart drawer asks /api/cart before any checkout: that answer gives the browser its cookie.
    const cart = await fetch(`${first.url}/api/cart`);
    const cookie = cart.headers.getSetCookie().find((c) => c.startsWith("navegador="));
    expect(cookie).toMatch(
      /^navegador=[A-Za-z0-9_-]{22}; Max-Age=\d+; Path=\/; Expires=.*; HttpOnly; SameSite=Lax$/,
    );
    expect((await checkout(first, cookie?.split(";")[0] ?? "")).status).toBe(400);
  });

  it("a checkout needs a solved proof of work, good once on any server", async () => {
    const browser = newBrowser();
    const missing = await checkout(first, browser);
    expect(missing.status).toBe(400);
    expect(missing.message).toBe("No pudimos verificar tu navegador. Recarga la página e intenta de nuevo.");

    // What the shopper's browser does in the background: ask for a challenge and solve it.
    const challenge = (await (await fetch(`${first.url}/api/reto`)).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const proof = Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
    const passed = await checkout(second, browser, proof);
    expect(passed.status).toBe(400);
    expect(passed.message).toContain("carrito"); // past the guard: the route judged the (empty) cart
    const replayed = await checkout(first, browser, proof);
    expect(replayed.status).toBe(400);
    expect(replayed.message).toBe("La verificación de tu navegador ya se usó. Intenta de nuevo.");
  });

  it("challenges: a browser gets its allowance a minute, then a Spanish 429; another browser still gets one", async () => {
    const browser = newBrowser();
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
    expect((await fetch(`${first.url}/api/reto`, { headers: { cookie: newBrowser() } })).status).toBe(200);
  });

  it("the sign-in's forms share one allowance per browser: past it, the code's form gets a Spanish 429 too", async () => {
    const browser = newBrowser();
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
    const browser = newBrowser();
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
});
