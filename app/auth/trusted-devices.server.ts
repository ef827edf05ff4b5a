import type { Db } from "~/db/database.server";
import { cookieValue, unsigned } from "./cookie-headers";
import { TRUSTED_DEVICE_COOKIE } from "./second-factor";

/**
 * 'Confiar en este dispositivo': the library's trusted-device cookie lets a sign-in skip the code;
 * here its trust is kept to TRUSTED_DEVICE_DAYS counted from the code typed on the device.
 */

export interface TrustedDevice {
  userId: string;
  expiresAt: string;
}

/** The record a trusted-device cookie names (`token!identifier`, signed). */
export function trustIdentifier(cookie: string | null | undefined): string | null {
  return cookie ? (unsigned(cookie).split("!")[1] ?? null) : null;
}

/** The trusted-device record a Set-Cookie list gives the browser, if it gives one. */
export function trustGiven(setCookies: string[]): string | null {
  const given = setCookies.find((cookie) => cookie.startsWith(`${TRUSTED_DEVICE_COOKIE}=`));
  const value = given?.slice(TRUSTED_DEVICE_COOKIE.length + 1).split(";")[0];
  if (!value) return null;
  try {
    return trustIdentifier(decodeURIComponent(value));
  } catch {
    return null;
  }
}

/** The trusted-device record this browser's cookie names, if it is still there. */
export async function trustedDevice(db: Db, headers: Headers): Promise<TrustedDevice | null> {
  const identifier = trustIdentifier(cookieValue(headers, TRUSTED_DEVICE_COOKIE));
  if (!identifier) return null;
  const row = await db
    .selectFrom("auth_verification")
    .select(["value", "expires_at"])
    .where("identifier", "=", identifier)
    .executeTakeFirst();
  return row ? { userId: row.value, expiresAt: new Date(row.expires_at).toISOString() } : null;
}

/**
 * The library renews a trusted device for another full period at each sign-in it skips the code
 * on; the renewed record keeps the old end, so the trust lasts at most TRUSTED_DEVICE_DAYS from
 * the code typed.
 */
export async function keepTrustDeadline(
  db: Db,
  setCookies: string[],
  trusted: TrustedDevice | null,
  userId: string,
): Promise<void> {
  if (!trusted || trusted.userId !== userId) return;
  const identifier = trustGiven(setCookies);
  if (!identifier) return;
  await db
    .updateTable("auth_verification")
    .set({ expires_at: trusted.expiresAt })
    .where("identifier", "=", identifier)
    .where("value", "=", userId)
    .execute();
}
