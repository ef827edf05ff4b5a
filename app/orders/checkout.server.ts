import type { OrderCeilings } from "~/config/ceilings";
import { log } from "~/config/log.server";
import type { Db } from "~/db/database.server";
import { formatShopClock } from "~/lib/dates";
import { errorLine } from "~/lib/errors";
import { type Installments, installmentsFor } from "~/settings/installments";
import { type ShippingRates, shippingOptions as shippingOptionsFor } from "~/settings/shipping-rates";
import type { Vouchers } from "~/settings/vouchers";
import {
  type CheckoutLine,
  type HoldRefusal,
  holdCart,
  type OpenCheckout,
  openCheckoutsOf,
  precheckCart,
  releaseHold,
  sameCart,
  setPaymentSession,
} from "./holds.server";
import { joinLine, type LineDrop, lineDrops, lineToJoin } from "./line.server";
import type { PaymentProvider } from "./payment-port";
import { cancelCheckout } from "./sweeper.server";
import { vouchersForOrder } from "./voucher-offer.server";

export type CheckoutRefusal =
  | HoldRefusal
  | { reason: "pago_no_disponible"; message: string }
  | { reason: "limite_conexion"; message: string }
  /** No (valid) browser cookie: a place in line is its browser's. */
  | { reason: "sin_navegador"; message: string }
  /**
   * The browser already holds these pieces: it is sent back to its payment page, nothing is
   * renewed. `changed`: the cart asks for other sizes or quantities of them than that page's.
   */
  | { reason: "ya_apartada"; message: string; url: string | null; changed?: boolean };

export type CheckoutResult =
  | { ok: true; url: string; orderId: string }
  /** The checkout took a place in its drop's line (the opening, or people already waiting). */
  | { ok: true; queued: string; drop: LineDrop }
  | ({ ok: false } & CheckoutRefusal);

export type PaymentUrls = {
  success: string | ((orderId: string) => string);
  cancel: (orderId: string) => string;
};

export interface CheckoutAsk {
  lines: CheckoutLine[];
  urls: PaymentUrls;
  /** The browser starting it (its signed cookie); null without one. */
  browser?: string | null;
  ceilings?: OrderCeilings;
  /** The client's address bucket (IPv4 address or IPv6 /64), for the opening's per-address rule. */
  bucket?: string | null;
  /** The shop's own origin the request came from (a place in line opens its payment page later). */
  origin?: string;
  /** 'Meses sin intereses' as Configuración has them: offered on the payment page when the total qualifies. */
  installments?: Installments;
  /** OXXO and SPEI as Configuración has them: offered unless a drop is 'solo tarjeta' (decision 42). */
  vouchers?: Vouchers;
  /** Shipping rates as Configuración has them: offered on the payment page (decision 43). */
  shippingRates?: ShippingRates;
  now?: Date;
}

const NO_BROWSER_MESSAGE = "No pudimos identificar tu navegador. Recarga la página e intenta de nuevo.";

export const ALREADY_HELD_MESSAGE =
  "Ya tienes estas piezas apartadas. Termina tu pago: no se pueden apartar de nuevo.";

/** A cart changed (another size, another quantity) while its pieces wait in an unpaid checkout. */
export function changedCartMessage(expiresAt: Date): string {
  return `Tienes un pago sin terminar con otra talla o cantidad de estas piezas, y no se pueden apartar de nuevo. Termina ese pago, o espera a que venza a las ${formatShopClock(expiresAt)} para pagar este carrito.`;
}

/**
 * The spec's createStripeCheckout, with a fair opening (decision 27): holds the pieces, creates
 * the order and opens a payment session, or, during a drop's opening (or while people wait for its
 * pieces), takes a place in its line.
 *
 * A browser holds at most one unpaid checkout. Asked again for pieces it holds, it is sent back to
 * the payment page it has: a hold is never renewed, so a script cannot keep a piece by asking for
 * it again and again. Its previous checkout of other pieces (the shopper changed the cart) is
 * closed at the provider and released first. Without a browser (no cookie), only the request
 * limits bound it.
 */
