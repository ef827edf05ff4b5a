import { isId } from "~/lib/ids";
import { recordTurnHeld } from "~/observability/metrics.server";
import { cancelPath } from "~/orders/cancel-link.server";
import { closeOpenCheckouts, openCheckout } from "~/orders/checkout.server";
import { openCheckoutsOf } from "~/orders/holds.server";
import { type LineView, lineLook, lineView } from "~/orders/line.server";
import { nudgeLine } from "~/orders/line-rounds.server";
import type { LineTurn, TurnOutcome } from "~/orders/line-serving.server";
import { successPath } from "~/orders/success-link.server";
import type { Services } from "~/web/services";

/*
 * GET /api/fila/:id: a shopper's place in a drop's line, looked at every half second by the cart
 * drawer while it waits (decision 27). Each look may serve the line (its turn came: the answer
 * carries the payment page), so the shopper learns within a look what happened; a look waits at
 * most LOOK_WAITS_MS for the round, and a turn still being taken then comes with the next look.
 */

/** Payment pages of a checkout started from `origin` for `browser`: /success and /cancel signed for it. */
export function paymentUrls(services: Services, origin: string, browser: string | null) {
  const { successLinks, cancelLinks } = services;
  return {
    success: (orderId: string) => `${origin}${successPath(successLinks, orderId, browser)}`,
    cancel: (orderId: string) => `${origin}${cancelPath(cancelLinks, orderId, browser)}`,
  };
}

/** What a place whose turn came does: holds its pieces and opens its payment page. */
export function turnTaker(services: Services): (turn: LineTurn) => Promise<TurnOutcome> {
  const { database, payments, config } = services;
  return async (turn) => {
    // A place taken in the draw skipped what a checkout does first: the browser's unpaid
    // checkout of other pieces is closed now, so its turn is not lost to it.
    const closing = await closeOpenCheckouts(
      database.db,
      payments,
      await openCheckoutsOf(database.db, turn.browser),
    );
    if (closing) return { ok: false, refusal: closing };
    const opened = await openCheckout(database.db, payments, {
      lines: turn.lines,
      urls: paymentUrls(services, turn.origin, turn.browser),
      browser: turn.browser,
      ceilings: config.orderCeilings,
      bucket: turn.bucket,
      installments: services.settings.current().installments,
      vouchers: services.settings.current().vouchers,
      shippingRates: services.settings.current().shippingRates,
    });
    if (opened.ok) {
      recordTurnHeld([turn.dropId]);
      return opened;
    }
    return { ok: false, refusal: opened };
  };
}

/** Draws already set to run in this process, by drop. */
const drawsSet = new WeakMap<object, Set<string>>();

/**
 * A place taken during the lottery: this process serves the line the moment the lottery ends, so
 * the draw's winners and losers learn it on their very next look, not on the look that happens to
 * come first. (Every process with a place in the draw sets one; the lease lets one of them run it.)
 */
export function serveAtDraw(services: Services, dropId: string, endsAt: Date): void {
  const db = services.database.db;
  let set = drawsSet.get(db);
  if (!set) {
    set = new Set();
    drawsSet.set(db, set);
  }
  if (set.has(dropId)) return;
  set.add(dropId);
  const timer = setTimeout(
    () => {
      set.delete(dropId);
      void nudgeLine(db, dropId, turnTaker(services));
    },
    Math.max(0, endsAt.getTime() - Date.now()) + 5,
  );
  timer.unref();
}

/**
 * The place's view, after serving the drop's line if it is due (a look may be the one whose turn
 * comes); null: no such place for this browser. During the draw a look reads only the place.
 */
export async function lookAtPlace(
  services: Services,
  entryId: string,
  browser: string | null,
): Promise<LineView | null> {
  if (!browser || !isId(entryId)) return null;
  const db = services.database.db;
  const first = await lineLook(db, entryId, browser);
  if (!first) return null;
  if (first.view.estado === "sorteo") {
    serveAtDraw(services, first.dropId, new Date(first.view.sorteoTermina));
    return first.view;
  }
  if (first.view.estado !== "esperando") return first.view;
  await waitAtMost(nudgeLine(db, first.dropId, turnTaker(services)), LOOK_WAITS_MS);
  return lineView(db, entryId, browser);
}

/**
 * How long a look waits for the round it joined: those told (gone, over the address's allowance)
 * are written first, so a round still giving turns after this answers 'waiting' and the next look
 * brings the payment page, instead of every look waiting on the slowest payment provider's call.
 */
const LOOK_WAITS_MS = 300;

function waitAtMost(work: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
