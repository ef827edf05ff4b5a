import Stripe from "stripe";
import {
  InvalidWebhook,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentState,
  RefundFailed,
  RefundNotAsked,
  type RefundState,
} from "~/orders/payment-port";
import type { ShippingAddress } from "~/orders/shipping";
import { voucherDeadline } from "~/orders/vouchers";
import { isShippingMethod, type ShippingChoice, type ShippingOption } from "~/settings/shipping-rates";
import { VOUCHER_DAYS } from "~/settings/vouchers";
import { cancelStripeVoucher } from "./stripe-voucher-cancel.server";

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Where the API lives; only tests point it elsewhere (a local HTTP server). */
  apiBase?: string | null;
}

/** Stripe allows a session to expire 30 minutes to 24 hours after it is created. */
const MIN_SESSION_MINUTES = 30;

export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol.replace(":", "") as "http" | "https",
        }
      : {}),
  });
}

/**
 * Stripe Checkout: the hosted card page, in MXN. Names and amounts come from the held order (the
 * database), never from the browser. The order id travels in metadata and as the idempotency
 * key, so a retried request cannot open two sessions for one order. Webhooks are verified here
 * and handed to the orders domain as neutral `PaymentEvent`s.
 */
export function createStripePayments(
  stripe: Stripe,
  options: { webhookSecret: string; images?: (productIds: string[]) => Promise<Map<string, string>> },
): PaymentProvider {
  async function getSession(sessionId: string): Promise<PaymentState> {
    try {
      // The PaymentIntent and its charge come along: the card's fingerprint, the voucher's expiry.
      return stateOf(
        await stripe.checkout.sessions.retrieve(sessionId, { expand: [PAYMENT_EXPANDED, SHIPPING_EXPANDED] }),
      );
    } catch (error) {
      if (isMissing(error)) return MISSING;
      throw error;
    }
  }

  return {
    name: "stripe",
    async createSession(order, urls) {
      const earliest = Date.now() + (MIN_SESSION_MINUTES * 60 + 30) * 1000;
      const expiresAt = Math.max(order.expiresAt.getTime(), earliest);
      const images =
        (await options.images?.(order.lines.map((l) => l.productId))) ?? new Map<string, string>();
      const vouchers = order.vouchers ?? null;
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          currency: "mxn",
          // Cards (and Link, which pays by card) of whatever the account's dashboard enables; OXXO
          // and SPEI only when the shop offers them for this order (Configuración, a drop's 'solo
          // tarjeta' hours, OXXO's limit: decision 42), as they hold a piece for days.
          allowed_payment_method_types: [
            "card",
            "link",
            ...(vouchers?.oxxo ? (["oxxo"] as const) : []),
            ...(vouchers?.spei ? (["customer_balance"] as const) : []),
          ],
          // A bank transfer is paid into a customer's balance at Stripe.
          ...(vouchers?.spei ? { customer_creation: "always" as const } : {}),
          line_items: order.lines.map((line) => {
            const image = images.get(line.productId);
            return {
              quantity: line.quantity,
              price_data: {
                currency: "mxn",
                unit_amount: line.unitPriceCents,
                product_data: { name: line.name, ...(image ? { images: [image] } : {}) },
              },
            };
          }),
          name_collection: { individual: { enabled: true } },
          shipping_address_collection: { allowed_countries: ["MX"] },
          phone_number_collection: { enabled: true },
          // The buyer's card shows the plans the shop's account has once typed (Mexican credit cards);
          // said off otherwise, or the account's own switch would offer them on any total.
          payment_method_options: {
            card: { installments: { enabled: Boolean(order.installmentMonths) } },
            ...(vouchers?.oxxo ? { oxxo: { expires_after_days: vouchers.days } } : {}),
            ...(vouchers?.spei
              ? {
                  customer_balance: {
                    funding_type: "bank_transfer" as const,
                    bank_transfer: { type: "mx_bank_transfer" as const },
                  },
                }
              : {}),
          },
          ...shippingOptionsOf(order.shippingOptions ?? []),
          client_reference_id: order.id,
          // A transfer has no expiry of Stripe's own: the shop's days for it travel with the
          // session, counted from when the buyer is given it (voucherOf), as OXXO's are.
          metadata: {
            order_id: order.id,
            ...(vouchers ? { voucher_days: String(vouchers.days) } : {}),
          },
          payment_intent_data: { metadata: { order_id: order.id } },
          expires_at: Math.floor(expiresAt / 1000),
          success_url: urls.success,
          cancel_url: urls.cancel,
          locale: "es-419",
        },
        { idempotencyKey: `checkout-session-${order.id}` },
      );
      if (!session.url) throw new Error("Stripe returned a session without url");
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },
    getSession,
    async expireSession(sessionId) {
      try {
        return stateOf(await stripe.checkout.sessions.expire(sessionId));
      } catch (error) {
        if (isMissing(error)) return MISSING;
        // It was no longer open (paid or expired meanwhile): report how it stands. If it is still
        // open, the failure is real.
        const state = await getSession(sessionId);
        if (state.status === "open") throw error;
        return state;
      }
    },
    async refund(request) {
      let paymentIntent = request.paymentId;
      if (!paymentIntent && request.sessionId) {
        const session = await stripe.checkout.sessions.retrieve(request.sessionId);
        paymentIntent = idOf(session.payment_intent);
      }
      if (!paymentIntent)
        throw new Error(`el pedido ${request.orderId} no tiene pago en Stripe que reembolsar`);
      // One refund per order: a retry with the same key gets Stripe's first answer, never a second
      // refund. After one Stripe reported failed, the next is a new request, keyed by the failed one.
      let refund: Stripe.Refund;
      try {
        refund = await stripe.refunds.create(
          {
            payment_intent: paymentIntent,
            amount: request.amountCents,
            reason: "requested_by_customer",
            metadata: { order_id: request.orderId },
          },
          {
            idempotencyKey: request.after
              ? `${request.key ?? `refund-${request.orderId}`}-after-${request.after}`
              : (request.key ?? `refund-${request.orderId}`),
          },
        );
      } catch (error) {
        // Already refunded (by hand, in Stripe's dashboard): the money is back; that is made.
        if ((error as { code?: string } | null)?.code === "charge_already_refunded") {
          return { id: "reembolsado-en-stripe", state: "hecho" };
        }
        // Stripe read the request and said no (more than was paid, no such payment): an answer,
        // not a silence. Anything else (network, 5xx, rate limit) says nothing about the refund.
        if (isRefusal(error)) {
          throw new RefundFailed(null, `Stripe no hizo el reembolso: ${(error as Error).message}`);
        }
        // Read and not acted on (the key refused, too many requests): nothing was made.
        if (notActedOn(error))
          throw new RefundNotAsked(`Stripe no atendió el reembolso: ${(error as Error).message}`);
        throw error;
      }
      const state = refundStateOf(refund.status);
      if (state === "fallido") {
        throw new RefundFailed(
          refund.id,
          `Stripe no hizo el reembolso ${refund.id}: ${refund.failure_reason ?? refund.status}`,
        );
      }
      return { id: refund.id, state };
    },
    async refundState(refundId) {
      return refundStateOf((await stripe.refunds.retrieve(refundId)).status);
    },
    // A voucher over a drop's per-person limit: its PaymentIntent cancelled before it is paid.
    cancelVoucher: (payment) => cancelStripeVoucher(stripe, payment),
    parseWebhook(payload, signature) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(payload, signature, options.webhookSecret, TOLERANCE_SECONDS);
      } catch (error) {
        throw new InvalidWebhook((error as Error).message);
      }
      // The SDK refuses a signature older than its tolerance, not one from the future: a clock that
      // far ahead is no clock of Stripe's (a replay kept for later, or a forged date).
      const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
      if (signedAt > Date.now() / 1000 + TOLERANCE_SECONDS) {
        throw new InvalidWebhook("firma con fecha en el futuro");
      }
      // Signed, but not one event object (an array, a string, null): refused like an unreadable
      // event (400), never a 5xx that Stripe would retry for days.
      if (!isEventObject(event)) throw new InvalidWebhook("no es un objeto de evento", "evento");
      // A signed event that is not what we expect is refused like a bad signature (400), never a
      // 5xx: Stripe would retry a 5xx for days.
      try {
        return eventOf(event);
      } catch (error) {
        throw new InvalidWebhook(`evento ilegible: ${(error as Error).message}`, "evento");
      }
    },
  };
}

