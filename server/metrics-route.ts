import crypto from "node:crypto";
import type express from "express";
import { METRICS_CONTENT_TYPE, shopMetricsText } from "~/observability/metrics.server";
import { refuse } from "./edge";

/*
 * GET /metrics: the shop's counters (app/observability) in Prometheus' text format, for the
 * metrics system the operator points at it with `Authorization: Bearer <METRICS_TOKEN>`. Without
 * a token configured the address does not exist. Never cached, and not one of the drop-day
 * limits' actions: a scrape every few seconds costs no shopper anything.
 */

/** Equal strings, compared in a time that says nothing about where they differ (nor their length). */
function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

export function metricsEndpoint(token: string | null): express.RequestHandler {
  return async (req, res, next) => {
    if (token === null) {
      refuse(req, res, 404, "Página no encontrada.", { quiet: true });
      return;
    }
    const given = bearerToken(req.get("authorization"));
    if (given === null || !sameSecret(given, token)) {
      res
        .status(401)
        .set({ "WWW-Authenticate": 'Bearer realm="metricas"', "Cache-Control": "no-store" })
        .type("text/plain; charset=utf-8")
        .send("Hace falta el token de métricas (Authorization: Bearer …).\n");
      return;
    }
    try {
      const text = await shopMetricsText();
      res.status(200).set({ "Content-Type": METRICS_CONTENT_TYPE, "Cache-Control": "no-store" }).send(text);
    } catch (error) {
      // The primary did not answer in time (a worker being replaced): say so, briefly.
      if (error instanceof Error && !res.headersSent) {
        res
          .status(503)
          .set({ "Cache-Control": "no-store", "Retry-After": "1" })
          .type("text/plain; charset=utf-8")
          .send("Las métricas no están disponibles en este momento.\n");
        return;
      }
      next(error);
    }
  };
}
