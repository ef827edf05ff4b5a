import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AdminAuth } from "~/auth/auth.server";
import { type Database, openDatabase } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { testAdminAuth } from "../support/admin-http";
import { CHEAP_PROOF_OF_WORK, shopBrowser, solvedProof } from "../support/browser";
import { describeEachDatabase } from "../support/databases";
import { setUpSecondFactor } from "../support/second-factor";
import { type RunningServer, startServer } from "../support/server-process";
import { unusedCode } from "../support/totp";

/*
 * The owner's door (decision 32), with real app processes: a flood of wrong passwords from many
 * addresses never keeps the owner out of a device she signed in from before; a new device is
 * asked for a proof of work instead of being locked out; and an app code works once, across app
 * servers.
 */

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-owner-door-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const PASSWORD = "contraseña de prueba larga";

interface Answer {
  status: number;
  text: string;
  location: string | null;
  cookies: string[];
  ms: number;
}

/** A form post from `address` (TRUST_PROXY is on) with the browser's cookies, as the page sends it. */
async function post(
  server: RunningServer,
  pathname: string,
  fields: Record<string, string>,
  { cookie = "", address }: { cookie?: string; address: string },
): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${server.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: server.url,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": address,
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    // React Router's data requests answer a redirect as 202, with the place in the body.
    location: res.headers.get("location") ?? text.match(/"redirect","([^"]+)"/)?.[1] ?? null,
    cookies: res.headers.getSetCookie(),
    ms: performance.now() - started,
  };
}

/** The `name=value` pair of a cookie an answer set. */
const cookieOf = (answer: Answer, name: string) =>
  answer.cookies.find((c) => c.startsWith(`${name}=`))?.split(";")[0] ?? "";

/**
 * Until `stop`, wrong passwords from `addresses` addresses, `atOnce` in flight, each lane pausing
 * `pauseMs` between its posts: half for `email`, half for made-up accounts (which only the
 * shop-wide ceiling counts together). The answers' statuses.
 */
