import { sql } from "kysely";
import { type Db, toTimestamp } from "~/db/database.server";
import { takeTurnsOn } from "~/db/transaction-lock.server";
import { addressBucket } from "~/lib/address-bucket";
import { newId } from "~/lib/ids";
import { foldMailbox } from "~/lib/mailbox";

/*
 * How many 'Avísame' confirmation e-mails the shop sends, whoever asks (decision 31): per
 * recipient mailbox, per address bucket of the sign-ups and shop-wide. A sign-up past a cap is
 * answered as an accepted one and sends nothing; the refusal is counted for the owner.
 */

export const MAIL_CAPS = {
  /** Confirmations to one mailbox (plus-addressing and Gmail's dots folded) in 24 hours. */
  mailboxPerDay: 3,
  /** Weight of confirmations asked from one address bucket (IPv4 address, IPv6 /64) in an hour. */
  bucketPerHour: 30,
  /** What a sign-up without a proof of work weighs against its bucket, when the shop asks for one. */
  withoutProofWeight: 3,
  /** Confirmations the whole shop sends in an hour. */
  shopPerHour: 600,
  /** Of those, at most this many without a proof of work, when the shop asks for one. */
  shopWithoutProofPerHour: 100,
} as const;

/** Sends older than this are deleted as new ones are recorded: the caps look back one day. */
const KEEP_HOURS = 48;
const HOUR = 3_600_000;

/** Which cap a sign-up hit: the recipient's mailbox, the address bucket, or the shop's hour. */
export type MailCap = "buzon" | "direccion" | "tienda";

/** Where a sign-up came from, as the caps count it. */
export interface SignUpSource {
  /** The client's address (an IPv6 one counts by its /64). */
  address: string;
  /**
   * False when the shop asks for a proof of work and the sign-up brought none (a form posted
   * without JavaScript): it weighs more against its bucket and shares a smaller shop-wide hour.
   */
  proven: boolean;
}

/**
 * Makes the caps' counts this transaction's alone until it ends, on every app server: an advisory
 * lock on PostgreSQL; on SQLite every transaction already holds the write lock (BEGIN IMMEDIATE).
 * One lock for the shop (the shop-wide count needs it anyway): confirmations are few and each
 * holds it for a few statements.
 */
export async function lockMailCaps(trx: Db): Promise<void> {
  await takeTurnsOn(trx, "avisame-correos");
}

const countOf = (row: { n: string | number | bigint | null } | undefined) => Number(row?.n ?? 0);

/**
 * The first cap a confirmation to `email` from `source` would pass now, or null when it may go.
 * Authoritative inside a transaction holding `lockMailCaps` (then `recordSend` must follow in the
 * same transaction); outside one, a cap it finds reached is reached (a flood is turned away without
 * queueing for the lock), while a null must be asked again under the lock.
 */
export async function mailCapReached(
  trx: Db,
  email: string,
  source: SignUpSource,
  now: Date,
): Promise<MailCap | null> {
  const sends = () => trx.selectFrom("waitlist_confirmation_sends");
  const dayAgo = toTimestamp(new Date(now.getTime() - 24 * HOUR));
  const hourAgo = toTimestamp(new Date(now.getTime() - HOUR));

  const toMailbox = await sends()
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("mailbox", "=", foldMailbox(email))
    .where("sent_at", ">", dayAgo)
    .executeTakeFirst();
  if (countOf(toMailbox) >= MAIL_CAPS.mailboxPerDay) return "buzon";

  const weight = source.proven ? 1 : MAIL_CAPS.withoutProofWeight;
  const fromBucket = await sends()
    .select(
      sql<
        string | number | null
      >`sum(case when without_proof = 1 then ${sql.lit(MAIL_CAPS.withoutProofWeight)} else 1 end)`.as("n"),
    )
    .where("bucket", "=", addressBucket(source.address))
    .where("sent_at", ">", hourAgo)
    .executeTakeFirst();
  if (countOf(fromBucket) + weight > MAIL_CAPS.bucketPerHour) return "direccion";

  const shop = await sends()
    .select((eb) => [
      eb.fn.countAll<string | number>().as("n"),
      sql<string | number | null>`sum(without_proof)`.as("unproven"),
    ])
    .where("sent_at", ">", hourAgo)
    .executeTakeFirst();
  if (countOf(shop) >= MAIL_CAPS.shopPerHour) return "tienda";
  if (!source.proven && Number(shop?.unproven ?? 0) >= MAIL_CAPS.shopWithoutProofPerHour) return "tienda";
  return null;
}

/** Records a confirmation queued (after `mailCapReached` said null), and forgets old ones. */
export async function recordSend(
  trx: Db,
  input: { email: string; source: SignUpSource; dropId: string; now: Date },
): Promise<void> {
  await trx
    .insertInto("waitlist_confirmation_sends")
    .values({
      id: newId(),
      mailbox: foldMailbox(input.email),
      bucket: addressBucket(input.source.address),
      without_proof: input.source.proven ? 0 : 1,
      drop_id: input.dropId,
      sent_at: toTimestamp(input.now),
    })
    .execute();
  await trx
    .deleteFrom("waitlist_confirmation_sends")
    .where("sent_at", "<", toTimestamp(new Date(input.now.getTime() - KEEP_HOURS * HOUR)))
    .execute();
}

/** Rows each drop's count of one cap is spread over (a flood's increments would queue for one). */
const REFUSAL_SHARDS = 16;

/** Counts a sign-up that sent nothing because of `cap`, for the owner (Campañas). */
export async function countRefusal(db: Db, dropId: string, cap: MailCap, now: Date): Promise<void> {
  const shard = Math.floor(Math.random() * REFUSAL_SHARDS);
  await db
    .insertInto("waitlist_mail_refusals")
    .values({ drop_id: dropId, reason: cap, shard, refusals: 1, last_at: toTimestamp(now) })
    .onConflict((oc) =>
      oc.columns(["drop_id", "reason", "shard"]).doUpdateSet({
        refusals: sql<number>`waitlist_mail_refusals.refusals + 1`,
        last_at: toTimestamp(now),
      }),
    )
    .execute();
}
