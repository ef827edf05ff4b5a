import type { ShippingChoice, ShippingOption } from "~/settings/shipping-rates";
import type { Voucher } from "./order";
import type { ShippingAddress } from "./shipping";
import type { VoucherOffer } from "./vouchers";

/*
 * The port through which orders take payments. The orders domain owns it; each provider
 * (app/payments: Stripe Checkout, the built-in demo page) implements it and never hands the
 * domain an object of its own SDK.
 */

/** What a payment page is opened for: an order held in the database. */
export interface PaymentRequest {
  id: string;
  totalCents: number;
  expiresAt: Date;
  lines: { productId: string; name: string; unitPriceCents: number; quantity: number }[];
  /**
   * 'Meses sin intereses': the most months the shop offers for this total (Configuración), or
   * null (off, or the total is under the owner's minimum): the page then offers one payment only.
   */
  installmentMonths?: number | null;
  /**
   * Cash at OXXO and bank transfers the page may offer besides cards (decision 42), with the end
   * of a voucher given now (`voucherEndsAt`: the demo page gives it at once; a provider's page
   * counts the days from when it gives one); null: cards only (the owner's setting, a drop's
   * 'solo tarjeta' hours, OXXO's limit).
   */
  vouchers?: (VoucherOffer & { voucherEndsAt: Date }) | null;
  /** Shipping the buyer chooses from on the payment page (decision 43); none: no shipping charged. */
  shippingOptions?: ShippingOption[];
}

/** A hosted payment page opened for one order. */
export interface PaymentSession {
  id: string;
  /** Where the shopper's browser goes to pay. */
  url: string;
  /** When the session stops accepting payment: the hold lasts exactly as long. */
  expiresAt: Date;
}

export interface PaymentState {
  /**
   * `missing`: the provider does not know the session (made with another account or key, or
   * deleted): it can never be paid, so it counts as unpaid.
   */
  status: "open" | "complete" | "expired" | "missing";
  paid: boolean;
  /**
   * What the provider charged, in cents and its currency (Stripe: the session's amount_total and
   * currency; the demo page: the order's own); null when it does not say. A paid session is
   * settled only if they are what the order asks (confirmPayment).
   */
  amountCents: number | null;
  currency: string | null;
  /**
   * When the buyer paid, as the provider dates it (Stripe: the charge's `created`; the demo page:
   * its own confirmation), when it says: the sale's date, not when the shop heard of it.
   */
  paidAt?: Date | null;
  customerName: string;
  customerEmail: string;
  /** Where to send the order, as collected by the payment page. */
  shipping: ShippingAddress | null;
  /** The provider's payment (Stripe: the PaymentIntent), once there is one; a refund names it. */
  paymentId?: string | null;
  /** The provider's fingerprint of the card that paid (one card, one fingerprint), when known. */
  cardFingerprint?: string | null;
  /** The kind of that card ('credit', 'debit', 'prepaid', 'unknown'), when the provider tells it. */
  cardFunding?: string | null;
  /** When a cash voucher (OXXO) given for it stops being payable, when the provider says so. */
  voucherExpiresAt?: Date | null;
  /** The voucher or transfer the buyer was given to pay with, once the page completed unpaid. */
  voucher?: Voucher | null;
  /** 'Meses sin intereses': the months of the plan the buyer paid in, when the provider says so. */
  installmentMonths?: number | null;
  /** The shipping the buyer chose and paid, when the provider says so. */
  shippingRate?: ShippingChoice | null;
}

/** Money given back for a paid order: its whole total (decision 29). */
export interface RefundRequest {
  orderId: string;
  sessionId: string | null;
  /** The provider's payment, as recorded when it was confirmed (null: the adapter finds it from the session). */
  paymentId: string | null;
  amountCents: number;
  currency: string;
  /**
   * A refund of this order the provider reported failed: this is a new one, not a retry of it
   * (its idempotency key names the failed one, so retries of this new one stay the same request).
   */
  after?: string | null;
  /**
   * What names this refund at the provider, for its idempotency: one per order by default; a
   * cancellation by the shop names its own attempt, so one refused before does not answer again.
   */
  key?: string;
}

/**
 * What the provider says of a voucher's payment it was asked to cancel: `cancelada`, it can no
 * longer be paid (cancelled now, or before); `pagada`, the money is in or on its way, so it stays
 * for the payment's own path to settle.
 */
