import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { errorLine } from "~/lib/errors";
import { detachBrowser, expiredHolds, extendHold, type HoldCursor, releaseHold } from "./holds.server";
import type { PaymentProvider } from "./payment-port";
import { settlePaidSession } from "./settle-payment.server";
import { recordVoucher, retryVoucherCancellations } from "./voucher-limit.server";
import { inDropOpening } from "./voucher-wait.server";

/**
 * How much longer a hold waits, at each sweep, for a delayed payment whose voucher the shop cannot
 * read (a voucher it can read holds until its own expiry); not at all during its drop's opening.
 */
const DELAYED_PAYMENT_RECHECK_MS = 60 * 60_000;

/** Holds read at a time; the sweep goes on page after page until none is left. */
const PAGE_SIZE = 100;
/**
 * Holds settled at once: each may wait on the provider (a session that keeps failing costs the
 * SDK's retries, about a second), and one slow session must not hold up the release of the others.
 */
const AT_ONCE = 25;
/**
 * A sweep starts no hold after this long (the shop sweeps every minute: the next one goes on),
 * so sessions that keep failing cannot make one sweep run into the next.
 */
export const SWEEP_BUDGET_MS = 45_000;
/**
 * The holds whose settling failed at this server's last sweep: the next sweep settles them after
 * every other, so however many keep failing, the rest are reached first within the budget.
 */
const failedLastSweep = new Set<string>();

/**
 * Settles holds whose time is up. The provider is asked first: a session that was paid (say,
 * while this server was down) is fulfilled (and, over a drop's per-person limit, cancelled and
 * refunded); one completed with a voucher (OXXO, SPEI) keeps its hold until the voucher expires,
 * recorded here if its event never came (decision 42) — never while one of its drops is in its
 * opening period, when the hold ends on time like any other; any other (including one the
 * provider does not know, and a voucher that expired unpaid) is closed and its pieces go back.
 * Then vouchers over a drop's per-person limit whose cancellation the provider did not answer
 * are asked again (voucher-limit.server.ts), when due.
 *
 * A hold that cannot be settled now (the provider does not answer) keeps waiting for the next
 * sweep, and the sweep pages past it: however many fail, every other hold is reached. Holds are
 * settled AT_ONCE at a time, so sessions that keep failing at the provider (each costing its
 * retries) delay the others by a fraction of their time, not the sum of it; those that failed at
 * the last sweep go after every other, and no hold starts past the sweep's time budget. Safe when
 * several servers sweep at once: each step only acts on an order still waiting, and a hold is
 * counted only by the server whose step changed it.
 */
export async function sweepExpiredHolds(
  db: Db,
  payments: PaymentProvider,
  now = new Date(),
  options: { budgetMs?: number } = {},
): Promise<{ released: number; paid: number; waiting: number; failed: number }> {
  const counts = { released: 0, paid: 0, waiting: 0, failed: 0 };
  const deadline = performance.now() + (options.budgetMs ?? SWEEP_BUDGET_MS);
  const failedNow = new Set<string>();
  const lastTime = [] as ExpiredHold[];
  let postponed = 0;

  /** Settles `holds` in AT_ONCE lanes: a hold waits only for a free lane, and none starts past the budget. */
  async function settleAll(holds: ExpiredHold[], first: boolean) {
    let nextHold = 0;
    const lane = async () => {
      for (let hold = holds[nextHold++]; hold; hold = holds[nextHold++]) {
        if (first && failedLastSweep.has(hold.id)) {
          lastTime.push(hold);
          continue;
        }
        if (performance.now() >= deadline) {
          postponed++;
          // One that failed last time and was not tried keeps its place after the others.
          if (!first) failedNow.add(hold.id);
          continue;
        }
        try {
          const outcome = await settleHold(db, payments, hold, now);
          if (outcome) counts[outcome]++;
        } catch (error) {
          counts.failed++;
          failedNow.add(hold.id);
          log.error({ orderId: hold.id, error: errorLine(error) }, "No se pudo resolver el apartado");
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, holds.length) }, lane));
  }

  let after: HoldCursor | undefined;
  for (;;) {
    const holds = await expiredHolds(db, now, { limit: PAGE_SIZE, after });
    const last = holds.at(-1)?.cursor;
    await settleAll(holds, true);
    // The next page starts past this one, failed holds included; a short page was the last. Past
    // the budget no page more is read: the next sweep starts again from the first.
    if (!last || holds.length < PAGE_SIZE || performance.now() >= deadline) break;
    after = last;
  }
  // Those that failed last time, once every other had its turn.
  await settleAll(lastTime, false);
  failedLastSweep.clear();
  for (const id of failedNow) failedLastSweep.add(id);
  // Vouchers over a drop's per-person limit whose cancellation the provider did not answer before.
  if (performance.now() < deadline) {
    const vouchers = await retryVoucherCancellations(db, payments, now);
    counts.released += vouchers.cancelled;
    counts.failed += vouchers.failed;
  }
  if (postponed > 0) {
    log.warn({ postponed }, "Barrido de apartados: tiempo agotado, el resto queda para el siguiente");
  }
  return counts;
}