function flood(server: RunningServer, email: string, addresses: number, atOnce: number, pauseMs: number) {
  let running = true;
  const statuses: number[] = [];
  const loops = Array.from({ length: atOnce }, async (_, lane) => {
    for (let i = 0; running; i++) {
      const address = `203.0.113.${((lane + i * atOnce) % addresses) + 1}`;
      // Half as a page with JavaScript would send it, half as a plain form.
      const pathname = i % 2 ? "/login.data" : "/login";
      const answer = await post(
        server,
        pathname,
        { email: lane % 2 ? email : `nadie-${lane}-${i}@example.com`, password: `adivinanza-${lane}-${i}` },
        { address },
      );
      statuses.push(answer.status);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  });
  return {
    statuses,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe("a flood of wrong passwords from 50 addresses", () => {
  let server: RunningServer;
  let database: Database;
  let auth: AdminAuth;
  const email = `duena-${newId(6)}@example.com`;
  let secret = "";

  beforeAll(async () => {
    const dir = path.join(tmp, "flood");
    // Two app processes, the shop's request limits, and proofs of work (cheap to solve here).
    server = await startServer({
      DATA_DIR: dir,
      DEMO_DATA: "false",
      TRUST_PROXY: "true",
      WEB_CONCURRENCY: "2",
      REQUEST_LIMITS: "true",
      CHECKOUT_CHALLENGE: "true",
      ...CHEAP_PROOF_OF_WORK,
      // A flood fills the line only when each hash takes the shop's real time.
      QUICK_PASSWORD_HASHES: "false",
    });
    database = await openDatabase({ kind: "sqlite", file: path.join(dir, "shop.db") });
    auth = testAdminAuth(server, database);
    await auth.createAdmin({ email, name: "Dueña", password: PASSWORD });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.close();
  });

  /** The password and then the code, as the pages post them from this browser; the last answer. */
  async function signIn(cookie: string, address: string, proofs: () => Promise<string> = async () => "") {
    const password = await post(server, "/login.data", { email, password: PASSWORD }, { cookie, address });
    if (password.location !== "/login/codigo") return { step: "password", answer: password };
    const challenge = cookieOf(password, "admin.two_factor");
    const withChallenge = `${cookie}; ${challenge}`;
    const code = await post(
      server,
      "/login/codigo.data",
      { code: await unusedCode(secret), prueba: await proofs() },
      { cookie: withChallenge, address },
    );
    return { step: "code", answer: code, password };
  }

  it("the owner on a device she used before signs in at once, with the right password and code; on a new device she is slowed, not locked out", async () => {
    // Last week, from her phone: its browser cookie, her first sign-in, and the app set up there.
    const phone = await shopBrowser(server.url);
    const first = await post(
      server,
      "/login",
      { email, password: PASSWORD },
      { cookie: phone, address: "198.51.100.7" },
    );
    expect(first.location).toBe("/login/configurar");
    const setUpSession = `${phone}; ${cookieOf(first, "sesion_admin")}`;
    const page = await (
      await fetch(`${server.url}/login/configurar`, { headers: { cookie: setUpSession } })
    ).text();
    // The secret as the page shows it to type by hand, in groups of four.
    secret = (page.match(/>([A-Z2-7]{4}(?: [A-Z2-7]{1,4})+)</)?.[1] ?? "").replace(/ /g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
    const setUp = await post(
      server,
      "/login/configurar",
      { code: await unusedCode(secret) },
      { cookie: setUpSession, address: "198.51.100.7" },
    );
    expect(setUp.text).toContain("Guarda tus códigos de recuperación");

    // Over a hundred a second (the attack seen was about 86), on the same two cores as the shop.
    const attack = flood(server, email, 50, 12, 20);
    const floodStarted = performance.now();
    try {
      // The flood is under way: the account's failures and the shop-wide ceiling are past their limits.
      await vi.waitFor(() => expect(attack.statuses.filter((s) => s === 429).length).toBeGreaterThan(60), {
        timeout: 20_000,
        interval: 100,
      });
      const refusedBefore = attack.statuses.filter((s) => s === 429).length;

      // From her phone: the password, then the code, each answered at once, and she is in.
      const known = await signIn(phone, "198.51.100.7");
      expect(known.password?.status, known.answer.text).toBe(202);
      expect(known.answer.location, known.answer.text).toBe("/admin/orders");
      const session = cookieOf(known.answer, "sesion_admin");
      expect(session).toMatch(/^sesion_admin=./);
      expect(Math.max(known.password?.ms ?? 0, known.answer.ms)).toBeLessThan(3_000);
      const orders = await fetch(`${server.url}/admin/orders`, { headers: { cookie: session } });
      expect(orders.status).toBe(200);
      expect(await orders.text()).toContain("Pedidos");
      // Without JavaScript too (the plain form, which the front door refuses for others while busy).
      const plain = await post(
        server,
        "/login",
        { email, password: PASSWORD },
        { cookie: phone, address: "198.51.100.7" },
      );
      expect(plain.status, plain.text).toBe(302);
      expect(plain.location).toBe("/login/codigo");

      // From a laptop she never used: asked for a proof of work, with the reason, not locked out.
      const laptop = await shopBrowser(server.url);
      const asked = await post(
        server,
        "/login.data",
        { email, password: PASSWORD },
        { cookie: laptop, address: "198.51.100.8" },
      );
      expect(asked.status).toBe(429);
      expect(asked.text).toContain("tu navegador debe resolver una verificación");
      // Her page solves one (as the sign-in page does on its own) and sends the form again.
      const proof = async () => (await solvedProof(server.url, laptop)).proof;
      const slowed = await post(
        server,
        "/login.data",
        { email, password: PASSWORD, prueba: await proof() },
        { cookie: laptop, address: "198.51.100.8" },
      );
      expect(slowed.location, slowed.text).toBe("/login/codigo");
      const challenge = cookieOf(slowed, "admin.two_factor");
      const code = await post(
        server,
        "/login/codigo.data",
        { code: await unusedCode(secret), prueba: await proof() },
        { cookie: `${laptop}; ${challenge}`, address: "198.51.100.8" },
      );
      expect(code.location, code.text).toBe("/admin/orders");
      // The flood went on all along, refused.
      expect(attack.statuses.filter((s) => s === 429).length).toBeGreaterThan(refusedBefore);
    } finally {
      await attack.stop();
    }
    const seconds = (performance.now() - floodStarted) / 1000;
    console.log(
      `flood: ${attack.statuses.length} wrong passwords in ${seconds.toFixed(1)} s (${(attack.statuses.length / seconds).toFixed(0)}/s) from 50 addresses; refused ${attack.statuses.filter((s) => s === 429).length}, checked ${attack.statuses.filter((s) => s === 401).length}`,
    );
    // The flood got nowhere: every answer a refusal, nothing but 401 and 429, never a 5xx.
    expect(attack.statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    const sessions = await database.db
      .selectFrom("auth_session as s")
      .innerJoin("auth_user as u", "u.id", "s.user_id")
      .select("s.ip_address")
      .where("u.email", "=", email)
      .execute();
    expect(sessions.every((s) => String(s.ip_address).startsWith("198.51.100."))).toBe(true);
  });
});

describeEachDatabase("an app code works once, across app servers", (harness) => {
  const servers: RunningServer[] = [];
  let auth: AdminAuth;

  beforeAll(async () => {
    const database = await harness.fresh();
    // Two servers on one database: the same SQLite file, or the same PostgreSQL database.
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServer({
          DATA_DIR: path.join(tmp, `code-${harness.dialect}-${i}`),
          DATABASE_URL: harness.lastUrl(),
          DEMO_DATA: "false",
          DEMO_PAYMENTS: "true",
        }),
      );
    }
    auth = testAdminAuth(servers[0] as RunningServer, database);
    return async () => {
      await Promise.all(servers.map((s) => s.stop()));
    };
  });

  it("accepted on one server, the same code is refused on the other, even on a new sign-in", async () => {
    const email = `duena-${newId(6)}@example.com`;
    await auth.createAdmin({ email, name: "Dueña", password: PASSWORD });
    const { secret } = await setUpSecondFactor(auth, { email, password: PASSWORD });
    const [first, second] = servers as [RunningServer, RunningServer];
    const passwordOn = async (server: RunningServer) => {
      const answer = await post(server, "/login", { email, password: PASSWORD }, { address: "127.0.0.1" });
      expect(answer.location).toBe("/login/codigo");
      return cookieOf(answer, "admin.two_factor");
    };
    const code = await unusedCode(secret);
    const onFirst = await post(
      first,
      "/login/codigo",
      { code },
      { cookie: await passwordOn(first), address: "127.0.0.1" },
    );
    expect(onFirst.location, onFirst.text).toBe("/admin/orders");
    // Seen over a shoulder, typed on the other server within the same 30 seconds: refused.
    const onSecond = await post(
      second,
      "/login/codigo",
      { code },
      { cookie: await passwordOn(second), address: "127.0.0.1" },
    );
    expect(onSecond.status).toBe(401);
    expect(onSecond.text).toContain("Código incorrecto");
    expect(cookieOf(onSecond, "sesion_admin")).toBe("");
    // The app's next code works there.
    const next = await post(
      second,
      "/login/codigo",
      { code: await unusedCode(secret) },
      { cookie: await passwordOn(second), address: "127.0.0.1" },
    );
    expect(next.location, next.text).toBe("/admin/orders");
  });
});
