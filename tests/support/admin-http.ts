import { expect } from "vitest";
import { createAdminAuth } from "~/auth/auth.server";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { setUpSecondFactor } from "./second-factor";
import { type RunningServer, TEST_SESSION_SECRET } from "./server-process";
import { unusedCode } from "./totp";

const PASSWORD = "contraseña de prueba larga";

/** The sign-in library with the servers' secret, which also encrypts the second-factor secrets. */
export function testAdminAuth(server: RunningServer, database: Database) {
  return createAdminAuth(database, {
    secret: TEST_SESSION_SECRET,
    baseUrl: server.url,
    idleMinutes: 60,
    absoluteHours: 12,
    quickPasswordHashes: server.quickPasswordHashes,
  });
}

/** Posts a sign-in form the way the browser does (same origin). */
export function postForm(
  server: RunningServer,
  pathname: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(`${server.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
}

/**
 * Signs an administrator in over HTTP: the password on /login, then the code computed from the
 * secret on /login/codigo. Returns the session cookie.
 */
export async function signInOverHttp(
  server: RunningServer,
  account: { email: string; password: string; secret: string },
  headers: Record<string, string> = {},
  fields: Record<string, string> = {},
): Promise<{ cookie: string; location: string | null }> {
  const password = await postForm(
    server,
    "/login",
    { email: account.email, password: account.password, ...fields },
    headers,
  );
  expect(password.status, await password.clone().text()).toBe(302);
  expect(password.headers.get("location")).toMatch(/^\/login\/codigo/);
  const challenge = password.headers
    .getSetCookie()
    .find((c) => c.startsWith("admin.two_factor="))
    ?.split(";")[0];
  expect(challenge).toBeTruthy();
  const code = await postForm(
    server,
    "/login/codigo",
    { code: await unusedCode(account.secret), ...fields },
    { ...headers, cookie: challenge ?? "" },
  );
  expect(code.status, await code.clone().text()).toBe(302);
  const cookie = code.headers.getSetCookie().find((c) => /^(__Host-)?sesion_admin=/.test(c)) ?? "";
  return { cookie: cookie.split(";")[0] ?? "", location: code.headers.get("location") };
}

/**
 * Creates an administrator in the server's database (the call `npm run admin -- create` makes,
 * without spawning the CLI), sets up its second factor, and signs in through /login and
 * /login/codigo over HTTP. Returns the session cookie.
 */
export async function signInAdmin(server: RunningServer, database: Database): Promise<string> {
  const email = `admin-${newId(8)}@example.com`;
  const auth = testAdminAuth(server, database);
  await auth.createAdmin({ email, name: "Ana", password: PASSWORD });
  const { secret } = await setUpSecondFactor(auth, { email, password: PASSWORD });
  const { cookie } = await signInOverHttp(server, { email, password: PASSWORD, secret });
  expect(cookie).toMatch(/^sesion_admin=/);
  return cookie;
}

/** What the owner sees of a desk action in the page a form post gets back: its answer's message. */
export function actionMessage(html: string): string | undefined {
  // The action's data travels in the page's hydration script: …\"ok\",true,\"message\",\"…\"…
  return html.match(/\\"ok\\",(?:true|false),\\"message\\",\\"([^\\]*)\\"/)?.[1];
}

/**
 * Posts a form of the orders desk on an order's page as a browser does without JavaScript; the
 * answer is the order's page, with the action's message.
 */
export async function postOrderDesk(
  server: RunningServer,
  orderId: string,
  fields: Record<string, string>,
  cookie: string,
) {
  const res = await postForm(server, `/admin/orders/${orderId}`, fields, cookie ? { cookie } : {});
  const html = await res.text();
  return { status: res.status, message: actionMessage(html), html };
}
