import net from "node:net";
import type { Db } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";

/**
 * Failed sign-ins are counted per account (the e-mail typed, whether or not it exists) and per
 * client address over a sliding window, and across the whole shop over a short one, however many
 * addresses they come from. The counts live in the database so that the limits hold across app
 * servers. Past a limit, sign-in is refused until older failures leave the window; refused
 * attempts are not counted, so the lock lifts on its own.
 */
export const LOGIN_LIMITS = {
  windowMinutes: 15,
  perAccount: 10,
  perAddress: 20,
  /** Failures from every address together, per `everywhereWindowSeconds`. */
  everywhere: 30,
  everywhereWindowSeconds: 60,
} as const;

export interface LoginAttempt {
  /** Remove the attempt (it succeeded) and every earlier failure of the same account. */
  succeeded(): Promise<void>;
  /** Remove the attempt: the password was never checked, so it does not count. */
  withdrawn(): Promise<void>;
}

export type AttemptDecision =
  | { allowed: true; attempt: LoginAttempt }
  /**
   * `everywhere`: the shop-wide ceiling is reached (whatever the account and the address), and
   * `freeAt` (milliseconds since the epoch) is when it lifts; otherwise `freeAt` is when this
   * account and address may try again.
   */
  | { allowed: false; retryAfterSeconds: number; everywhere: boolean; freeAt: number };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * What the per-address limit counts by: an IPv4 address as it is, an IPv6 one by its /64 (one
 * home or server connection usually gets a whole /64, so single addresses are free to change).
 */
export function addressKey(address: string): string {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  if (mapped?.[1]) return mapped[1];
  if (!net.isIPv6(address)) return address.slice(0, 100);
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = address.includes("::")
    ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * Counts this attempt as a failure first and then checks the limits, so that parallel attempts
 * all see one another: the limit cannot be outrun by sending many at once.
 */
export async function beginLoginAttempt(
  db: Db,
  input: { email: string; address: string },
  now = new Date(),
): Promise<AttemptDecision> {
  const email = normalizeEmail(input.email).slice(0, 320);
  const address = addressKey(input.address);
  const window = LOGIN_LIMITS.windowMinutes * 60_000;
  const everywhereWindow = LOGIN_LIMITS.everywhereWindowSeconds * 1000;
  const since = toTimestamp(new Date(now.getTime() - window));
  const sinceEverywhere = toTimestamp(new Date(now.getTime() - everywhereWindow));
  const id = newId(20);
  await db
    .insertInto("login_failures")
    .values({ id, email, address, failed_at: toTimestamp(now) })
    .execute();

  // The shop-wide count reads every row of its short window: at most about `everywhere` a minute
  // are kept (refused attempts are deleted), so that stays a small read without an index of its own.
  const counts = await db
    .selectFrom("login_failures")
    .select((eb) => [
      eb.fn.countAll<number | string>().filterWhere("email", "=", email).as("account"),
      eb.fn.countAll<number | string>().filterWhere("address", "=", address).as("address"),
      eb.fn.countAll<number | string>().filterWhere("failed_at", ">=", sinceEverywhere).as("everywhere"),
    ])
    .where("failed_at", ">=", since)
    .where((eb) =>
      eb.or([eb("email", "=", email), eb("address", "=", address), eb("failed_at", ">=", sinceEverywhere)]),
    )
    .executeTakeFirstOrThrow();

  const overAccount = Number(counts.account) > LOGIN_LIMITS.perAccount;
  const overAddress = Number(counts.address) > LOGIN_LIMITS.perAddress;
  const overEverywhere = Number(counts.everywhere) > LOGIN_LIMITS.everywhere;
  const withdraw = () => db.deleteFrom("login_failures").where("id", "=", id).execute();
  if (overAccount || overAddress || overEverywhere) {
    await withdraw();
    // Free again when enough failures of each exceeded limit have left its window. The shop-wide
    // ceiling is answered first, on its own: until it lifts nobody is checked, and that is all
    // this attempt learns (the other limits answer when it is tried again).
    const releases = overEverywhere
      ? [await releaseTime(db, {}, LOGIN_LIMITS.everywhere, sinceEverywhere, everywhereWindow)]
      : await Promise.all([
          overAccount ? releaseTime(db, { email }, LOGIN_LIMITS.perAccount, since, window) : 0,
          overAddress ? releaseTime(db, { address }, LOGIN_LIMITS.perAddress, since, window) : 0,
        ]);
    const freeAt = Math.max(...releases);
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)),
      everywhere: overEverywhere,
      freeAt,
    };
  }
  return {
    allowed: true,
    attempt: {
      async succeeded() {
        await withdraw();
        await clearLoginFailures(db, email);
      },
      async withdrawn() {
        await withdraw();
      },
    },
  };
}

/** When the oldest failure that keeps a key (or, with none, the whole shop) over its limit leaves the window. */
async function releaseTime(
  db: Db,
  key: { email?: string; address?: string },
  limit: number,
  since: string,
  windowMs: number,
): Promise<number> {
  let query = db
    .selectFrom("login_failures")
    .select("failed_at")
    .where("failed_at", ">=", since)
    .orderBy("failed_at", "desc")
    .limit(limit);
  if (key.email !== undefined) query = query.where("email", "=", key.email);
  if (key.address !== undefined) query = query.where("address", "=", key.address);
  const rows = await query.execute();
  // With `limit` failures still in the window the next attempt is refused: the limit-th newest
  // must leave it first.
  const blocking = rows[limit - 1] ?? rows[rows.length - 1];
  return blocking ? new Date(blocking.failed_at).getTime() + windowMs : 0;
}

/**
 * After a successful login or a password reset the account starts with a clean slate; its earlier
 * failures still count against the addresses they came from (an owner's login does not refill a
 * guesser's quota).
 */
export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db
    .updateTable("login_failures")
    .set({ email: "" })
    .where("email", "=", normalizeEmail(email))
    .execute();
}

/** Failures out of the window count for nothing: the periodic sweep removes them. */
export async function deleteOldLoginFailures(db: Db, now = new Date()): Promise<void> {
  const since = toTimestamp(new Date(now.getTime() - LOGIN_LIMITS.windowMinutes * 60_000));
  await db.deleteFrom("login_failures").where("failed_at", "<", since).execute();
}
