import { createOTP } from "@better-auth/utils/otp";
import type { Db } from "~/db/database.server";

/**
 * An app code works once (RFC 6238 §5.2; decision 32). The sign-in library accepts the code of the
 * current 30-second step and one either side, as often as it is typed within them; the shop
 * finds which step a code belongs to (with the library's own code generator, over the same
 * secret) and spends it, with every earlier step, for that administrator in the database, so a
 * code seen over a shoulder or replayed to a second app server is refused.
 */

export const CODE_STEP_SECONDS = 30;
/** Steps either side of now a code may belong to: the library's own window. */
const WINDOW = 1;

/** The step whose code `code` is, for `key` (the secret as the library keeps it); null for none. */
export async function stepOfCode(key: string, code: string, now = Date.now()): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const otp = createOTP(key, { digits: 6, period: CODE_STEP_SECONDS });
  const current = Math.floor(now / 1000 / CODE_STEP_SECONDS);
  // Newest first: two steps cannot share a code in practice, and the newest is the likelier one.
  for (let offset = WINDOW; offset >= -WINDOW; offset--) {
    if ((await otp.hotp(current + offset)) === code) return current + offset;
  }
  return null;
}

/**
 * Spends `step` for the administrator: true the first time, false when it (or a later one) was
 * spent already. One conditional write, so two servers taking the same code race to one winner.
 */
export async function spendStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .insertInto("admin_code_steps")
    .values({ user_id: userId, last_step: step })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet((eb) => ({ last_step: eb.ref("excluded.last_step") }))
        .where("admin_code_steps.last_step", "<", (eb) => eb.ref("excluded.last_step")),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
