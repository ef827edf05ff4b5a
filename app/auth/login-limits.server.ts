import type { Db } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import { addressBucket } from "~/lib/address-bucket";
import { newId } from "~/lib/ids";

/**
 * Failed sign-ins, counted in the database so that the limits hold across app servers (decision 32).
 *
 * From a device the account has signed in from before (a *known* device: its signed `navegador`
 * cookie, app/auth/devices.server.ts), only that device's own failures count against it: a flood
 * from elsewhere, the account's failures from other devices and the shop-wide ceiling never touch
 * it. From any other device, failures count per device, per client address, per account and
 * across the whole shop; past the device's or the address's limit the attempt is refused, past
 * the account's or the shop-wide one it must bring a proof of work (one per attempt) when the shop
 * asks for them, and is refused without one. Refused attempts are not counted, so every limit
 * lifts on its own.
 */
export const LOGIN_LIMITS = {
  windowMinutes: 15,
  /** Failures for one account from unknown devices: past them, each attempt costs a proof of work. */
  perAccount: 10,
  perAddress: 20,
  /** Failures for one account from one device (a known one too): past them, that device waits. */
  perDevice: 10,
  /** Failures from every unknown device together, per `everywhereWindowSeconds`. */
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
   * account, device and address may try again. `proof`: a proof of work would have let it through.
   */
  | { allowed: false; retryAfterSeconds: number; everywhere: boolean; freeAt: number; proof: boolean };

/** Who is trying: the account typed, from where, from which browser, and whether it signed in there before. */
export interface AttemptInput {
  email: string;
  address: string;
  /** The browser's id from its signed cookie; null without one. */
  device?: string | null;
  /** The device has signed in to this account before. */
  known?: boolean;
  /**
   * Spends the proof of work the attempt brought, true when it was good; null when the shop asks
   * for none (then the account's and the shop-wide limits refuse, as the others do).
   */
  proof?: (() => Promise<boolean>) | null;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * What the per-address limit counts by: the address bucket (an IPv4 address as it is, an IPv6 one
 * by its /64: one home or phone gets a whole /64, so single addresses are free to change).
 */
export function addressKey(address: string): string {
  return addressBucket(address).slice(0, 100);
}

/**
 * Counts this attempt as a failure first and then checks the limits, so that parallel attempts
 * all see one another: the limit cannot be outrun by sending many at once.
 */
export async function beginLoginAttempt(
  db: Db,
  input: AttemptInput,
  now = new Date(),
): Promise<AttemptDecision> {
  const email = normalizeEmail(input.email).slice(0, 320);
  const address = addressKey(input.address);
  const device = (input.device ?? "").slice(0, 100);
  const known = Boolean(input.known && device);
  const window = LOGIN_LIMITS.windowMinutes * 60_000;
  const everywhereWindow = LOGIN_LIMITS.everywhereWindowSeconds * 1000;
  const since = toTimestamp(new Date(now.getTime() - window));
  const sinceEverywhere = toTimestamp(new Date(now.getTime() - everywhereWindow));
  const id = newId(20);
  await db
    .insertInto("login_failures")
    .values({ id, email, address, device, known: known ? 1 : 0, failed_at: toTimestamp(now) })
    .execute();
  const withdraw = () => db.deleteFrom("login_failures").where("id", "=", id).execute();
  const allowed = {
    allowed: true,
    attempt: {
      async succeeded() {
        await withdraw();
        // This device's slate only: a flood's failures against the account from elsewhere stay
        // until they age out (the owner signing in does not refill a guesser's quota). Without a
        // browser cookie there is no device to tell apart from a guesser's: nothing is cleared.
        if (device) await clearLoginFailures(db, email, device);
      },
      async withdrawn() {
        await withdraw();
      },
    },
  } as const;

  if (known) {
    // A device the owner used before: its own failures only.
    const mine = await db
      .selectFrom("login_failures")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("failed_at", ">=", since)
      .where("device", "=", device)
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    if (Number(mine.n) <= LOGIN_LIMITS.perDevice) return allowed;
    await withdraw();
    const freeAt = await releaseTime(db, { email, device }, LOGIN_LIMITS.perDevice, since, window);
    return refusal(now, freeAt, { everywhere: false, proof: false });
  }

  // The shop-wide count reads every row of its short window: at most about `everywhere` a minute
  // are kept (refused attempts are deleted), so that stays a small read without an index of its own.
  const unknown = 0;
  const counts = await db
    .selectFrom("login_failures")
    .select((eb) => [
      eb.fn
        .countAll<number | string>()
        .filterWhere((f) => f.and([f("email", "=", email), f("known", "=", unknown)]))
        .as("account"),
      eb.fn.countAll<number | string>().filterWhere("address", "=", address).as("address"),
      eb.fn
        .countAll<number | string>()
        .filterWhere((f) => f.and([f("device", "=", device), f("email", "=", email)]))
        .as("device"),
      eb.fn
        .countAll<number | string>()
        .filterWhere((f) => f.and([f("failed_at", ">=", sinceEverywhere), f("known", "=", unknown)]))
        .as("everywhere"),
    ])
    .where("failed_at", ">=", since)
    .where((eb) =>
      eb.or([eb("email", "=", email), eb("address", "=", address), eb("failed_at", ">=", sinceEverywhere)]),
    )
    .executeTakeFirstOrThrow();

  const overAccount = Number(counts.account) > LOGIN_LIMITS.perAccount;
  const overAddress = Number(counts.address) > LOGIN_LIMITS.perAddress;
  const overDevice = device !== "" && Number(counts.device) > LOGIN_LIMITS.perDevice;
  const overEverywhere = Number(counts.everywhere) > LOGIN_LIMITS.everywhere;
  // Past the account's or the shop-wide limit (and no other), a good proof of work lets it through.
  const proofWouldDo = (overAccount || overEverywhere) && !overAddress && !overDevice && Boolean(input.proof);
  if (proofWouldDo && (await input.proof?.())) return allowed;
  if (!overAccount && !overAddress && !overDevice && !overEverywhere) return allowed;
  await withdraw();
  // Free again when enough failures of each exceeded limit have left its window. The shop-wide
  // ceiling is answered first, on its own: until it lifts nobody is checked, and that is all
  // this attempt learns (the other limits answer when it is tried again).
  const releases = overEverywhere
    ? [await releaseTime(db, { known: unknown }, LOGIN_LIMITS.everywhere, sinceEverywhere, everywhereWindow)]
    : await Promise.all([
        overAccount ? releaseTime(db, { email, known: unknown }, LOGIN_LIMITS.perAccount, since, window) : 0,
        overAddress ? releaseTime(db, { address }, LOGIN_LIMITS.perAddress, since, window) : 0,
        overDevice ? releaseTime(db, { email, device }, LOGIN_LIMITS.perDevice, since, window) : 0,
      ]);
  return refusal(now, Math.max(...releases), { everywhere: overEverywhere, proof: proofWouldDo });
}

function refusal(now: Date, freeAt: number, how: { everywhere: boolean; proof: boolean }): AttemptDecision {
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)),
    freeAt,
    ...how,
  };
}