type ExpiredHold = Awaited<ReturnType<typeof expiredHolds>>[number];

/** What one step did; null when another server (or the webhook) had already settled the hold. */
async function settleHold(
  db: Db,
  payments: PaymentProvider,
  hold: {
    id: string;
    payment_session_id: string | null;
    payment_provider: string;
    voucher_reference?: string | null;
  },
  now: Date,
): Promise<"released" | "paid" | "waiting" | null> {
  // A hold from another provider (the shop switched from the demo page to Stripe) has no
  // session to ask about here: it was never paid through this provider.
  if (hold.payment_session_id && hold.payment_provider === payments.name) {
    let state = await payments.getSession(hold.payment_session_id);
    if (state.status === "open") state = await payments.expireSession(hold.payment_session_id);
    if (state.paid) {
      const { outcome } = await settlePaidSession(db, payments, hold.id, state, now);
      return outcome === "already_paid" || outcome === "unknown_order" ? null : "paid";
    }
    if (state.status === "complete" && state.voucher) {
      // A voucher (OXXO, SPEI): held until it expires, recorded here if its event never came; over
      // a drop's per-person limit, cancelled (or, the provider silent, held and asked again).
      const outcome = await recordVoucher(db, payments, hold.id, state.voucher, state, now);
      if (outcome === "esperando" || outcome === "sobre_el_limite") return "waiting";
      if (outcome === "cancelada") return "released";
      if (outcome === "resuelto") return null;
      // Expired unpaid, or its drop is opening: the hold ends like any other.
    } else if (state.status === "complete" && !hold.voucher_reference) {
      // Completed unpaid with a delayed method the shop cannot read: an hour more at a time.
      if (!(await inDropOpening(db, hold.id, now))) {
        const extended = await extendHold(db, hold.id, new Date(now.getTime() + DELAYED_PAYMENT_RECHECK_MS));
        return extended ? "waiting" : null;
      }
    }
    // Expired, missing at the provider, or a recorded voucher the provider no longer shows (it
    // expired or failed, and its event never came): it can no longer be paid.
  }
  return (await releaseHold(db, hold.id, now)) ? "released" : null;
}

/** What /cancel did with the shopper's hold. */
export type CancelOutcome =
  /** The session is closed and the pieces are back in stock. */
  | "liberado"
  /** Paid, or completed with a delayed method: its confirmation (or the sweeper) settles it. */
  | "pagado"
  /** Nothing to do: no such order, or it no longer waits for payment (and was never paid). */
  | "sin_apartado"
  /** Already paid (and perhaps shipped since): nothing changed, the money is not "uncharged". */
  | "ya_pagado"
  /** Paid, then cancelled (at payment, or by the shop): its e-mail says why and how the money goes back. */
  | "ya_cancelado"
  /** The provider did not answer: the hold stays until a retry or the sweep after its expiry. */
  | "sin_respuesta";

/**
 * The shopper left the payment page: close the session so it cannot be paid later and give the
 * pieces back now, unless it was paid after all. Throws when the provider does not answer: the
 * session may have been paid, so nothing is released (callers decide what to tell).
 */
export async function cancelCheckout(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
): Promise<Exclude<CancelOutcome, "sin_respuesta">> {
  const order = await db
    .selectFrom("orders")
    .select(["status", "payment_session_id", "payment_provider", "paid_at"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (order?.status !== "esperando_pago") {
    if (!order?.paid_at) return "sin_apartado";
    return order.status === "cancelado" ? "ya_cancelado" : "ya_pagado";
  }
  if (order.payment_session_id && order.payment_provider === payments.name) {
    const state = await payments.expireSession(order.payment_session_id);
    if (state.paid || state.status === "complete") {
      // Paid, or a cash payment on its way: no longer the browser's open checkout.
      await detachBrowser(db, orderId);
      return "pagado";
    }
  }
  return (await releaseHold(db, orderId)) ? "liberado" : "sin_apartado";
}

/**
 * /cancel: like cancelCheckout, but a provider that does not answer is an outcome the page
 * explains, never an error page. The hold is not lost: the sweep after its expiry (or the
 * shopper reloading /cancel) settles it once the provider is back.
 */
export async function cancelFromPaymentPage(
  db: Db,
  payments: PaymentProvider,
  orderId: string,
): Promise<CancelOutcome> {
  try {
    return await cancelCheckout(db, payments, orderId);
  } catch (error) {
    log.error({ orderId, error: errorLine(error) }, "No se pudo cancelar el pago del pedido");
    return "sin_respuesta";
  }
}
