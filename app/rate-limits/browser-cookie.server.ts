import crypto from "node:crypto";

/**
 * The browser cookie (`navegador`): a random id the shop issues, signed with a key of its own
 * (derived from the shop's secret), so that only the shop makes browsers. The request limits, the
 * one unpaid checkout per browser, the proof of work and the /cancel and /success links count by
 * it; a made-up, altered or unsigned value is no browser at all (decision 30).
 *
 * The value is `<id>.<signature>`: the id (16 random bytes, 22 base64url characters) is what the
 * rest of the shop stores (orders.checkout_browser and so on); the signature is the HMAC-SHA-256
 * of the id, 43 base64url characters. Checking one is one HMAC and a timing-safe comparison, the
 * first time a value is seen; then it is remembered: it runs on every checkout of a drop's rush.
 */
export const BROWSER_COOKIE = "navegador";

const VALUE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export interface BrowserCookies {
  /**
   * The browser id in a Cookie header when its value is one this shop signed; null without the
   * cookie and for a forged, altered, malformed or old unsigned one (all the same: no browser).
   */
  idFrom(cookieHeader: string | undefined): string | null;
  /** A new browser: its id and the signed cookie value that carries it. */
  issue(): { id: string; value: string };
}

/** Cookie values already found signed, remembered: a browser sends the same one on every request. */
const REMEMBERED = 10_000;

export function createBrowserCookies(secret: string): BrowserCookies {
  // A key of its own purpose: no other signature the shop makes can pass for a cookie.
  const key = crypto.createHmac("sha256", secret).update("cookie-navegador").digest();
  const sign = (id: string) => crypto.createHmac("sha256", key).update(id).digest("base64url");
  // Only values this shop signed are kept (value → id), so made-up ones cannot fill it; a value
  // is only ever looked up whole, which tells a forger nothing about a signature.
  const signed = new Map<string, string>();
  const verify = (value: string): string | null => {
    const known = signed.get(value);
    if (known !== undefined) return known;
    const match = VALUE.exec(value);
    if (!match) return null;
    const [, id = "", signature = ""] = match;
    // Compared as written (both 43 characters, as the pattern checked): base64url's last
    // character has spare bits, and only the one spelling the shop wrote is its signature.
    if (!crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(sign(id)))) return null;
    if (signed.size >= REMEMBERED) signed.clear();
    // A copy of its 66 characters (and the id a slice of that copy): the value is a slice of the
    // whole Cookie header, which a remembered slice would keep alive (a padded one is kilobytes).
    const copy = Buffer.from(value, "latin1").toString("latin1");
    signed.set(copy, copy.slice(0, id.length));
    return id;
  };
  return {
    idFrom(cookieHeader) {
      if (!cookieHeader) return null;
      for (const part of cookieHeader.split(";")) {
        const at = part.indexOf("=");
        if (at < 0 || part.slice(0, at).trim() !== BROWSER_COOKIE) continue;
        const id = verify(part.slice(at + 1).trim());
        if (id !== null) return id;
      }
      return null;
    },
    issue() {
      const id = crypto.randomBytes(16).toString("base64url");
      // Not remembered here: cookie-less visits would churn the memory of those in use.
      return { id, value: `${id}.${sign(id)}` };
    },
  };
}
