import { expect } from "vitest";
import { createAdminAuth } from "~/auth/auth.server";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import type { RunningServer } from "./server-process";

const PASSWORD = "contraseña de prueba larga";

/**
 * Creates an administrator in the server's database (the call `npm run admin -- create` makes,
 * without spawning the CLI) and signs in through /login over HTTP. Returns the session cookie.
 */
export async function signInAdmin(server: RunningServer, database: Database): Promise<string> {
  const email = `admin-${newId(8)}@example.com`;
  const auth = createAdminAuth(database, {
    secret: "secreto-de-prueba-0123456789abcdefghij",
    baseUrl: server.url,
    idleMinutes: 60,
    absoluteHours: 12,
  });
  await auth.createAdmin({ email, name: "Ana", password: PASSWORD });
  const login = await fetch(`${server.url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: PASSWORD }),
  });
  expect(login.status, await login.clone().text()).toBe(302);
  const cookie = login.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  expect(cookie).toMatch(/^sesion_admin=/);
  return cookie;
}
