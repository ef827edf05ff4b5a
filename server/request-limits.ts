import crypto from "node:crypto";
import type express from "express";
import { PROOF_MESSAGES, type ProofOfWork } from "~/rate-limits/proof-of-work.server";
import { type LimitedAction, limitMessage, type RequestLimits } from "~/rate-limits/request-limits.server";
import { countRefusedCheckout } from "./checkout-metrics";
import { refuse } from "./edge";

/**
 * The browser cookie: a random id that lets limits count per browser rather than per address
 * (many shoppers share one mobile carrier's address). It says nothing about the shopper and is
 * set only on /api answers (the cart drawer asks /api/cart before a checkout), never on cached
 * pages.
 */
export const BROWSER_COOKIE = "navegador";
const BROWSER_ID = /^[A-Za-z0-9_-]{22}$/;

export function browserId(req: express.Request): string | null {
  return browserIdFrom(req.headers.cookie);
}

/** The browser id in a Cookie header, or null. */
export function browserIdFrom(cookieHeader: string | undefined): string | null {
  const header = cookieHeader ?? "";
  for (const part of header.split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === BROWSER_COOKIE && value && BROWSER_ID.test(value)) return value;
  }
  return null;
}

export const issueBrowserCookie: express.RequestHandler = (req, res, next) => {
  if (!browserId(req)) {
    // This very request already counts as the new browser's (see `requestBrowser`).
    res.locals.browserId = crypto.randomBytes(16).toString("base64url");
    res.cookie(BROWSER_COOKIE, res.locals.browserId, {
      httpOnly: true,
      sameSite: "lax",
      secure: req.secure,
      path: "/",
      maxAge: 365 * 24 * 3_600_000,
    });
  }
  next();
};

/** The request's browser: its cookie, or the id issued with this answer; null without either. */
export function requestBrowser(req: express.Request, res: express.Response): string | null {
  return browserId(req) ?? (typeof res.locals.browserId === "string" ? res.locals.browserId : null);
}

/** Counts the request against `action`'s limits; past one, a Spanish 429 with Retry-After. */
export function limitRequests(limits: RequestLimits, action: LimitedAction): express.RequestHandler {
  return async (req, res, next) => {
    try {
      const decision = await limits.consume(action, {
        browser: browserId(req),
        address: req.ip ?? req.socket.remoteAddress ?? "desconocida",
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
export function countRequests(limits: RequestLimits, action: LimitedAction): express.RequestHandler {
  return async (req, res, next) => {
    try {
      const decision = await limits.consume(action, {
        browser: browserId(req),
        address: req.ip ?? req.socket.remoteAddress ?? "desconocida",
      });
      if (!decision.ok) res.locals.limitRefusal = decision.retryAfterSeconds;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** GET /api/reto: a new challenge for the browser to solve in the background. */
export function serveChallenge(proofOfWork: ProofOfWork | null): express.RequestHandler {
  return async (req, res, next) => {
    if (!proofOfWork) {
      refuse(req, res, 404, "No se requiere verificación.", { quiet: true });
      return;
    }
    try {
      res.set("Cache-Control", "no-store").json(await proofOfWork.challenge());
    } catch (error) {
      next(error);
    }
  };
}

/** A checkout must carry a solved, unused challenge (header `X-Altcha`). */
export function requireProofOfWork(proofOfWork: ProofOfWork | null): express.RequestHandler {
  return async (req, res, next) => {
    if (!proofOfWork) {
      next();
      return;
    }
    try {
      const checked = await proofOfWork.verify(req.get("x-altcha"));
      if (checked.ok) {
        next();
        return;
      }
      countRefusedCheckout(req, "verificacion");
      refuse(req, res, 400, PROOF_MESSAGES[checked.reason], { detail: `reto ${checked.reason}` });
    } catch (error) {
      next(error);
    }
  };
}