/** When the oldest failure that keeps a key (or, with none, the whole shop) over its limit leaves the window. */
async function releaseTime(
  db: Db,
  key: { email?: string; address?: string; device?: string; known?: number },
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
  if (key.device !== undefined) query = query.where("device", "=", key.device);
  if (key.known !== undefined) query = query.where("known", "=", key.known);
  const rows = await query.execute();
  // With `limit` failures still in the window the next attempt is refused: the limit-th newest
  // must leave it first.
  const blocking = rows[limit - 1] ?? rows[rows.length - 1];
  return blocking ? new Date(blocking.failed_at).getTime() + windowMs : 0;
}

/**
 * After a successful login (from `device`: only that device's failures) or a password reset (every
 * failure of the account) the account starts with a clean slate there; its earlier failures still
 * count against the addresses they came from (an owner's login does not refill a guesser's quota).
 */
export async function clearLoginFailures(db: Db, email: string, device?: string): Promise<void> {
  let query = db.updateTable("login_failures").set({ email: "" }).where("email", "=", normalizeEmail(email));
  if (device !== undefined) query = query.where("device", "=", device);
  await query.execute();
}

/** Failures out of the window count for nothing: the periodic sweep removes them. */
export async function deleteOldLoginFailures(db: Db, now = new Date()): Promise<void> {
  const since = toTimestamp(new Date(now.getTime() - LOGIN_LIMITS.windowMinutes * 60_000));
  await db.deleteFrom("login_failures").where("failed_at", "<", since).execute();
}
