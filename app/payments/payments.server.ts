import type { HeldOrder } from "~/orders/orders.server";
import type { ShippingAddress } from "~/orders/shipping";

/** A hosted payment page opened for one order. */
export interface PaymentSession {
  id: string;
  /** Where the shopper's browser goes to pay. */
  url: string;
  /** When the session stops accepting payment: the hold lasts exactly as long. */
  expiresAt: Date;
}

export interface PaymentState {
  status: "open" | "complete" | "expired";
  paid: boolean;
  customerName: string;
  customerEmail: string;
  /** Where to send the order, as collected by the payment page. */
  shipping: ShippingAddress | null;
}

/**
 * The payment provider behind the checkout: Stripe Checkout in production, the built-in demo page
 * in the embedded mode. Both end in the same fulfilment code (orders.server.ts).
 */
export interface PaymentProvider {
  readonly name: "demo" | "stripe";
  createSession(order: HeldOrder, urls: { success: string; cancel: string }): Promise<PaymentSession>;
  /** Asks the provider how a session stands (the sweeper does, before releasing a hold). */
  getSession(sessionId: string): Promise<PaymentState>;
  /**
   * Closes a session so it can no longer be paid, and tells how it ended: a session paid (or
   * completed with a delayed payment method) in the meantime stays as it is.
   */
  expireSession(sessionId: string): Promise<PaymentState>;
}
