import type { Db } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import { cookieValue } from "./cookie-headers";
import { normalizeEmail } from "./login-limits.server";
import { TRUSTED_DEVICE_COOKIE } from "./second-factor";
import { trustIdentifier } from "./trusted-devices.server";

/**
 * The browsers an administrator has signed in from (decision 32), each known by the shop's own
 * signed `navegador` cookie: a sign-in from one of them is never refused by a flood from
 * elsewhere. The trusted-device cookie ('Confiar en este dispositivo') is bound to the browser it
 * was given to: copied to another browser it skips nothing.
 */

/** A device is known this long after its last complete sign-in. */
export const KNOWN_DEVICE_DAYS = 90;
/**
 * For the front door's busy page (no database read per post), this server keeps every known
 * browser's id in memory (a shop has a few), read again at most this often when a browser it does
 * not hold asks: a device that signed in on another app server is known there within seconds.
 */
const RELOAD_AT_MOST_EVERY_MS = 5_000;
const FORGET_WITHIN_MS = 60_000;

export interface Devices {
  /** The browser has completed a sign-in to this account (typed in any case) within KNOWN_DEVICE_DAYS. */
  knownFor(email: string, browserId: string | null): Promise<boolean>;
  /** The browser is some administrator's known device (from this server's memory, see RELOAD_AT_MOST_EVERY_MS). */
  knownToAnyone(browserId: string | null): Promise<boolean>;
  /** A complete sign-in from this browser: known from now on; with `trustIdentifier`, its trusted-device record. */
  remember(userId: string, browserId: string | null, trustIdentifier?: string | null): Promise<void>;
  /**
   * The trusted-device cookie's record when it was given to this very browser; null when there is
   * none or it was given to another (then the request must not carry it to the library).
   */
  trustHere(headers: Headers, browserId: string | null): Promise<string | null>;
}

export function createDevices(db: Db, clock: () => number = Date.now): Devices {
  let known = new Set<string>();
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | null = null;
  const since = () => toTimestamp(new Date(clock() - KNOWN_DEVICE_DAYS * 86_400_000));

  async function reload(): Promise<void> {
    loadedAt = clock();
    const rows = await db
      .selectFrom("admin_devices")
      .select("browser_id")
      .where("last_signed_in_at", ">=", since())
      .execute();
    known = new Set(rows.map((row) => row.browser_id));
  }

  /** Whether the browser is known to anyone, reading the list again only when it is old enough. */
  async function knownToAnyone(browserId: string | null): Promise<boolean> {
    if (!browserId) return false;
    const age = clock() - loadedAt;
    // A device forgotten on another server (a reset) leaves this memory within a minute.
    if (known.has(browserId) && age < FORGET_WITHIN_MS) return true;
    if (age < RELOAD_AT_MOST_EVERY_MS) return known.has(browserId);
    loading ??= reload().finally(() => {
      loading = null;
    });
    await loading;
    return known.has(browserId);
  }

  return {
    async knownFor(email, browserId) {
      // One indexed read, for a request with the shop's cookie only (a cookieless flood costs none):
      // the answer must not wait for this server's memory to learn of a sign-in on another one.
      if (!browserId) return false;
      const row = await db
        .selectFrom("admin_devices as d")
        .innerJoin("auth_user as u", "u.id", "d.user_id")
        .select("d.user_id")
        .where("d.browser_id", "=", browserId)
        .where("u.email", "=", normalizeEmail(email).slice(0, 320))
        .where("d.last_signed_in_at", ">=", since())
        .executeTakeFirst();
      return row !== undefined;
    },

    knownToAnyone,

    async remember(userId, browserId, trust) {
      if (!browserId) return;
      const now = toTimestamp(new Date(clock()));
      await db
        .insertInto("admin_devices")
        .values({
          user_id: userId,
          browser_id: browserId,
          trust_identifier: trust ?? null,
          first_signed_in_at: now,
          last_signed_in_at: now,
        })
        .onConflict((oc) =>
          oc.columns(["user_id", "browser_id"]).doUpdateSet((eb) => ({
            last_signed_in_at: now,
            // A sign-in that gives no new trust keeps the one the browser has.
            trust_identifier: trust ? trust : eb.ref("admin_devices.trust_identifier"),
          })),
        )
        .execute();
      known.add(browserId);
    },

    async trustHere(headers, browserId) {
      const identifier = trustIdentifier(cookieValue(headers, TRUSTED_DEVICE_COOKIE));
      if (!identifier || !browserId) return null;
      const row = await db
        .selectFrom("admin_devices")
        .select("user_id")
        .where("trust_identifier", "=", identifier)
        .where("browser_id", "=", browserId)
        .executeTakeFirst();
      return row ? identifier : null;
    },
  };
}
