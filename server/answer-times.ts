import type { IncomingMessage } from "node:http";
import type express from "express";
import { type AnswerKind, answerKind, recordAnswer } from "~/observability/metrics.server";

/*
 * How long the shop takes to answer, for the metrics' histogram (app/observability): from the
 * moment the server handed the request to the shop (its front door, `markArrival`) to the moment
 * the answer is written, by the front doors (`timeFastAnswer`, where they log) or by Express
 * (`answerTimes`, when the answer has been handed to the connection).
 */

const ARRIVED = Symbol("arrived");

type Timed = IncomingMessage & { [ARRIVED]?: number };

/** The request reached the shop now (or at `at`, a `performance.now()` already read). */
export function markArrival(req: IncomingMessage, at = performance.now()): void {
  (req as Timed)[ARRIVED] = at;
}

function seconds(req: IncomingMessage): number {
  const arrived = (req as Timed)[ARRIVED];
  return arrived === undefined ? 0 : (performance.now() - arrived) / 1000;
}

/** A front door answers now: a cached page, or a checkout refused. */
export function timeFastAnswer(req: IncomingMessage, kind: AnswerKind): void {
  recordAnswer(kind, seconds(req));
}

/** Express: every answer it writes, timed when it is finished. */
export const answerTimes: express.RequestHandler = (req, res, next) => {
  (req as Timed)[ARRIVED] ??= performance.now();
  res.once("finish", () => recordAnswer(answerKind(req.path), seconds(req)));
  next();
};
