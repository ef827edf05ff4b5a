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
/** How long this server remembers a browser is some administrator's device (a flood is refused without reading). */
const REMEMBER_MS = 60_000;

export interface Devices {
  /** The browser has completed a sign-in to this account (typed in any case) within KNOWN_DEVICE_DAYS. */
  knownFor(email: string, browserId: string | null): Promise<boolean>;
  /** The browser is some administrator's known device (remembered a minute by this server). */
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
  /** Browsers this server has seen to be known devices, until when it trusts that without asking. */
  const remembered = new Map<string, number>();
  const since = () => toTimestamp(new Date(clock() - KNOWN_DEVICE_DAYS * 86_400_000));

  return {
    async knownFor(email, browserId) {
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

    async knownToAnyone(browserId) {
      if (!browserId) return false;
      if ((remembered.get(browserId) ?? 0) > clock()) return true;
      const row = await db
        .selectFrom("admin_devices")
        .select("user_id")
        .where("browser_id", "=", browserId)
        .where("last_signed_in_at", ">=", since())
        .executeTakeFirst();
      if (!row) return false;
      // Few administrators, few devices: the map stays small.
      remembered.set(browserId, clock() + REMEMBER_MS);
      return true;
    },

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