/** Stripe's own tolerance for a signature's time, in seconds (its SDK's default). */
const TOLERANCE_SECONDS = 300;

/** One event object, as Stripe sends them: an id, a type and its data. */
function isEventObject(value: unknown): value is Stripe.Event {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const event = value as { id?: unknown; type?: unknown; data?: unknown };
  return (
    typeof event.id === "string" &&
    event.id !== "" &&
    typeof event.type === "string" &&
    typeof event.data === "object" &&
    event.data !== null
  );
}

/** A Stripe event as the orders domain understands it. */
function eventOf(event: Stripe.Event): PaymentEvent {
  const base = { id: event.id, type: event.type };
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired": {
      const session = event.data.object;
      const orderId = session.metadata?.order_id ?? session.client_reference_id;
      if (!orderId) return { ...base, kind: "ignored" };
      const ids = { ...base, orderId, sessionId: session.id };
      if (event.type === "checkout.session.async_payment_failed") return { ...ids, kind: "failed" };
      if (event.type === "checkout.session.expired") return { ...ids, kind: "expired" };
      // Delayed payment methods complete the session unpaid; async_payment_succeeded follows.
      if (session.payment_status !== "paid") return { ...ids, kind: "awaiting_payment" };
      return {
        ...ids,
        kind: "paid",
        amountCents: session.amount_total,
        currency: session.currency,
        paidAt: dateOf(event.created),
        customerName: session.customer_details?.name ?? "",
        customerEmail: session.customer_details?.email ?? "",
        shipping: shippingOf(session),
        paymentId: idOf(session.payment_intent),
        shippingRate: shippingRateOf(session),
      };
    }
    default:
      return { ...base, kind: "ignored" };
  }
}

