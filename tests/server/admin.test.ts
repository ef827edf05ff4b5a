import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { LOGIN_LIMITS } from "~/auth/login-limits.server";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { runAdminCommand } from "../../scripts/admin-commands";
import { postForm, signInOverHttp, testAdminAuth } from "../support/admin-http";
import { copySqliteTemplate, describeEachDatabase } from "../support/databases";
import { setUpSecondFactor } from "../support/second-factor";
import { baseEnv, type RunningServer, startServer } from "../support/server-process";
import { forgetCodes, totp, unusedCode } from "../support/totp";

vi.setConfig({ testTimeout: 120_000 });
const root = path.resolve(import.meta.dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const PASSWORD = "contraseña de prueba larga";
const ADMIN_PAGES = ["/admin/orders", "/admin/drops", "/admin/campains", "/admin/reports", "/admin/settings"];

describe("without TRUST_PROXY", () => {
  let server: RunningServer;
  beforeAll(async () => {
    copySqliteTemplate(path.join(tmp, "no-proxy", "shop.db"));
    server = await startServer({ DATA_DIR: path.join(tmp, "no-proxy"), DEMO_DATA: "false" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("a client cannot dodge the per-address limit by claiming other addresses in X-Forwarded-For", async () => {
    for (let i = 0; i <= LOGIN_LIMITS.perAddress; i++) {
      await fetch(`${server.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: {
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": `198.18.0.${i}`,
        },
        body: new URLSearchParams({ email: `nadie-${i}@example.com`, password: "x" }),
      }).then((r) => r.arrayBuffer());
    }
    const last = await fetch(`${server.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": "198.18.1.1",
      },
      body: new URLSearchParams({ email: "alguien@example.com", password: "x" }),
    });
    expect(last.status).toBe(429);
  });
});

describeEachDatabase("the admin area through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let env: Record<string, string>;

  /**
   * The admin command-line tool's commands, run here on the server's database (as the tool runs
   * them in its own process, which takes seconds to start: `tool`, once).
   */
  async function cli(args: string[], extraEnv: { ADMIN_PASSWORD?: string } = {}) {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runAdminCommand(args, testAdminAuth(server, database), {
      password: extraEnv.ADMIN_PASSWORD,
      terminal: false,
      ask: () => Promise.reject(new Error("no terminal")),
      print: (line) => stdout.push(`${line}\n`),
      printError: (line) => stderr.push(`${line}\n`),
    });
    return { code, stdout: stdout.join(""), stderr: stderr.join("") };
  }

  /** The admin command-line tool itself (`npm run admin`), with the server's configuration. */
  async function tool(args: string[], extraEnv: Record<string, string> = {}) {
    const run = promisify(execFile);
    try {
      const { stdout, stderr } = await run(
        path.join(root, "node_modules/.bin/tsx"),
        ["scripts/admin.ts", ...args],
        {
          cwd: root,
          env: baseEnv({ ...env, ...extraEnv }),
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  beforeAll(async () => {
    database = await harness.fresh();
    env = {
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      TRUST_PROXY: "true",
    };
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    // The shop-wide ceiling on failed logins counts every failure: each test starts with none.
    await database.db.deleteFrom("login_failures").execute();
  });

  /** Each administrator's authenticator secret, by e-mail. */
  const secrets = new Map<string, string>();

  /**
   * An administrator, its second factor set up unless told otherwise: made as the command-line
   * tool makes it, in this process (`viaCli`: by the tool itself, a process of its own that takes
   * seconds to start, for the tests of the tool).
   */
  async function newAdmin({ secondFactor = true, viaCli = false } = {}) {
    const email = `admin-${newId(8)}@example.com`;
    if (viaCli) {
      const created = await tool(["create", email, "--name", "Ana"], { ADMIN_PASSWORD: PASSWORD });
      expect(created.stdout + created.stderr).toContain(`Administrador creado: ${email}`);
    } else {
      await testAdminAuth(server, database).createAdmin({ email, name: "Ana", password: PASSWORD });
    }
    if (secondFactor) {
      const { secret } = await setUpSecondFactor(testAdminAuth(server, database), {
        email,
        password: PASSWORD,
      });
      secrets.set(email, secret);
    }
    return email;
  }

  const account = (email: string, password = PASSWORD) => ({
    email,
    password,
    secret: secrets.get(email) ?? "",
  });

  /** Posts the login form the way the browser does (same origin). */
  function postLogin(fields: Record<string, string>, headers: Record<string, string> = {}) {
    return fetch(`${server.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields),
    });
  }

  /**
   * A third sign-in within one 30-second step needs a code of a step not yet spent, so it would
   * wait up to 30 s for the next: for tests that are not about codes working once, the shop
   * forgets the steps `email` spent (as it does when her app is set up again).
   */
  async function forgetSpentCodes(email: string) {
    const user = await database.db
      .selectFrom("auth_user")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    await database.db.deleteFrom("admin_code_steps").where("user_id", "=", user.id).execute();
    forgetCodes(secrets.get(email) ?? "");
  }

  /** Password and code over HTTP: the session cookie. */
  async function login(email: string, password = PASSWORD, address = "203.0.113.1") {
    return (await signInOverHttp(server, account(email, password), { "x-forwarded-for": address })).cookie;
  }

  const get = (pathname: string, cookie = "") =>
    fetch(`${server.url}${pathname}`, { redirect: "manual", headers: cookie ? { cookie } : {} });

  const sessionCount = async () =>
    Number(
      (
        await database.db
          .selectFrom("auth_session")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("every admin page sends a signed-out visitor to /login and back to the page asked for", async () => {
    for (const page of ADMIN_PAGES) {
      const res = await get(page);
      expect(res.status, page).toBe(302);
      expect(res.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);
    }
    const data = await get("/admin/orders.data");
    expect(await data.text(), "client navigations are redirected too, and come back").toContain(
      `/login?redirectTo=${encodeURIComponent("/admin/orders")}`,
    );
    expect((await get("/admin")).headers.get("location")).toBe("/login");
  });

  it("signs in through the form: a wrong password says 'Credenciales inválidas', the right one opens /admin", async () => {
    const email = await newAdmin();
    const wrong = await postLogin({ email, password: "no es la contraseña" });
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(html).toContain("Credenciales inválidas");
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const unknown = await postLogin({ email: "nadie@example.com", password: PASSWORD });
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain("Credenciales inválidas");
    const empty = await postLogin({ email: "", password: "" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Credenciales inválidas");

    // The right password asks for the code; the right code signs in.
    const right = await postLogin({ email, password: PASSWORD });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/login/codigo");
    expect(right.headers.getSetCookie().join()).not.toMatch(/sesion_admin=[^;]/);
    const challenge = right.headers.getSetCookie().find((c) => c.startsWith("admin.two_factor=")) ?? "";
    const code = await postForm(
      server,
      "/login/codigo",
      { code: await unusedCode(secrets.get(email) ?? "") },
      {
        cookie: challenge.split(";")[0] ?? "",
      },
    );
    expect(code.headers.get("location")).toBe("/admin/orders");
    const cookie = code.headers.getSetCookie().find((c) => c.startsWith("sesion_admin=")) ?? "";
    expect(cookie).toMatch(/^sesion_admin=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);

    const page = await get("/admin/orders", cookie.split(";")[0]);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const body = await page.text();
    expect(body).toContain("Pedidos");
    expect(body).toContain("Cerrar sesión");
    expect(body).toContain(">Admin<");
    // Every section of the menu is built: none says 'Próximamente...' any more.
    for (const section of ["/admin/campains", "/admin/reports", "/admin/settings"]) {
      const answer = await get(section, cookie.split(";")[0]);
      expect(answer.status, section).toBe(200);
      expect(await answer.text(), section).not.toContain("Próximamente...");
    }
  });

  it("after login goes to the admin page first asked for, never to another site", async () => {
    const email = await newAdmin();
    const back = await postLogin({ email, password: PASSWORD, redirectTo: "/admin/drops" });
    expect(back.headers.get("location")).toBe("/login/codigo?redirectTo=%2Fadmin%2Fdrops");
    const signedIn = await signInOverHttp(server, account(email), {}, { redirectTo: "/admin/drops" });
    expect(signedIn.location).toBe("/admin/drops");
    for (const evil of [
      "//evil.example/admin",
      "https://evil.example",
      "/admin/../login",
      "/\\evil.example",
    ]) {
      const res = await postLogin({ email, password: PASSWORD, redirectTo: evil });
      expect(res.headers.get("location"), evil).toBe("/login/codigo");
    }
    // Nor from the code's form.
    await forgetSpentCodes(email);
    expect(
      (await signInOverHttp(server, account(email), {}, { redirectTo: "//evil.example/admin" })).location,
    ).toBe("/admin/orders");
  });

  it("over HTTPS the cookie is __Host- prefixed and Secure", async () => {
    const email = await newAdmin();
    // Behind a proxy that ends TLS: the browser's page is https://…
    const https = { "x-forwarded-proto": "https", origin: server.url.replace("http:", "https:") };
    const res2 = await postLogin({ email, password: PASSWORD }, https);
    expect(res2.status).toBe(302);
    const challenge = res2.headers.getSetCookie().find((c) => c.startsWith("admin.two_factor=")) ?? "";
    expect(challenge).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    const code = await postForm(
      server,
      "/login/codigo",
      { code: await unusedCode(secrets.get(email) ?? "") },
      {
        ...https,
        cookie: challenge.split(";")[0] ?? "",
      },
    );
    const cookie = code.headers.getSetCookie().find((c) => c.startsWith("__Host-")) ?? "";
    expect(cookie).toMatch(
      /^__Host-sesion_admin=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it("'Cerrar sesión' ends the session on the server: the same cookie no longer opens /admin", async () => {
    const email = await newAdmin();
    const cookie = await login(email);
    expect((await get("/admin/orders", cookie)).status).toBe(200);
    const out = await fetch(`${server.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url },
    });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/login?sesion=cerrada");
    expect(out.headers.getSetCookie().join()).toContain("sesion_admin=;");
    // A copy of the cookie kept elsewhere is worthless now.
    expect((await get("/admin/orders", cookie)).headers.get("location")).toContain("/login");
  });

  it("signing in again from the same browser ends the session its old cookie named", async () => {
    const email = await newAdmin();
    const old = await login(email);
    await forgetSpentCodes(email);
    const { cookie: fresh } = await signInOverHttp(server, account(email), { cookie: old });
    expect(fresh).not.toBe(old);
    expect((await get("/admin/orders", old)).status).toBe(302);
    expect((await get("/admin/orders", fresh)).status).toBe(200);
  });

  it("an admin action without a session answers 401 and changes nothing", async () => {
    const email = await newAdmin();
    await login(email);
    const before = await sessionCount();
    // A cookie that names no live session is no session either.
    await forgetSpentCodes(email);
    const ended = await login(email);
    await fetch(`${server.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: ended, origin: server.url },
    });
    const withEnded = await fetch(`${server.url}/admin/sessions`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: ended, origin: server.url },
    });
    expect(withEnded.status).toBe(401);
    expect(await sessionCount()).toBe(before);
    const res = await fetch(`${server.url}/admin/sessions`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe("Tu sesión terminó. Inicia sesión de nuevo.");
    expect(await sessionCount()).toBe(before);
  });

  it("admin actions and logout from another site are refused and change nothing", async () => {
    const email = await newAdmin();
    const cookie = await login(email);
    const before = await sessionCount();
    const forged: { url: string; headers: Record<string, string> }[] = [];
    for (const url of ["/admin/sessions", "/logout"]) {
      forged.push(
        { url, headers: { cookie, origin: "https://evil.example" } },
        // No Origin, and the browser says the request comes from elsewhere.
        { url, headers: { cookie, "sec-fetch-site": "cross-site" } },
        // Neither header: not a browser on our pages.
        { url, headers: { cookie } },
      );
    }
    for (const attempt of forged) {
      const res = await fetch(`${server.url}${attempt.url}`, {
        method: "POST",
        redirect: "manual",
        headers: attempt.headers,
      });
      expect(res.status, `${attempt.url} ${JSON.stringify(attempt.headers)}`).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(await sessionCount()).toBe(before);
    expect((await get("/admin/orders", cookie)).status).toBe(200);

    // From the shop itself the same action works: every session of the account ends.
    const ok = await fetch(`${server.url}/admin/sessions`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url },
    });
    expect(ok.status).toBe(302);
    expect((await get("/admin/orders", cookie)).status).toBe(302);
  });

  it("a login posted from another site is refused", async () => {
    const email = await newAdmin();
    // The server refuses a foreign Origin before any page runs…
    const foreign = await postLogin({ email, password: PASSWORD }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.getSetCookie()).toEqual([]);
    // …and ours refuses what it lets through: no Origin, or one the browser marks cross-site.
    const unsure: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, {}];
    for (const headers of unsure) {
      const res = await fetch(`${server.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ email, password: PASSWORD }),
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it("failed logins are limited per account and per address, with the same message", async () => {
    const email = await newAdmin();
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      const res = await postLogin(
        { email, password: `incorrecta ${i}` },
        { "x-forwarded-for": `198.51.100.${i}` },
      );
      expect(res.status).toBe(401);
    }
    const locked = await postLogin({ email, password: PASSWORD }, { "x-forwarded-for": "198.51.100.200" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await locked.text()).toContain("Credenciales inválidas");
    expect(locked.headers.getSetCookie()).toEqual([]);
    // With the next twenty the shop-wide ceiling on failures would be met too (login-flood.test.ts).
    await database.db.deleteFrom("login_failures").execute();

    const address = "192.0.2.77";
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
      await postLogin({ email: `nadie-${i}@example.com`, password: "x" }, { "x-forwarded-for": address });
    }
    const other = await newAdmin();
    const fromThere = await postLogin({ email: other, password: PASSWORD }, { "x-forwarded-for": address });
    expect(fromThere.status).toBe(429);
    const fromElsewhere = await postLogin(
      { email: other, password: PASSWORD },
      { "x-forwarded-for": "192.0.2.78" },
    );
    expect(fromElsewhere.status).toBe(302);
  });

  it("the header shows Admin and 'Cerrar sesión' only to a signed-in administrator", async () => {
    const anonymous = await (await get("/")).text();
    expect(anonymous).not.toContain("Cerrar sesión");
    expect(anonymous).not.toContain('href="/admin/orders"');
    const cookie = await login(await newAdmin());
    const signedIn = await get("/", cookie);
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    const html = await signedIn.text();
    expect(html).toContain("Cerrar sesión");
    expect(html).toContain('href="/admin/orders"');
  });

  it("the command-line tool lists administrators and resets a password, ending the account's sessions", async () => {
    const email = await newAdmin({ viaCli: true });
    const cookie = await login(email);
    // Runs of the tool that change nothing.
    const [listed, inArgument, noTerminal, duplicate] = await Promise.all([
      cli(["list"]),
      cli(["create", `otra-${newId(4)}@example.com`, "contraseña en la línea"]),
      cli(["create", `otra-${newId(4)}@example.com`]),
      cli(["create", email], { ADMIN_PASSWORD: PASSWORD }),
    ]);
    expect(listed.stdout).toContain(email);
    expect(inArgument.code).toBe(1);
    expect(inArgument.stderr).toContain("La contraseña nunca va en la línea de comandos");
    expect(noTerminal.code).toBe(1);
    expect(noTerminal.stderr).toContain("ADMIN_PASSWORD");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("Ya existe una cuenta");

    const reset = await cli(["reset-password", email], { ADMIN_PASSWORD: "la contraseña nueva muy larga" });
    expect(reset.code).toBe(0);
    expect((await get("/admin/orders", cookie)).status).toBe(302);
    expect((await postLogin({ email, password: PASSWORD })).status).toBe(401);
    expect((await postLogin({ email, password: "la contraseña nueva muy larga" })).status).toBe(302);
  });

  it("a password-only session reaches nothing but the set-up page: admin pages send it there, admin actions answer 401", async () => {
    const email = await newAdmin({ secondFactor: false });
    const first = await postLogin({ email, password: PASSWORD });
    expect(first.headers.get("location")).toBe("/login/configurar");
    const cookie = first.headers.getSetCookie()[0]?.split(";")[0] ?? "";
    expect(cookie).toMatch(/^sesion_admin=./);
    for (const page of [...ADMIN_PAGES, "/admin", "/login"]) {
      const res = await get(page, cookie);
      expect(res.status, page).toBe(302);
      expect(res.headers.get("location"), page).toBe("/login/configurar");
    }
    const before = await sessionCount();
    const action = await fetch(`${server.url}/admin/sessions`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url },
    });
    expect(action.status).toBe(401);
    expect(await sessionCount()).toBe(before);
    // The shop's header does not count it as signed in either.
    expect(await (await get("/", cookie)).text()).not.toContain('href="/admin/orders"');
    const setUp = await get("/login/configurar", cookie);
    expect(setUp.status).toBe(200);
    expect(setUp.headers.get("cache-control")).toBe("private, no-store");
    const html = await setUp.text();
    expect(html).toContain('src="data:image/svg+xml;base64,');
    // The strict policy holds: the QR code is an image, with no script or style of its own.
    expect(setUp.headers.get("content-security-policy")).toContain("img-src 'self' data:");
  });

  it("the second factor's forms: without a sign-in waiting 401, from another site 403, and nothing changes", async () => {
    const email = await newAdmin({ secondFactor: false });
    const setUpCookie =
      (await postLogin({ email, password: PASSWORD })).headers.getSetCookie()[0]?.split(";")[0] ?? "";
    const withApp = await newAdmin();
    const challenge =
      (await postLogin({ email: withApp, password: PASSWORD })).headers
        .getSetCookie()
        .find((c) => c.startsWith("admin.two_factor="))
        ?.split(";")[0] ?? "";
    const code = await unusedCode(secrets.get(withApp) ?? "");
    const before = await sessionCount();

    // Without a sign-in waiting for it: no session, no challenge.
    const noChallenge = await postForm(server, "/login/codigo", { code });
    expect(noChallenge.status).toBe(401);
    expect(await noChallenge.text()).toContain("Inicia sesión de nuevo");
    const noSession = await postForm(server, "/login/configurar", { code: "123456" });
    expect(noSession.status).toBe(401);

    // From another site, with the browser's cookies.
    for (const [url, cookie] of [
      ["/login/codigo", challenge],
      ["/login/configurar", setUpCookie],
    ] as const) {
      const foreign: Record<string, string>[] = [
        { origin: "https://evil.example" },
        { "sec-fetch-site": "cross-site" },
        {},
      ];
      for (const headers of foreign) {
        const res = await fetch(`${server.url}${url}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
          body: new URLSearchParams({ code }),
        });
        expect(res.status, `${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    }
    expect(await sessionCount()).toBe(before);
    // Both still wait: the challenge was not used up, the set-up not done.
    const done = await postForm(server, "/login/codigo", { code }, { cookie: challenge });
    expect(done.headers.get("location")).toBe("/admin/orders");
    expect((await get("/admin/orders", setUpCookie)).headers.get("location")).toBe("/login/configurar");
  });

  it("wrong codes count in the failed-login limits: past them even the right code gets 429 with Retry-After", async () => {
    const email = await newAdmin();
    const secret = secrets.get(email) ?? "";
    const wrong = totp(secret) === "000000" ? "111111" : "000000";
    let challenge = "";
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      // The sign-in library ends a challenge after five codes: the password again for the next five.
      if (i % 5 === 0) {
        const password = await postLogin(
          { email, password: PASSWORD },
          { "x-forwarded-for": "198.51.100.150" },
        );
        expect(password.headers.get("location")).toBe("/login/codigo");
        challenge =
          password.headers
            .getSetCookie()
            .find((c) => c.startsWith("admin.two_factor="))
            ?.split(";")[0] ?? "";
      }
      const res = await postForm(
        server,
        "/login/codigo",
        { code: wrong },
        {
          cookie: challenge,
          "x-forwarded-for": `198.51.100.${160 + i}`,
        },
      );
      expect(res.status, `code ${i}`).toBe(401);
      expect(await res.text()).toContain("Código incorrecto");
    }
    // The right code on the sign-in still waiting: refused before the sign-in library checks it.
    const locked = await postForm(
      server,
      "/login/codigo",
      { code: await unusedCode(secret) },
      {
        cookie: challenge,
        "x-forwarded-for": "198.51.100.191",
      },
    );
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await locked.text()).toContain("Demasiados intentos fallidos");
    expect(locked.headers.getSetCookie().join()).not.toContain("sesion_admin=");
    // And the right password, from a new address, is refused all the same.
    const password = await postLogin({ email, password: PASSWORD }, { "x-forwarded-for": "198.51.100.192" });
    expect(password.status).toBe(429);
  });

  it("the command-line tool resets the second factor: sessions end, the next sign-in sets up a new app", async () => {
    const email = await newAdmin();
    const cookie = await login(email);
    const [before, unknown] = await Promise.all([cli(["list"]), cli(["reset-2fa", "nadie@example.com"])]);
    expect(before.stdout).toMatch(new RegExp(`${email}.*con verificación en dos pasos`));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No hay un administrador con el correo nadie@example.com.");
    const reset = await cli(["reset-2fa", email]);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain(`Verificación en dos pasos borrada para ${email}`);
    expect((await get("/admin/orders", cookie)).status).toBe(302);
    expect((await cli(["list"])).stdout).toMatch(new RegExp(`${email}.*sin verificación en dos pasos`));
    const again = await postLogin({ email, password: PASSWORD });
    expect(again.headers.get("location")).toBe("/login/configurar");
  });
});