export type VoucherCancelAnswer = "cancelada" | "pagada";

/** Where a refund the provider accepted stands: made, still in its hands, or failed for good. */
export type RefundState = "hecho" | "en_curso" | "fallido";

/**
 * A provider's notice about a payment session, already verified and translated by its adapter.
 * `paid`: the money is in; `awaiting_payment`: completed with a delayed method (cash at a store);
 * `failed`/`expired`: it will not be paid; `ignored`: nothing for the shop.
 */
export type PaymentEvent =
  | {
      id: string;
      type: string;
      kind: "paid";
      orderId: string;
      sessionId: string;
      /** What the provider charged: it must be the order's total, in its currency. */
      amountCents: number | null;
      currency: string | null;
      /** When the provider dated this notice of the payment (Stripe: the event's `created`), when it says. */
      paidAt?: Date | null;
      customerName: string;
      customerEmail: string;
      shipping: ShippingAddress | null;
      /** The provider's payment (Stripe: the PaymentIntent's id), when the event names it. */
      paymentId?: string | null;
      /** The shipping the buyer chose: amountCents is the pieces plus its cents. */
      shippingRate?: ShippingChoice | null;
    }
  | {
      id: string;
      type: string;
      kind: "awaiting_payment" | "failed" | "expired";
      orderId: string;
      sessionId: string;
    }
  | { id: string; type: string; kind: "ignored" };

/** A webhook whose signature does not verify (`firma`), or a signed body that is not an event we can read (`evento`). */
export class InvalidWebhook extends Error {
  constructor(
    message: string,
    readonly reason: "firma" | "evento" = "firma",
  ) {
    super(message);
  }
}

/**
 * The payment provider behind the checkout: Stripe Checkout in production, the built-in demo page
 * in the embedded mode. Both end in the same fulfilment code (payment.server.ts).
 */
export interface PaymentProvider {
  readonly name: "demo" | "stripe";
  createSession(order: PaymentRequest, urls: { success: string; cancel: string }): Promise<PaymentSession>;
  /**
   * Asks the provider how a session stands (the sweeper does, before releasing a hold). A session
   * it does not know is `missing`, not an error; it throws only when it gets no answer it can trust
   * (network, the provider's own failures).
   */
  getSession(sessionId: string): Promise<PaymentState>;
  /**
   * Closes a session so it can no longer be paid, and tells how it ended: a session paid (or
   * completed with a delayed payment method) in the meantime stays as it is. Throws like getSession.
   */
  expireSession(sessionId: string): Promise<PaymentState>;
  /**
   * Gives an order's money back. Idempotent per order (a retry, or two app servers, never refund
   * twice); answers the provider's refund id and where it stands: made, or still in the provider's
   * hands (some refunds take days). Throws when it got no answer; `RefundFailed` when the provider
   * answered that it did not make it.
   */
  refund(request: RefundRequest): Promise<{ id: string; state: Exclude<RefundState, "fallido"> }>;
  /** Where a refund the provider accepted stands now (asked again until it is made or failed). */
  refundState(refundId: string): Promise<RefundState>;
  /**
   * Cancels the payment of a voucher given for a session (an OXXO voucher, a SPEI transfer) so it
   * can no longer be paid. A payment already made is never cancelled: `pagada`. Throws when it got
   * no answer it can trust (network, the provider's own failures), or the provider refused it for
   * another reason: asked again later.
   */
  cancelVoucher(payment: {
    sessionId: string | null;
    paymentId: string | null;
  }): Promise<VoucherCancelAnswer>;
  /** Providers that notify by webhook: verifies the signature and reads the event (throws InvalidWebhook). */
  parseWebhook?(payload: string, signature: string): PaymentEvent;
}

/**
 * The provider answered that it did not make a refund: one it made and then failed (its id names
 * it, for the next try), or a request it refused outright (null: e.g. already refunded).
 */
/**
 * The provider read a refund call and did nothing with it (its key refused, too many requests):
 * nothing was made, so the owner's own refund is not barred while it is asked again.
 */
export class RefundNotAsked extends Error {
  override name = "RefundNotAsked";
}

export class RefundFailed extends Error {
  override name = "RefundFailed";
  constructor(
    readonly refundId: string | null,
    reason: string,
  ) {
    super(reason);
  }
}
