import type { AdminAuth, AdminSession } from "~/auth/auth.server";
import { unusedCode } from "./totp";

/** The Cookie header a browser sends back after these Set-Cookie answers (cleared ones left out). */
export function cookiesFrom(setCookies: string[]): string {
  return setCookies
    .filter((cookie) => !/;\s*Max-Age=0/i.test(cookie))
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

/**
 * Sets up the second factor of an administrator who has none yet, as the set-up page does: the
 * first sign-in, the secret it shows, the first code from the app. Its session is ended again.
 */
export async function setUpSecondFactor(
  auth: AdminAuth,
  account: { email: string; password: string },
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const first = await auth.signIn({
    ...account,
    address: "127.0.0.1",
    headers: new Headers(),
    secure: false,
  });
  if (!first.ok || first.step !== "set-up") throw new Error(`no set-up for ${account.email}`);
  const pending = await auth.pendingSetUp(first.session);
  if (!pending) throw new Error(`no secret waits for ${account.email}`);
  const done = await auth.completeSetUp({
    session: first.session,
    code: await unusedCode(pending.secret),
    address: "127.0.0.1",
    headers: new Headers({ cookie: cookiesFrom(first.setCookies) }),
    secure: false,
  });
  if (!done.ok) throw new Error(`set-up refused for ${account.email}: ${done.reason}`);
  const { session } = await auth.readSession(new Headers({ cookie: cookiesFrom(done.setCookies) }), false);
  await auth.signOut(session?.sessionId ?? null, false);
  return { secret: pending.secret, recoveryCodes: done.recoveryCodes };
}

/** Signs in with the password and then the code from the app: a complete session. */
export async function signInWithCode(
  auth: AdminAuth,
  account: { email: string; password: string; secret: string },
  options: { address?: string; secure?: boolean } = {},
): Promise<{ session: AdminSession; setCookies: string[] }> {
  const address = options.address ?? "127.0.0.1";
  const secure = options.secure ?? false;
  const first = await auth.signIn({ ...account, address, headers: new Headers(), secure });
  if (!first.ok) throw new Error(`could not sign ${account.email} in: ${first.reason}`);
  if (first.step !== "code") throw new Error(`${account.email} was not asked for a code`);
  const done = await auth.verifyCode({
    code: await unusedCode(account.secret),
    trustDevice: false,
    address,
    headers: new Headers({ cookie: cookiesFrom(first.setCookies) }),
    secure,
  });
  if (!done.ok) throw new Error(`code refused for ${account.email}: ${done.reason}`);
  return done;
}