export async function startCheckout(
  db: Db,
  payments: PaymentProvider,
  lines: CheckoutLine[],
  urls: PaymentUrls,
  browser: string | null = null,
  ceilings?: OrderCeilings,
  more: Pick<CheckoutAsk, "bucket" | "origin" | "installments" | "vouchers" | "shippingRates" | "now"> = {},
): Promise<CheckoutResult> {
  const ask: CheckoutAsk = { lines, urls, browser, ceilings, ...more };
  const now = ask.now ?? new Date();
  const open = browser ? await openCheckoutsOf(db, browser) : [];
  // Its hold on these pieces, still running: back to its payment page, nothing renewed. (One
  // whose time is up, not yet swept, is closed below like any other; so is one whose payment page
  // was never made a minute on: the process stopped between the two, or the provider failed and
  // so did the release. Otherwise it would block this cart, with no page to go to, for its hold.)
  const abandoned = (o: OpenCheckout) =>
    o.paymentUrl === null && now.getTime() - o.createdAt.getTime() > PAGE_MAKING_MS;
  const stale = (o: OpenCheckout) => o.expiresAt <= now || abandoned(o);
  const running = open.filter((o) => !stale(o));
  const wanted = new Set(lines.map((l) => l.productId));
  const held = running.find((o) => o.productIds.some((id) => wanted.has(id)));
  // The same cart: back to its payment page. Another size or quantity of them: told so first (the
  // page would charge the cart it was opened for), and still no new hold of a piece it holds.
  // Its page is still being made (a second press of 'Pagar' while the provider answers the first).
  if (held && held.paymentUrl === null)
    return { ok: false, reason: "ya_apartada", message: PAGE_BEING_MADE_MESSAGE, url: null };
  if (held && sameCart(held.lines, lines))
    return { ok: false, reason: "ya_apartada", message: ALREADY_HELD_MESSAGE, url: held.paymentUrl };
  if (held)
    return {
      ok: false,
      reason: "ya_apartada",
      message: changedCartMessage(held.expiresAt),
      url: held.paymentUrl,
      changed: true,
    };
  const line = await lineToJoin(
    db,
    await lineDrops(
      db,
      lines.map((l) => l.dropId),
    ),
    now,
  );
  if (open.length > 0) {
    // Those whose time is up are over anyway: closed first, their pieces back for anyone (her too).
    const expired = open.filter(stale);
    const closingExpired = await closeOpenCheckouts(db, payments, expired);
    if (closingExpired) return closingExpired;
    // One still running, of other pieces: closed for the new cart only if that cart may be held (a
    // cart refused now, a piece sold out meanwhile, would leave her with neither). In a line, it
    // may wait instead.
    if (running.length > 0 && !line) {
      const refusal = await precheckCart(db, { lines, ceilings, now });
      if (refusal) return { ok: false, ...refusal };
    }
    const closing = await closeOpenCheckouts(db, payments, running);
    if (closing) return closing;
  }
  if (line) {
    // The line knows its places by browser: a request without one cannot wait in it.
    if (!browser) return { ok: false, reason: "sin_navegador", message: NO_BROWSER_MESSAGE };
    {
      const joined = await joinLine(db, {
        drop: line,
        lines,
        browser,
        bucket: ask.bucket ?? "desconocida",
        origin: ask.origin ?? "",
        now,
      });
      return joined.ok ? { ok: true, queued: joined.entryId, drop: line } : joined;
    }
  }
  return openCheckout(db, payments, { ...ask, now });
}

/**
 * Closes the browser's unpaid checkouts at the provider and gives their pieces back (the shopper
 * changed the cart, or her turn in a line came). One paid after all, or waiting for cash, stays
 * and no longer counts as the browser's. Null when all are closed; a refusal when the provider did
 * not say whether one was paid (then nothing is released, and nothing new may be held).
 */
export async function closeOpenCheckouts(
  db: Db,
  payments: PaymentProvider,
  open: readonly { id: string }[],
): Promise<({ ok: false } & CheckoutRefusal) | null> {
  for (const previous of open) {
    try {
      await cancelCheckout(db, payments, previous.id);
    } catch (error) {
      log.error({ orderId: previous.id, error: errorLine(error) }, "No se pudo cerrar el pago anterior");
      return {
        ok: false,
        reason: "pago_no_disponible",
        message: "No pudimos cerrar tu pago anterior. Intenta de nuevo en unos momentos.",
      };
    }
  }
  return null;
}

/** How long a hold's payment page may take to be made (the provider's slowest answer, retries included). */
const PAGE_MAKING_MS = 60_000;

const PAGE_BEING_MADE_MESSAGE = "Estamos abriendo tu pago: intenta de nuevo en unos segundos.";

/** A payment page whose hold another checkout of the same browser closed while it was made. */
const CLOSED_MEANWHILE = "Abriste otro pago mientras preparábamos este: sigue en el más reciente.";

/**
 * Holds the cart's pieces and opens its payment page, now: a checkout outside any line, or a place
 * whose turn came. If the provider fails, the hold is released at once.
 */
export async function openCheckout(
  db: Db,
  payments: PaymentProvider,
  ask: CheckoutAsk,
): Promise<{ ok: true; url: string; orderId: string } | ({ ok: false } & CheckoutRefusal)> {
  const order = await holdCart(db, {
    lines: ask.lines,
    provider: payments.name,
    browser: ask.browser ?? null,
    ceilings: ask.ceilings,
    bucket: ask.bucket ?? null,
    now: ask.now,
  });
  if (!order.ok) return order;
  const { urls } = ask;
  try {
    const installmentMonths = ask.installments ? installmentsFor(ask.installments, order.totalCents) : null;
    const shippingOptions = ask.shippingRates ? shippingOptionsFor(ask.shippingRates, order.totalCents) : [];
    const vouchers = await vouchersForOrder(
      db,
      ask.vouchers,
      // OXXO's cash limit counts the dearest shipping the page offers too.
      {
        totalCents: order.totalCents + Math.max(0, ...shippingOptions.map((o) => o.cents)),
        dropIds: ask.lines.map((l) => l.dropId),
      },
      ask.now ?? new Date(),
    );
    const session = await payments.createSession(
      { ...order, installmentMonths, vouchers, shippingOptions },
      {
        success: typeof urls.success === "string" ? urls.success : urls.success(order.id),
        cancel: urls.cancel(order.id),
      },
    );
    if (!(await setPaymentSession(db, order.id, session, order.expiresAt, ask.origin || null))) {
      // Its hold ended while the page was made (another checkout of this browser closed it): the
      // page is closed too, so nobody pays for pieces already given back.
      await payments
        .expireSession(session.id)
        .catch((error: unknown) =>
          log.error(
            { orderId: order.id, error: errorLine(error) },
            "No se pudo cerrar un pago ya sin apartado",
          ),
        );
      return { ok: false, reason: "pago_no_disponible", message: CLOSED_MEANWHILE };
    }
    return { ok: true, url: session.url, orderId: order.id };
  } catch (error) {
    log.error(
      { orderId: order.id, error: errorLine(error) },
      "No se pudo crear la sesión de pago del pedido",
    );
    await releaseHold(db, order.id);
    return {
      ok: false,
      reason: "pago_no_disponible",
      message: "No pudimos iniciar el pago. Intenta de nuevo en unos momentos.",
    };
  }
}
