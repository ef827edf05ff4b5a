import crypto from "node:crypto";

/*
 * The links in 'Avísame' e-mails: confirm an address, and leave the list. Each carries the
 * subscription's id and an HMAC of it for its purpose (key derived from the session secret), so
 * no login is needed and no one can confirm or unsubscribe an address they were not sent.
 */
export type WaitlistLinkPurpose = "confirmar" | "baja" | "confirmar-pieza" | "baja-pieza";

/** Which list a link's id names: a drop's 'Avísame', or 'Avísame si vuelve' for a piece (decision 46). */
export type WaitlistList = "drop" | "pieza";

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

/**
 * The addresses an e-mail links to, on the shop's own origin. Both lists share the two pages; a
 * piece's tokens are signed for purposes of their own, so one list's id never works on the other.
 */
export function waitlistUrls(
  links: WaitlistLinks,
  origin: string,
  subscriptionId: string,
  list: WaitlistList = "drop",
) {
  const base = origin.replace(/\/+$/, "");
  const [confirm, leave] =
    list === "drop" ? (["confirmar", "baja"] as const) : (["confirmar-pieza", "baja-pieza"] as const);
  return {
    confirm: `${base}/avisame/confirmar?t=${links.sign(confirm, subscriptionId)}`,
    unsubscribe: `${base}/avisame/baja?t=${links.sign(leave, subscriptionId)}`,
  };
}

/** The list and id a confirmation (or unsubscribe) token names; null for anything else. */
export function verifyListToken(
  links: WaitlistLinks,
  action: "confirmar" | "baja",
  token: string | null | undefined,
): { list: WaitlistList; id: string } | null {
  const drop = links.verify(action, token);
  if (drop) return { list: "drop", id: drop };
  const piece = links.verify(action === "confirmar" ? "confirmar-pieza" : "baja-pieza", token);
  return piece ? { list: "pieza", id: piece } : null;
}
