import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAdminAuth } from "~/auth/auth.server";
import { LOGIN_LIMITS } from "~/auth/login-limits.server";
import { newId } from "~/lib/ids";
import { copySqliteTemplate, describeEachDatabase } from "../support/databases";
import { logLines } from "../support/log-lines";
import { type RunningServer, startServer } from "../support/server-process";

// Password guessing from many addresses at once: the shop refuses what it cannot afford to check,
// at once, in Spanish, with 429 and Retry-After, and never answers 5xx.

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-login-flood-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const PASSWORD = "contraseña de prueba larga";
const BUSY = "Hay demasiados intentos de inicio de sesión en este momento";

/**
 * Posts the login form from `address` (TRUST_PROXY is on): as a browser without JavaScript does,
 * or, with `/login.data`, as React Router's own request from a browser with it.
 */
async function postLogin(
  server: RunningServer,
  fields: { email: string; password: string; address: string },
  pathname = "/login",
) {
  const started = performance.now();
  const res = await fetch(`${server.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: server.url,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": fields.address,
    },
    body: new URLSearchParams({ email: fields.email, password: fields.password }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    retryAfter: Number(res.headers.get("retry-after")),
    cookies: res.headers.getSetCookie(),
    text,
    ms: performance.now() - started,
  };
}

/**
 * The log lines about refusals because the shop is busy, as "message from address"; and every
 * line is JSON, with no error objects or stack traces anywhere.
 */
function busyLines(server: RunningServer): string[] {
  const lines = logLines(server.output());
  expect(lines.filter((line) => line.plain)).toEqual([]);
  expect(lines.filter((line) => "err" in line || /Error|\\n\s+at /.test(JSON.stringify(line)))).toEqual([]);
  return lines
    .filter((line) => line.msg.startsWith("Inicio de sesión rechazado (tienda ocupada)"))
    .map((line) => `${line.msg} desde ${line.address}`);
}

describe("many wrong passwords at the same moment", () => {
  let server: RunningServer;
  beforeAll(async () => {
    copySqliteTemplate(path.join(tmp, "line", "shop.db"));
    // The shop's own hashing: a line of hashes at full cost is what is tested.
    server = await startServer({
      DATA_DIR: path.join(tmp, "line"),
      DEMO_DATA: "false",
      TRUST_PROXY: "true",
      QUICK_PASSWORD_HASHES: "false",
    });
    // The first answers load the pages' code: not what is timed here.
    await (await fetch(`${server.url}/login`)).text();
    await postLogin(server, { email: "", password: "", address: "198.18.6.1" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("are checked a few at a time; past a short line the rest are refused at once, without hashing", async () => {
    const attempts = 40;
    const answers = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        postLogin(server, {
          email: `nadie-${i}@example.com`,
          password: `adivinanza ${i}`,
          address: `198.18.7.${i + 1}`,
        }),
      ),
    );
    const checked = answers.filter((a) => a.status === 401);
    const refused = answers.filter((a) => a.status === 429);
    expect(checked.length + refused.length, JSON.stringify(answers.map((a) => a.status))).toBe(attempts);
    // A few hashing and eight waiting at most: with every request arriving together, most wait for nothing.
    expect(refused.length).toBeGreaterThanOrEqual(10);
    for (const answer of refused) {
      expect(answer.text).toContain(BUSY);
      expect(answer.retryAfter).toBeGreaterThan(0);
      expect(answer.cookies).toEqual([]);
    }
    // Refused at once: before the slowest checked answer, which waited for its turn in the line.
    const slowestChecked = Math.max(...checked.map((a) => a.ms));
    expect(Math.max(...refused.map((a) => a.ms))).toBeLessThan(slowestChecked);
    // The first refusal is logged; the rest are counted, not written one by one.
    expect(busyLines(server)).toEqual([expect.stringMatching(/ desde 198\.18\.7\.\d+$/)]);
  });
});

describeEachDatabase("a shop-wide ceiling on failed logins", (harness) => {
  const servers: RunningServer[] = [];
  let email = "";
  beforeAll(async () => {
    const database = await harness.fresh();
    // On PostgreSQL two app servers share the database: the ceiling holds across them.
    const count = harness.dialect === "postgres" ? 2 : 1;
    for (let i = 0; i < count; i++) {
      servers.push(
        await startServer({
          DATA_DIR: path.join(tmp, `${harness.dialect}-${i}`),
          DATABASE_URL: harness.lastUrl(),
          DEMO_DATA: "false",
          DEMO_PAYMENTS: "true",
          TRUST_PROXY: "true",
        }),
      );
    }
    email = `admin-${newId(8)}@example.com`;
    const auth = createAdminAuth(database, {
      secret: "secreto-de-prueba-0123456789abcdefghij",
      baseUrl: servers[0]?.url ?? "",
      idleMinutes: 60,
      absoluteHours: 12,
      quickPasswordHashes: servers[0]?.quickPasswordHashes ?? false,
    });
    await auth.createAdmin({ email, name: "Ana", password: PASSWORD });
    return async () => {
      await Promise.all(servers.map((s) => s.stop()));
    };
  });

  const server = (i: number) => servers[i % servers.length] as RunningServer;

  it("holds however many addresses the failures come from, on every app server", async () => {
    // Each failure from another address and for another e-mail: no per-address or per-account limit engages.
    for (let i = 0; i < LOGIN_LIMITS.everywhere; i++) {
      const answer = await postLogin(server(i), {
        email: `nadie-${i}@example.com`,
        password: "adivinanza",
        address: `203.0.113.${i + 1}`,
      });
      expect(answer.status, answer.text).toBe(401);
    }
    for (let i = 0; i < servers.length; i++) {
      // The right password from an address never seen: refused all the same, nothing checked.
      const answer = await postLogin(server(i), { email, password: PASSWORD, address: `192.0.2.${i + 1}` });
      expect(answer.status).toBe(429);
      expect(answer.text).toContain(BUSY);
      expect(answer.text).not.toContain("Credenciales inválidas");
      expect(answer.retryAfter).toBeGreaterThan(0);
      expect(answer.retryAfter).toBeLessThanOrEqual(LOGIN_LIMITS.everywhereWindowSeconds);
      expect(answer.cookies).toEqual([]);
    }

    // A server that met the ceiling refuses from then on without reading the database or rendering
    // the login page: a small page of its own for a form posted without JavaScript…
    const plain = await postLogin(server(0), { email, password: PASSWORD, address: "192.0.2.100" });
    expect(plain.status).toBe(429);
    expect(plain.text).toContain(BUSY);
    expect(plain.text).toContain('href="/login"');
    expect(plain.text).not.toContain("<script");
    expect(plain.headers.get("cache-control")).toBe("private, no-store");
    expect(plain.retryAfter).toBeGreaterThan(0);
    // …and React Router's own answer to the form sent with JavaScript, which shows it in the form.
    const withScript = await postLogin(
      server(0),
      { email, password: PASSWORD, address: "192.0.2.101" },
      "/login.data",
    );
    expect(withScript.status).toBe(429);
    expect(withScript.headers.get("x-remix-response")).toBe("yes");
    expect(withScript.text).toContain(BUSY);
    expect(withScript.retryAfter).toBeGreaterThan(0);
    // Lifting once the window moves on is proven in tests/db/admin-auth.db.test.ts, with a clock.
    for (const s of servers) expect(busyLines(s)).toHaveLength(1);
  });
});
