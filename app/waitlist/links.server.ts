import crypto from "node:crypto";

/*
 * The links in 'Avísame' e-mails: confirm an address, and leave the list. Each carries the
 * subscription's id and an HMAC of it for its purpose (key derived from the session secret), so
 * no login is needed and no one can confirm or unsubscribe an address they were not sent.
 */
export type WaitlistLinkPurpose = "confirmar" | "baja";

export interface WaitlistLinks {
  /** A token for `?t=`: the subscription id and its signature for this purpose. */
  sign(purpose: WaitlistLinkPurpose, subscriptionId: string): string;
  /** The subscription id a genuine token names; null for anything else. */
  verify(purpose: WaitlistLinkPurpose, token: string | null | undefined): string | null;
}

export function createWaitlistLinks(secret: string): WaitlistLinks {
  // A key of its own, so these tokens can never be replayed as any other signature the shop makes.
  const key = crypto.createHmac("sha256", secret).update("enlace-avisame").digest();
  const signature = (purpose: WaitlistLinkPurpose, id: string) =>
    crypto.createHmac("sha256", key).update(`${purpose}\n${id}`).digest("base64url");
  return {
    sign: (purpose, id) => `${id}.${signature(purpose, id)}`,
    verify(purpose, token) {
      if (typeof token !== "string" || token.length > 200) return null;
      const [id, given, extra] = token.split(".");
      if (!id || !given || extra !== undefined || !/^[a-z0-9]{16}$/.test(id)) return null;
      const expected = Buffer.from(signature(purpose, id));
      const actual = Buffer.from(given);
      return actual.length === expected.length && crypto.timingSafeEqual(actual, expected) ? id : null;
    },
  };
}

/** The addresses an e-mail links to, on the shop's own origin. */
export function waitlistUrls(links: WaitlistLinks, origin: string, subscriptionId: string) {
  const base = origin.replace(/\/+$/, "");
  return {
    confirm: `${base}/avisame/confirmar?t=${links.sign("confirmar", subscriptionId)}`,
    unsubscribe: `${base}/avisame/baja?t=${links.sign("baja", subscriptionId)}`,
  };
}
