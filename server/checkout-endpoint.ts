import type express from "express";
import { answerCheckout } from "~/web/checkout-request.server";
import { isSameOriginFrom } from "~/web/origin.server";
import type { Services } from "~/web/services";
import { countCheckoutAnswer, countRefusedCheckout } from "./checkout-metrics";
import { refuse } from "./edge";
import { readBody } from "./request-handler";
import { requestBrowser } from "./request-limits";

/**
 * POST /api/checkout answered from Express, after the request limits and the proof of work
 * (server/app.ts), with the same answer as the route module (app/web/checkout-request.server.ts): on
 * drop day this is the request hundreds of phones send in the same second, and React Router's
 * request and response objects cost as much as the checkout's own reads.
 */
export function checkoutEndpoint(
  services: Services,
  shopOrigin: (req: express.Request) => string,
  maxBodyBytes: number,
): express.RequestHandler {
  return async (req, res, next) => {
    try {
      const read = await readBody(req, maxBodyBytes);
      if (read === "too-large") {
        countRefusedCheckout(req, "solicitud");
        refuse(req, res, 413, "La solicitud es demasiado grande.");
        return;
      }
      if (read === "aborted") return;
      // The origin the request was asked under, as the router's request would carry it.
      const host =
        req.headers.host || `${req.socket.localAddress ?? "localhost"}:${req.socket.localPort ?? ""}`;
      const answer = await answerCheckout(services, {
        contentType: req.headers["content-type"] ?? null,
        sameOrigin: isSameOriginFrom(
          { origin: req.get("origin") ?? null, secFetchSite: req.get("sec-fetch-site") ?? null },
          `${req.protocol}://${host}`,
          services.config,
          { allowUnknown: true },
        ),
        body: read.toString("utf8"),
        browser: requestBrowser(services.browserCookies, req, res),
        origin: shopOrigin(req),
        address: req.ip ?? req.socket.remoteAddress ?? "desconocida",
      });
      countCheckoutAnswer(answer);
      if (res.destroyed || res.writableEnded) return;
      const body = JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
        "Cache-Control": "no-store",
      });
      res.end(body);
    } catch (error) {
      next(error);
    }
  };
}
