import type { IncomingMessage } from "node:http";
import type express from "express";
import { addressBucket } from "~/lib/address-bucket";
import { BROWSER_COOKIE, type BrowserCookies } from "~/rate-limits/browser-cookie.server";
import { NEW_BROWSER_HEADER, PROOF_REFUSED_HEADER } from "~/rate-limits/proof-headers";
import { PROOF_MESSAGES, type ProofOfWork } from "~/rate-limits/proof-of-work.server";
import { type LimitedAction, limitMessage, type RequestLimits } from "~/rate-limits/request-limits.server";
import { countRefusedCheckout } from "./checkout-metrics";
import { refuse } from "./edge";

/**
 * The browser cookie: a random id, signed by the shop (app/rate-limits/browser-cookie.server.ts),
 * that lets limits count per browser rather than per address (many shoppers share one mobile
 * carrier's address). It says nothing about the shopper and is set only on /api answers (the
 * cart drawer asks /api/cart before a checkout, the proof of work asks /api/reto), never on
 * cached pages. A made-up or altered one counts as none: its request is cookieless, and gets a
 * new cookie.
 */

/** Each request's browser, its signature checked once (the front door and each limit ask). */
const checked = new WeakMap<IncomingMessage, string | null>();

/** The request's own browser: its cookie when the shop signed it, else null. */
export function browserId(cookies: BrowserCookies, req: IncomingMessage): string | null {
  let id = checked.get(req);
  if (id === undefined) {
    id = cookies.idFrom(req.headers.cookie);
    checked.set(req, id);
  }
  return id;
}

/** Gives a request without a (valid) browser cookie a new one, signed, with its answer. */
export function issueBrowserCookie(cookies: BrowserCookies): express.RequestHandler {
  return (req, res, next) => {
    if (!browserId(cookies, req)) {
      const issued = cookies.issue();
      // This very request already counts as the new browser's (see `requestBrowser`).
      res.locals.browserId = issued.id;
      res.cookie(BROWSER_COOKIE, issued.value, {
        httpOnly: true,
        sameSite: "lax",
        secure: req.secure,
        path: "/",
        maxAge: 365 * 24 * 3_600_000,
      });
    }
    next();
  };
}

/** The request's browser: its cookie, or the id issued with this answer; null without either. */
export function requestBrowser(
  cookies: BrowserCookies,
  req: express.Request,
  res: express.Response,
): string | null {
  return browserId(cookies, req) ?? (typeof res.locals.browserId === "string" ? res.locals.browserId : null);
}

/** Counts the request against `action`'s limits; past one, a Spanish 429 with Retry-After. */
export function limitRequests(
  limits: RequestLimits,
  cookies: BrowserCookies,
  action: LimitedAction,
): express.RequestHandler {
  return async (req, res, next) => {
    try {
      const decision = await limits.consume(action, {
        browser: browserId(cookies, req),
        // Per address bucket, as the sign-ups below: an IPv6 /64 is one home or phone.
        address: addressBucket(req.ip ?? req.socket.remoteAddress ?? "desconocida"),
      });
      if (decision.ok) {
        next();
        return;
      }
      if (action === "checkout") countRefusedCheckout(req, "limite");
      refuse(req, res, 429, limitMessage(decision.retryAfterSeconds), {
        headers: { "Retry-After": String(decision.retryAfterSeconds) },
      });
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Like `limitRequests`, for a form on a page: past a limit the request still goes on, with the
 * wait in `res.locals.limitRefusal` (the route's `limitRefusalContext`), and the route answers the
 * 429 itself. React Router's forms cannot show an answer that does not come from their route:
 * a fetcher would replace the whole page with its error instead.
 */
export function countRequests(
  limits: RequestLimits,
  cookies: BrowserCookies,
  action: LimitedAction,
): express.RequestHandler {
  return async (req, res, next) => {
    try {
      const decision = await limits.consume(action, {
        browser: browserId(cookies, req),
        // Per address bucket: one phone or home has a whole IPv6 /64 to post from (decision 31).
        address: addressBucket(req.ip ?? req.socket.remoteAddress ?? "desconocida"),
      });
      if (!decision.ok) res.locals.limitRefusal = decision.retryAfterSeconds;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** GET /api/reto: a new challenge, for this browser, to solve in the background. */
export function serveChallenge(
  proofOfWork: ProofOfWork | null,
  cookies: BrowserCookies,
): express.RequestHandler {
  return async (req, res, next) => {
    if (!proofOfWork) {
      refuse(req, res, 404, "No se requiere verificación.", { quiet: true });
      return;
    }
    try {
      // `issueBrowserCookie` ran first (every /api answer): the challenge and the cookie come together.
      const browser = requestBrowser(cookies, req, res);
      if (browser === null) throw new Error("/api/reto sin cookie de navegador");
      if (browserId(cookies, req) === null) res.set(NEW_BROWSER_HEADER, "1");
      res.set("Cache-Control", "no-store").json(await proofOfWork.challenge(browser));
    } catch (error) {
      next(error);
    }
  };
}

/** A checkout must carry a solved, unused challenge (header `X-Altcha`) made for its browser. */
export function requireProofOfWork(
  proofOfWork: ProofOfWork | null,
  cookies: BrowserCookies,
): express.RequestHandler {
  return async (req, res, next) => {
    if (!proofOfWork) {
      next();
      return;
    }
    try {
      const checked = await proofOfWork.verify(req.get("x-altcha"), requestBrowser(cookies, req, res));
      if (checked.ok) {
        next();
        return;
      }
      countRefusedCheckout(req, "verificacion");
      refuse(req, res, 400, PROOF_MESSAGES[checked.reason], {
        detail: `reto ${checked.reason}`,
        headers: { [PROOF_REFUSED_HEADER]: checked.reason },
      });
    } catch (error) {
      next(error);
    }
  };
}
