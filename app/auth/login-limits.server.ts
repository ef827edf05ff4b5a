import type { Db } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import { newId } from "~/lib/ids";

/**
 * Failed sign-ins are counted per account (the e-mail typed, whether or not it exists) and per
 * client address over a sliding window. The counts live in the database so that the limit holds
 * across app servers. Past a limit, sign-in is refused with the same generic message until older
 * failures leave the window; refused attempts are not counted, so the lock lifts on its own.
 */
export const LOGIN_LIMITS = {
  windowMinutes: 15,
  perAccount: 10,
  perAddress: 20,
} as const;

export interface LoginAttempt {
  /** Remove the attempt (it succeeded) and every earlier failure of the same account. */
  succeeded(): Promise<void>;
}

export type AttemptDecision =
  | { allowed: true; attempt: LoginAttempt }
  | { allowed: false; retryAfterSeconds: number };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
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
  const address = input.address.slice(0, 100);
  const since = toTimestamp(new Date(now.getTime() - LOGIN_LIMITS.windowMinutes * 60_000));
  // Old rows are of no further use.
  await db.deleteFrom("login_failures").where("failed_at", "<", since).execute();
  const id = newId(20);
  await db
    .insertInto("login_failures")
    .values({ id, email, address, failed_at: toTimestamp(now) })
    .execute();

  const counts = await db
    .selectFrom("login_failures")
    .select((eb) => [
      eb.fn.countAll<number | string>().filterWhere("email", "=", email).as("account"),
      eb.fn.countAll<number | string>().filterWhere("address", "=", address).as("address"),
      eb.fn.min("failed_at").as("oldest"),
    ])
    .where("failed_at", ">=", since)
    .where((eb) => eb.or([eb("email", "=", email), eb("address", "=", address)]))
    .executeTakeFirstOrThrow();

  if (Number(counts.account) > LOGIN_LIMITS.perAccount || Number(counts.address) > LOGIN_LIMITS.perAddress) {
    await db.deleteFrom("login_failures").where("id", "=", id).execute();
    const oldest = counts.oldest ? new Date(counts.oldest) : now;
    const freeAt = oldest.getTime() + LOGIN_LIMITS.windowMinutes * 60_000;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) };
  }
  return {
    allowed: true,
    attempt: {
      async succeeded() {
        await db
          .deleteFrom("login_failures")
          .where((eb) => eb.or([eb("id", "=", id), eb("email", "=", email)]))
          .execute();
      },
    },
  };
}

/** After a password reset the account starts with a clean slate. */
export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.deleteFrom("login_failures").where("email", "=", normalizeEmail(email)).execute();
}
