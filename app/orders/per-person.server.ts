import { sql } from "kysely";
import type { Db } from "~/db/database.server";
import { takeTurnsOn } from "~/db/transaction-lock.server";
import { DESK_TABS } from "./status";

/*
 * 'Máximo N por persona' at payment (decision 29). The checkout counts the pieces of one order;
 * here, when a payment is confirmed, the pieces of each limited drop are counted across every
 * order the same buyer kept (and every voucher of theirs still waiting to be paid): the same e-mail, the same card (the provider's fingerprint) or the
 * same shipping address. The orders already kept keep their pieces; the one that goes over is
 * the one being confirmed.
 *
 * Runs inside the payment's transaction, after its order became `pendiente`. Confirmations of one
 * drop take their turn (an advisory lock per drop on PostgreSQL; SQLite's write transactions take
 * theirs anyway), so two payments of one buyer confirmed at once by two app servers are counted
 * one after the other: the second sees the first, never both only themselves.
 */

/** The statuses of orders a buyer keeps: paid and not cancelled. */
const KEPT = [...DESK_TABS];
/** A return whose pieces came back to the shop: received (its refund under way) or refunded. */
const RETURNED = ["recibida", "reembolsada"] as const;

type Key = "email_key" | "card_fingerprint" | "address_key";
const KEY_WORDS: Record<Key, string> = {
  email_key: "el mismo correo",
  card_fingerprint: "la misma tarjeta",
  address_key: "la misma dirección de envío",
};

export interface OverLimit {
  dropId: string;
  dropName: string;
  max: number;
  /** Pieces of the drop the buyer's other orders keep. */
  kept: number;
  /** Pieces of the drop in this order. */
  wanted: number;
  /** What made them one buyer. */
  keys: Key[];
  /** In Spanish, for the owner's desk and the buyer's e-mail. */
  reason: string;
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} y ${words.at(-1)}`;
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

/** Null when the order is within every drop's limit (or no drop of it has one). */
export async function overPerPersonLimit(trx: Db, orderId: string): Promise<OverLimit | null> {
  // Its locks are already this transaction's (confirmPayment took them first): taken again, a no-op.
  const { lines, limited } = await lockLimitedDrops(trx, orderId);
  if (limited.length === 0) return null;
  const me = await trx
    .selectFrom("orders")
    .select(["email_key", "card_fingerprint", "address_key", "voucher_reference"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!me) return null;
  const keys = (Object.keys(KEY_WORDS) as Key[]).filter((k) => me[k] !== null && me[k] !== "");
  if (keys.length === 0) return null;
  const others = await trx
    .selectFrom("orders as o")
    .innerJoin("order_lines as l", "l.order_id", "o.id")
    .select(["o.email_key", "o.card_fingerprint", "o.address_key", "l.drop_id", "l.quantity", "l.missing"])
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
    // Paid orders, and vouchers still waiting to be paid (decision 42) — except for a voucher
    // being paid itself: cash paid is not cancelled for another voucher that may never be.
    .where((eb) =>
      me.voucher_reference !== null
        ? eb("o.status", "in", KEPT)
        : eb.or([
            eb("o.status", "in", KEPT),
            eb.and([eb("o.status", "=", "esperando_pago"), eb("o.voucher_reference", "is not", null)]),
          ]),
    )
    .where(
      "l.drop_id",
      "in",
      limited.map((d) => d.id),
    )
    .where((eb) => eb.or(keys.map((k) => eb(`o.${k}`, "=", me[k] as string))))
    .execute();
  for (const drop of limited) {
    const max = drop.max_per_order ?? 0;
    const wanted = lines.filter((l) => l.drop_id === drop.id).reduce((n, l) => n + l.quantity - l.missing, 0);
    if (wanted === 0) continue;
    const theirs = others.filter((o) => o.drop_id === drop.id);
    const kept = theirs.reduce((n, o) => n + o.quantity - o.missing - Number(o.returned ?? 0), 0);
    if (kept + wanted <= max) continue;
    const matched = keys.filter((k) => theirs.some((o) => o[k] === me[k]));
    const pieces = kept === 1 ? "1 pieza" : `${kept} piezas`;
    return {
      dropId: drop.id,
      dropName: drop.name,
      max,
      kept,
      wanted,
      keys: matched,
      reason: `«${drop.name}» permite ${max} por persona y ya había ${pieces} pagada${kept === 1 ? "" : "s"} con ${joinWords(matched.map((k) => KEY_WORDS[k]))}.`,
    };
  }
  return null;
}
