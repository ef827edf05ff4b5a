import crypto from "node:crypto";

/**
 * The /cancel link a payment page sends the shopper back to releases her hold at once. It is
 * signed for the order and the browser that started the checkout (cookie `navegador`): the bare
 * order id — which a shopper may paste in a chat — or the same link opened in another browser
 * releases nothing (the hold then ends on its own when its time is up).
 */
export interface OrderLinks {
  /** The token for `firma`: for this order, in this browser (null: a request without the cookie). */
  sign(orderId: string, browser: string | null): string;
  verify(orderId: string, browser: string | null, token: string | null): boolean;
}

export type CancelLinks = OrderLinks;

/**
 * Links for one order in one browser, for one purpose: each purpose signs with a key of its own
 * (derived from the session secret), so a token can never be replayed as any other signature the
 * shop makes — a /success link cannot cancel, nor a /cancel link show an order.
 */
export function createOrderLinks(secret: string, purpose: string): OrderLinks {
  const key = crypto.createHmac("sha256", secret).update(purpose).digest();
  const sign = (orderId: string, browser: string | null) =>
    crypto
      .createHmac("sha256", key)
      .update(`${orderId}\n${browser ?? ""}`)
      .digest("base64url");
  return {
    sign,
    verify(orderId, browser, token) {
      if (!token) return false;
      const expected = Buffer.from(sign(orderId, browser));
      const given = Buffer.from(token);
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    },
  };
}

export function createCancelLinks(secret: string): CancelLinks {
  return createOrderLinks(secret, "enlace-cancelar");
}

/** The address of the /cancel page for an order, signed for the browser. */
export function cancelPath(links: CancelLinks, orderId: string, browser: string | null): string {
  return `/cancel?pedido=${encodeURIComponent(orderId)}&firma=${links.sign(orderId, browser)}`;
}
