import { AsyncLocalStorage } from "node:async_hooks";
import { pino } from "pino";

/*
 * The shop's log: one JSON object per line on standard output (pino), e.g.
 *   {"level":"warn","time":"2026-11-25T21:30:00.000Z","pid":4242,"reqId":"0f1e…","orderId":"OL-…",
 *    "error":"connect ECONNREFUSED","msg":"No se pudo cancelar el pago del pedido"}
 * `msg` is the Spanish sentence, the same for every line of its kind; what varies is in fields.
 * `error` is a foreseen failure's message on one line (a provider that did not answer); `err` is a
 * fault, with its stack. Every line written while a request is handled, in app/ or server/,
 * carries that request's `reqId` (server/app.ts sets it as the request arrives and answers it in
 * `X-Request-Id`), so one request's lines can be found together.
 *
 * Here, at the bottom layer, so that every layer may log. The level is LOG_LEVEL (createShop sets
 * it from the configuration; info until then). Under Vitest it is silent unless LOG_LEVEL says
 * otherwise: tests that look at a line spy on the logger's methods.
 */

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const requestIds = new AsyncLocalStorage<string>();

/** The mixin's answer outside any request: merged as nothing, and never written to. */
const NO_FIELDS: Record<string, never> = Object.freeze({});

const initialLevel = (): LogLevel => {
  const asked = process.env.LOG_LEVEL as LogLevel | undefined;
  if (asked && LOG_LEVELS.includes(asked)) return asked;
  return process.env.VITEST ? "silent" : "info";
};

export const log = pino({
  level: initialLevel(),
  // Which process wrote it (a cluster has several); nothing else about the machine.
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  mixin: () => {
    const reqId = requestIds.getStore();
    return reqId === undefined ? NO_FIELDS : { reqId };
  },
  // A line's own fields win over the request's id (the access line passes its own).
  mixinMergeStrategy: (fields, mixed) => (mixed === NO_FIELDS ? fields : Object.assign(mixed, fields)),
});

/** How long an access line may wait in memory before it is written. */
export const ACCESS_LOG_FLUSH_MS = 100;

/**
 * The access log's own writer (LOG_REQUESTS: one line per request): the same JSON lines, but
 * gathered in memory and written a few kilobytes at a time, at the latest every
 * ACCESS_LOG_FLUSH_MS, and at exit. One write per request cost a cached page a third of its
 * answers a second (decision 12); a SIGKILL loses at most the last fraction of a second of lines.
 * The shop's other lines stay written as they happen.
 */
export function bufferedAccessLog(): { info(fields: Record<string, unknown>, msg: string): void } {
  // A few kilobytes at a time: each line added re-measures the pending text, so a larger batch
  // costs more per line than the writes it saves. Each write is whole lines and at most 4 KB, the
  // size a pipe writes in one piece, so lines of other writers (the other log, the cluster's
  // other processes on the same standard output) never land inside one.
  const destination = pino.destination({ dest: 1, minLength: 2 * 1024, maxWrite: 4 * 1024, sync: false });
  // The same ISO time as the other lines, made once per millisecond, not once per line.
  let stampedAt = 0;
  let stamp = "";
  const lines = pino(
    {
      level: log.level,
      base: { pid: process.pid },
      timestamp: () => {
        const now = Date.now();
        if (now !== stampedAt) {
          stampedAt = now;
          stamp = `,"time":"${new Date(now).toISOString()}"`;
        }
        return stamp;
      },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const timer = setInterval(() => destination.flush(), ACCESS_LOG_FLUSH_MS);
  timer.unref();
  return { info: (fields, msg) => lines.info(fields, msg) };
}

/** Runs `work` (and everything it starts, awaited or not) as part of the request `id`. */
export function withRequestId<T>(id: string, work: () => T): T {
  return requestIds.run(id, work);
}

/**
 * Runs `work` as part of no request: for a timer or a listener a request happens to start that
 * outlives it and speaks for many (a count of refusals each second), whose lines would otherwise
 * carry that one request's id.
 */
export function outsideRequests<T>(work: () => T): T {
  return requestIds.exit(work);
}