/** What getSession asks Stripe to include: the PaymentIntent and its charge. */
const PAYMENT_EXPANDED = "payment_intent.latest_charge";

/** What getSession asks Stripe to include: the shipping rate the buyer chose (its name and metadata). */
const SHIPPING_EXPANDED = "shipping_cost.shipping_rate";

/**
 * The shop's shipping options as Stripe Checkout's (decision 43): fixed amounts in MXN, with their
 * business days; the method and the order's wording travel in metadata, read back at payment.
 */
function shippingOptionsOf(
  options: ShippingOption[],
): Pick<Stripe.Checkout.SessionCreateParams, "shipping_options"> {
  if (options.length === 0) return {};
  return {
    shipping_options: options.map((option) => ({
      shipping_rate_data: {
        type: "fixed_amount",
        display_name: option.label,
        fixed_amount: { amount: option.cents, currency: "mxn" },
        // Prices include IVA; so does shipping.
        tax_behavior: "inclusive",
        delivery_estimate: {
          minimum: { unit: "business_day", value: option.minDays },
          maximum: { unit: "business_day", value: option.maxDays },
        },
        metadata: { method: option.method, label: option.text },
      },
    })),
  };
}

/**
 * The shipping the buyer chose on Stripe's page: what it cost (shipping_cost, or the session's
 * total_details), and which (its rate's metadata, when Stripe sent the rate itself, not its id).
 */
function shippingRateOf(session: Stripe.Checkout.Session): ShippingChoice | null {
  const cost = session.shipping_cost;
  // A session without shipping options has no shipping_cost (and 0 shipping in its total_details).
  const cents = cost ? cost.amount_total : session.total_details?.amount_shipping || null;
  if (cents === null) return null;
  const rate = cost && typeof cost.shipping_rate === "object" ? cost.shipping_rate : null;
  const method = rate?.metadata?.method;
  return {
    method: isShippingMethod(method) ? method : null,
    label: rate?.metadata?.label || rate?.display_name || "Envío",
    cents,
  };
}

/** An expandable field's id, whether Stripe sent the id or the object. */
function idOf(field: string | { id: string } | null | undefined): string | null {
  if (!field) return null;
  return typeof field === "string" ? field : field.id;
}

/** The payment's id, the card's fingerprint, its instalment plan and a voucher, when Stripe included them. */
function paymentOf(
  session: Stripe.Checkout.Session,
): Pick<
  PaymentState,
  | "paymentId"
  | "cardFingerprint"
  | "cardFunding"
  | "voucherExpiresAt"
  | "installmentMonths"
  | "voucher"
  | "paidAt"
> {
  const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
  const charge = intent && typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  const voucher = intent ? voucherOf(intent, session) : null;
  return {
    paymentId: idOf(session.payment_intent),
    cardFingerprint: charge?.payment_method_details?.card?.fingerprint ?? null,
    // Credit or debit: a factura's forma de pago (04 or 28) depends on it.
    cardFunding: charge?.payment_method_details?.card?.funding ?? null,
    // A plan of fixed monthly payments the buyer chose on the card's page ('meses sin intereses').
    installmentMonths: charge?.payment_method_details?.card?.installments?.plan?.count ?? null,
    voucherExpiresAt: voucher?.expiresAt ?? null,
    voucher,
    // When the money was taken: the sale's date, however late the shop hears of it.
    paidAt: session.payment_status === "paid" ? dateOf(charge?.created) : null,
  };
}

/** A Stripe timestamp (seconds) as a Date; null when there is none. */
function dateOf(seconds: number | null | undefined): Date | null {
  return typeof seconds === "number" && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;
}

/**
 * What the buyer pays with when the session completed unpaid: an OXXO voucher (its number, printable
 * page and expiry, all Stripe's), or SPEI transfer instructions (reference and CLABE; its end is the
 * shop's, see transferEnd). Null for anything else. Exported for its unit test.
 */
