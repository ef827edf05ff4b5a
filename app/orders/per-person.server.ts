import { sql } from "kysely";
import type { Db } from "~/db/database.server";
import { takeTurnsOn } from "~/db/transaction-lock.server";
import { type BuyerKey, KEY_WORDS, limitReason } from "./per-person-reason";
import { DESK_TABS } from "./status";

/*
 * 'Máximo N por persona' at payment (decision 29). The checkout counts the pieces of one order;
 * here, when a payment is confirmed, the pieces of each limited drop are counted across every
 * order the same buyer kept (and every voucher of theirs still waiting to be paid): the same
 * e-mail, the same card (the provider's fingerprint) or the same shipping address. The orders
 * already kept keep their pieces; the one that goes over is the one being confirmed. A voucher
 * (OXXO, SPEI) is counted the same way when it is recorded, as if it were kept: one over the limit
 * is cancelled before it can be paid (voucher-limit.server.ts).
 *
 * Runs inside the payment's (or the voucher's) transaction. Confirmations of one drop take their
 * turn (an advisory lock per drop on PostgreSQL; SQLite's write transactions take theirs anyway),
 * so two payments of one buyer confirmed at once by two app servers are counted one after the
 * other: the second sees the first, never both only themselves.
 */

/** The statuses of orders a buyer keeps: paid and not cancelled. */
const KEPT = [...DESK_TABS];
/** A return whose pieces came back to the shop: received (its refund under way) or refunded. */
const RETURNED = ["recibida", "reembolsada"] as const;

export interface OverLimit {
  dropId: string;
  dropName: string;
  max: number;
  /** Pieces of the drop the buyer's other orders keep (paid, and vouchers waiting when they count). */
  kept: number;
  /** Pieces of the drop in this order. */
  wanted: number;
  /** What made them one buyer. */
  keys: BuyerKey[];
  /** In Spanish, for the owner's desk and the buyer's e-mail. */
  reason: string;
}

/**
 * Takes the per-person locks of the order's limited drops (PostgreSQL; SQLite writes one at a time
 * anyway), in id order, and returns those drops and the order's lines. Taken first thing in a
 * confirmation's transaction, before any product row, so that two confirmations never wait on
 * each other's locks and rows.
 */
export async function lockLimitedDrops(trx: Db, orderId: string) {
  const lines = await trx
    .selectFrom("order_lines")
    .select(["drop_id", "quantity", "missing"])
    .where("order_id", "=", orderId)
    .execute();
  if (lines.length === 0) return { lines, limited: [] };
  const limited = await trx
    .selectFrom("drops")
    .select(["id", "name", "max_per_order"])
    .where("id", "in", [...new Set(lines.map((l) => l.drop_id))])
    .where("max_per_order", "is not", null)
    .orderBy("id")
    .execute();
  // In id order, so two confirmations sharing drops cannot wait on each other.
  for (const drop of limited) await takeTurnsOn(trx, `por-persona:${drop.id}`);
  return { lines, limited };
}

/**
 * Null when the order is within every drop's limit (or no drop of it has one). Counted beside it:
 * the orders the buyer kept, and her vouchers still waiting to be paid, except when the order is a
 * voucher being paid (cash paid is not cancelled for another voucher that may never be). A voucher
 * being recorded (`recording`, voucher-wait.server.ts) is counted as if it were kept, against both.
 */
export async function overPerPersonLimit(
  trx: Db,
  orderId: string,
  options: { recording?: boolean } = {},
): Promise<OverLimit | null> {
  // Its locks are already this transaction's (confirmPayment took them first): taken again, a no-op.
  const { lines, limited } = await lockLimitedDrops(trx, orderId);
  if (limited.length === 0) return null;
  const me = await trx
    .selectFrom("orders")
    .select(["email_key", "card_fingerprint", "address_key", "voucher_reference"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!me) return null;
  const keys = (Object.keys(KEY_WORDS) as BuyerKey[]).filter((k) => me[k] !== null && me[k] !== "");
  if (keys.length === 0) return null;
  const withWaiting = options.recording === true || me.voucher_reference === null;
  // The buyer's orders by each key (orders_by_email_key, …_card_fingerprint, …_address_key), then
  // their lines; each drop's are picked from those lines below, not in the statement: told the
  // drops' ids, SQLite starts from the drops' lines instead (order_lines_by_drop) and reads every
  // one of them, thousands at an opening, inside the payment's write transaction.
  const others = await trx
    .selectFrom("orders as o")
    .innerJoin("order_lines as l", "l.order_id", "o.id")
    .select([
      "o.status",
      "o.email_key",
      "o.card_fingerprint",
      "o.address_key",
      "l.drop_id",
      "l.quantity",
      "l.missing",
    ])
    // Pieces she sent back (a return received, refunded or about to be) are no longer hers.
    .select((eb) =>
      eb
        .selectFrom("return_lines as rl")
        .innerJoin("returns as r", "r.id", "rl.return_id")
        .select(sql<number | string | null>`sum(coalesce(rl.received, rl.quantity))`.as("n"))
        .whereRef("r.order_id", "=", "o.id")
        .whereRef("rl.position", "=", "l.position")
        .where("r.status", "in", RETURNED)
        .as("returned"),
    )
    .where("o.id", "<>", orderId)
    // Paid orders, and vouchers still waiting to be paid (decision 42) when they count: not one
    // over the limit itself, whose cancellation waits for the provider (voucher-limit.server.ts).
    .where((eb) =>
      withWaiting
        ? eb.or([
            eb("o.status", "in", KEPT),
            eb.and([
              eb("o.status", "=", "esperando_pago"),
              eb("o.voucher_reference", "is not", null),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom("voucher_cancellations as vc")
                    .select("vc.order_id")
                    .whereRef("vc.order_id", "=", "o.id"),
                ),
              ),
            ]),
          ])
        : eb("o.status", "in", KEPT),
    )
    .where((eb) => eb.or(keys.map((k) => eb(`o.${k}`, "=", me[k] as string))))
    .execute();
  for (const drop of limited) {
    const max = drop.max_per_order ?? 0;
    const wanted = lines.filter((l) => l.drop_id === drop.id).reduce((n, l) => n + l.quantity - l.missing, 0);
    if (wanted === 0) continue;
    const theirs = others.filter((o) => o.drop_id === drop.id);
    const count = (rows: typeof theirs) =>
      rows.reduce((n, o) => n + o.quantity - o.missing - Number(o.returned ?? 0), 0);
    const waiting = count(theirs.filter((o) => o.status === "esperando_pago"));
    const kept = count(theirs);
    if (kept + wanted <= max) continue;
    const matched = keys.filter((k) => theirs.some((o) => o[k] === me[k]));
    return {
      dropId: drop.id,
      dropName: drop.name,
      max,
      kept,
      wanted,
      keys: matched,
      reason: limitReason({ dropName: drop.name, max, paid: kept - waiting, waiting, keys: matched }),
    };
  }
  return null;
}
