import express from "express";
import { busyPage } from "~/auth/login-busy";
import { logLoginRefusal } from "~/auth/login-log.server";
import { lookAtPlace } from "~/web/line-request.server";
import { PATHS, pathPattern, SIGN_IN_PATHS, withDataRequest } from "~/web/paths";
import type { Services } from "~/web/services";
import { checkoutEndpoint } from "./checkout-endpoint";
import {
  browserId,
  countRequests,
  issueBrowserCookie,
  limitRequests,
  requestBrowser,
  requireProofOfWork,
  serveChallenge,
} from "./request-limits";

/*
 * The addresses the server answers or counts itself, before React Router: the health check, the
 * clock, the checkout endpoint, and the drop-day limits on checkouts, /cancel, the sign-in and
 * 'Avísame' sign-ups (per browser first and per address second: app/rate-limits).
 */

/**
 * 'Avísame' sign-ups: the form on an upcoming drop's page and its product pages posts to the page
 * itself (React Router's data requests end in .data). Those pages take no other post.
 */
const WAITLIST_SIGN_UPS = [pathPattern(PATHS.collection), pathPattern(PATHS.product)];

/** GET /healthz: ok while the database answers. */
export function healthCheck(services: Services): express.RequestHandler {
  return async (_req, res) => {
    res.set("Cache-Control", "no-store");
    try {
      await services.database.ping();
      // Nothing beyond ok/error: which database runs where is nobody else's business.
      res.json({ status: "ok" });
    } catch {
      res.status(503).json({ status: "error" });
    }
  };
}

export function edgeRoutes(
  services: Services,
  shopOrigin: (req: express.Request) => string,
  maxBodyBytes: number,
): express.Router {
  const router = express.Router();
  // The server's clock for pages that open and close a drop on their own (decision 17): never
  // cached, no cookie, no database, so a drop-day crowd costs next to nothing here.
  router.get(PATHS.clock, (_req, res) => {
    res.set("Cache-Control", "no-store");
    res.json({ ahora: Date.now() });
  });

  // Drop-day limits, per browser first and per address second (app/rate-limits).
  const { limits, browserCookies: cookies } = services;
  router.use("/api", issueBrowserCookie(cookies));
  router.post(
    PATHS.checkout,
    limitRequests(limits, cookies, "checkout"),
    requireProofOfWork(services.proofOfWork, cookies),
    checkoutEndpoint(services, shopOrigin, maxBodyBytes),
  );
  // A place in line: the drawer looks every half second while it waits, so it is never counted
  // against the checkout's allowance; only its own browser may see it.
  router.get(PATHS.line, async (req, res, next) => {
    try {
      const view = await lookAtPlace(services, String(req.params.id), requestBrowser(cookies, req, res));
      res.set("Cache-Control", "no-store");
      if (!view) {
        res.status(404).json({ message: "No encontramos tu lugar en la fila. Intenta pagar de nuevo." });
        return;
      }
      res.json(view);
    } catch (error) {
      next(error);
    }
  });
  router.get(
    PATHS.challenge,
    limitRequests(limits, cookies, "challenge"),
    serveChallenge(services.proofOfWork, cookies),
  );
  router.get(withDataRequest(PATHS.cancel), limitRequests(limits, cookies, "cancel"));
  // The sign-in's every form: the password, the second factor's code and its set-up share one
  // allowance per browser. Its pages give the browser its cookie (never cached pages), so a person
  // signing in is counted as a browser; a script that drops it shares the address's small one.
  router.get([...SIGN_IN_PATHS], issueBrowserCookie(cookies));
  router.post(SIGN_IN_PATHS.flatMap(withDataRequest), limitRequests(limits, cookies, "login"));
  // The sign-up form shows its own 429 (the route answers it): the count is made here all the same.
  // A post's answer is never cached, so it may carry the browser cookie too.
  router.post(WAITLIST_SIGN_UPS, issueBrowserCookie(cookies), countRequests(limits, cookies, "waitlist"));
  // 'Mi pedido''s look-up shows its own 429 the same way.
  router.post(
    withDataRequest(PATHS.orderLookup),
    issueBrowserCookie(cookies),
    countRequests(limits, cookies, "lookup"),
  );

  // While the server already knows the sign-in line is full (no database read), a login form
  // posted without JavaScript is refused here, before React Router renders anything: under a
  // password-guessing flood, that render is what the other pages would wait behind. With
  // JavaScript the form asks for /login.data and the action answers, so the message shows in it.
  // A browser the owner signed in from before is never held here (decision 32).
  router.post(PATHS.login, async (req, res, next) => {
    try {
      const wait = services.auth.busyFor();
      if (wait === null || (await services.auth.knownDevice(browserId(cookies, req)))) {
        next();
        return;
      }
      logLoginRefusal("ocupado", req.ip ?? "desconocida");
      res
        .status(429)
        .set({ "Retry-After": String(wait), "Cache-Control": "private, no-store" })
        .type("html")
        .send(busyPage(wait));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