export function voucherOf(
  intent: Stripe.PaymentIntent,
  session: Stripe.Checkout.Session,
): PaymentState["voucher"] {
  const action = intent.next_action;
  const oxxo = action?.oxxo_display_details;
  if (oxxo?.number && oxxo.expires_after) {
    return {
      method: "oxxo",
      reference: oxxo.number,
      clabe: null,
      url: oxxo.hosted_voucher_url ?? null,
      expiresAt: new Date(oxxo.expires_after * 1000),
    };
  }
  const transfer = action?.display_bank_transfer_instructions;
  const endsAt = transferEnd(intent, session);
  if (transfer?.reference && endsAt) {
    const spei = transfer.financial_addresses?.find((a) => a.type === "spei")?.spei;
    return {
      method: "spei",
      reference: transfer.reference,
      clabe: spei?.clabe ?? null,
      url: transfer.hosted_instructions_url ?? null,
      expiresAt: endsAt,
    };
  }
  return null;
}

/**
 * When a transfer stops holding its pieces: the shop's days (the session's `voucher_days`) counted,
 * by the shop's rule (voucherDeadline), from when the buyer chose it and was given the transfer's
 * details: when Checkout confirmed its PaymentIntent, which it makes then (`created`). So a
 * checkout opened at 23:50 and paid by SPEI at 00:10 ends on the same night as an OXXO voucher
 * given then, not a day earlier. A session made before the days travelled with it carries its end
 * itself (`voucher_ends_at`). Null when neither is there.
 */
function transferEnd(intent: Stripe.PaymentIntent, session: Stripe.Checkout.Session): Date | null {
  const days = Number(session.metadata?.voucher_days);
  if ((VOUCHER_DAYS as readonly number[]).includes(days) && Number.isFinite(intent.created)) {
    return voucherDeadline(new Date(intent.created * 1000), days);
  }
  const endsAt = Date.parse(session.metadata?.voucher_ends_at ?? "");
  return Number.isFinite(endsAt) ? new Date(endsAt) : null;
}

/** A session Stripe does not know can never be paid: an answer, not a failure. */
const MISSING: PaymentState = {
  status: "missing",
  paid: false,
  amountCents: null,
  currency: null,
  customerName: "",
  customerEmail: "",
  shipping: null,
};

/**
 * Stripe's answer for an id it does not know: 404 `resource_missing` (a session made with another
 * account or key). Any other failure (network, 5xx, rate limit) says nothing about the payment.
 */
function isMissing(error: unknown): boolean {
  const e = error as Partial<Pick<Stripe.errors.StripeError, "statusCode" | "code">> | null;
  return e?.statusCode === 404 && e.code === "resource_missing";
}

/** Stripe read the request and did nothing with it: the key refused (401, 403), too many (429). */
function notActedOn(error: unknown): boolean {
  const status = (error as Partial<Pick<Stripe.errors.StripeError, "statusCode">> | null)?.statusCode;
  return status === 401 || status === 403 || status === 429;
}

/** Stripe's refusal of a request it read (400, 402, 404): sent again, it would be refused again. */
function isRefusal(error: unknown): boolean {
  const status = (error as Partial<Pick<Stripe.errors.StripeError, "statusCode">> | null)?.statusCode;
  return status === 400 || status === 402 || status === 404;
}

function stateOf(session: Stripe.Checkout.Session): PaymentState {
  return {
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    paid: session.payment_status === "paid",
    // What the session charged (the pieces and the shipping chosen): compared with the order at payment.
    amountCents: session.amount_total,
    currency: session.currency,
    customerName: session.customer_details?.name ?? "",
    customerEmail: session.customer_details?.email ?? "",
    shipping: shippingOf(session),
    ...paymentOf(session),
    shippingRate: shippingRateOf(session),
  };
}

/** The shipping address and phone the shopper gave on Stripe's page, if any. */
function shippingOf(session: Stripe.Checkout.Session): ShippingAddress | null {
  const details = session.collected_information?.shipping_details;
  const address = details?.address;
  if (!address?.line1) return null;
  return {
    name: details?.name ?? session.customer_details?.name ?? "",
    phone: session.customer_details?.phone ?? "",
    line1: address.line1,
    line2: address.line2 ?? "",
    city: address.city ?? "",
    state: address.state ?? "",
    postalCode: address.postal_code ?? "",
    country: address.country ?? "MX",
  };
}

/**
 * Stripe's refund status as the shop keeps it: `succeeded` is made; `pending` and
 * `requires_action` are still Stripe's to finish (a bank transfer, a cash payment's refund);
 * `failed` and `canceled` will not be made.
 */
function refundStateOf(status: string | null): RefundState {
  if (status === "succeeded") return "hecho";
  if (status === "failed" || status === "canceled") return "fallido";
  return "en_curso";
}
