import { AsyncLocalStorage } from "node:async_hooks";
import { pino } from "pino";
import SonicBoom from "sonic-boom";

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

/** At exit, how long in all a full output is waited for before the lines are given up. */
const EXIT_WAIT_MS = 1_000;
let exitWaitStarted: number | undefined;
/** Whether a write at exit may be tried again: for EXIT_WAIT_MS in all, shared by both streams. */
function mayWaitAtExit(): boolean {
  exitWaitStarted ??= Date.now();
  return Date.now() - exitWaitStarted < EXIT_WAIT_MS;
}
/**
 * Memory kept for lines an output does not take (a log collector that stalls without closing its
 * pipe): past it, lines are left out and counted. LOG_BUFFER_BYTES sets the access lines' own.
 */
export const DEFAULT_LOG_BUFFER_BYTES = 8 * 1024 * 1024;
/** The most written at once: whole lines, and no more than a pipe writes in one piece. */
const WRITE_BYTES = 4 * 1024;
/**
 * Standard output's descriptor, made non-blocking first, as pino does when it makes its own
 * stream: Node does it once `process.stdout` is asked for. A blocking one (a pipe as a child
 * inherits it) would hold a thread of the pool at each write while the collector is stalled, and
 * the flush at exit for ever.
 */
const stdoutFd = (): number => process.stdout.fd ?? 1;

/**
 * An asynchronous writer to standard output: whole lines, at most 4 KB a write (what a pipe writes
 * in one piece, so two writers' lines never land inside each other's), at most `maxLength` bytes
 * waiting, and once `exiting()` a full output retried for about a second in all. Lines left out
 * past `maxLength` are counted and `said` once the output moves again (said before, the line would
 * only wait behind the stalled ones); a collector that is slow rather than stopped gets several
 * such counts, to be summed.
 */
function stdoutWriter(maxLength: number, exiting: () => boolean, said: (lines: number) => void): SonicBoom {
  const stream = new SonicBoom({
    fd: stdoutFd(),
    minLength: 0,
    maxWrite: WRITE_BYTES,
    maxLength,
    sync: false,
    retryEAGAIN: () => !exiting() || mayWaitAtExit(),
  });
  let dropped = 0;
  stream.on("drop", (data: string) => {
    for (let at = data.indexOf("\n"); at !== -1; at = data.indexOf("\n", at + 1)) dropped++;
  });
  stream.on("write", () => {
    if (dropped === 0 || exiting()) return;
    const lines = dropped;
    dropped = 0;
    said(lines);
  });
  return stream;
}

/** At exit: what waits is written, or given up when the output takes nothing for about a second. */
function flushAtExit(stream: SonicBoom): void {
  try {
    stream.flushSync();
  } catch {
    stream.destroy();
  }
}

/**
 * pino's own stream, as pino makes it by default (asynchronous sonic-boom on standard output), but
 * with a ceiling on what waits in memory (the lines left out past it counted and said), writes of
 * whole lines of at most 4 KB (as the access lines', so neither lands inside the other's on a
 * pipe), and at exit a full output waited for about a second at most: pino's own flush at exit
 * retries for ever, and a shop whose collector is stuck for good would never finish stopping. A
 * closed output (EPIPE) gives its lines up, as pino's own stream does; any other failure is
 * raised, as pino's is.
 */
function logStream(): SonicBoom {
  let exiting = false;
  const stream = stdoutWriter(
    DEFAULT_LOG_BUFFER_BYTES,
    () => exiting,
    (lines) => log.warn({ lines }, "Se dejaron líneas del registro: la salida no las tomaba"),
  );
  stream.on("error", function closed(error: NodeJS.ErrnoException) {
    if (error.code !== "EPIPE") {
      stream.removeListener("error", closed);
      stream.emit("error", error);
      return;
    }
    stream.write = () => true;
    stream.flushSync = () => {};
  });
  process.on("exit", () => {
    exiting = true;
    flushAtExit(stream);
  });
  return stream;
}

export const log = pino(
  {
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
  },
  logStream(),
);

/** How long an access line may wait in memory before it is written. */
export const ACCESS_LOG_FLUSH_MS = 100;

/** One access line's own fields (LOG_REQUESTS), in the order they are written. */
export interface AccessLine {
  reqId: string;
  method: string | undefined;
  /** As asked, without the query. */
  path: string;
  status: number;
  /** The answer's declared length; undefined when streamed. */
  bytes: number | undefined;
  ms: number;
  address: string | undefined;
  /** The client left before the answer was handed over whole. */
  aborted: boolean;
}

/** Text that goes between JSON's quotes as it is: printable ASCII but `"` and `\`. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A JSON string of ASCII only (anything else escaped), so a line's length is its size in bytes. */
function jsonText(value: string): string {
  if (PLAIN_TEXT.test(value)) return `"${value}"`;
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The access log's own writer (LOG_REQUESTS: one line per request). Each line is the JSON object
 * pino would write for `log.info({ reqId, method, path, status, bytes, ms, address, aborted },
 * "Solicitud")` (the same fields in the same order, `undefined` ones left out), made here from a
 * template: on drop day it is written tens of thousands of times a second, and pino's generic
 * serialisation of each line, and its writer re-measuring the pending text at each one, cost a
 * cached page a quarter of its answers a second (decision 12). Lines are gathered in memory and
 * handed to an asynchronous writer (sonic-boom, the library pino writes with) 4 KB at a time, at the latest every
 * ACCESS_LOG_FLUSH_MS, and at exit; each write is whole lines and at most 4 KB, the size a pipe
 * writes in one piece, so lines of other writers (the other log, the cluster's other processes on
 * the same standard output) never land inside one. A SIGKILL loses at most the last fraction of a
 * second of lines. An output that is gone (its reader closed it: a log collector that died) ends
 * the access lines, not the shop. sonic-boom 5 (for pino's own stream too, package.json's
 * overrides): version 4 retried such a write at exit for ever, and a stopping shop never exited.
 * An output that takes nothing (its reader stalled) keeps at most `maxBufferedBytes` of lines
 * waiting (LOG_BUFFER_BYTES); later ones are left out and counted. Lines are written at
 * level info: a LOG_LEVEL above it (warn, error, silent) leaves them out, as for any info line.
 */
export function bufferedAccessLog(maxBufferedBytes = DEFAULT_LOG_BUFFER_BYTES): (line: AccessLine) => void {
  if (!log.isLevelEnabled("info")) return () => {};
  let pending = "";
  let exiting = false;
  // First of the exit listeners, before pino's own flush: what is pending is written, waiting at
  // most about a second for an output nobody reads (a stuck log collector) rather than forever,
  // which would keep a stopping server from ever exiting; past that the lines are given up.
  process.prependListener("exit", () => {
    exiting = true;
    flush();
    if (!gone) flushAtExit(destination);
  });
  let gone = false;
  // While running, a full output is retried later (the writer is asynchronous).
  const destination = stdoutWriter(
    maxBufferedBytes,
    () => exiting,
    (lines) =>
      log.warn(
        { lines, maxBytes: maxBufferedBytes },
        "Se dejaron líneas de acceso: la salida del registro no las tomaba",
      ),
  );
  // Any other failure (EPIPE: nobody reads the output any more) ends the access lines, said once
  // on the shop's other log (which gives its own lines up on such a failure).
  destination.on("error", (error: NodeJS.ErrnoException) => {
    if (gone) return;
    gone = true;
    log.warn(
      { error: error.code ?? error.message },
      "Las líneas de acceso ya no se pueden escribir: se dejan",
    );
  });
  function flush(): void {
    if (pending === "") return;
    if (!gone) destination.write(pending);
    pending = "";
  }
  const timer = setInterval(flush, ACCESS_LOG_FLUSH_MS);
  timer.unref();
  // The same ISO time as the other lines, remade once per millisecond, not once per line.
  let stampedAt = 0;
  let time = "";
  return (line) => {
    const now = Date.now();
    if (now !== stampedAt) {
      stampedAt = now;
      time = new Date(now).toISOString();
    }
    const text = accessLineText(line, time);
    if (pending.length + text.length > WRITE_BYTES) flush();
    pending += text;
  };
}

/** One access line as written, with its newline: ASCII only, so its length is its size in bytes. */
export function accessLineText(line: AccessLine, time: string): string {
  let text = `{"level":"info","time":"${time}","pid":${process.pid},"reqId":${jsonText(line.reqId)}`;
  if (line.method !== undefined) text += `,"method":${jsonText(line.method)}`;
  text += `,"path":${jsonText(line.path)},"status":${line.status}`;
  if (line.bytes !== undefined) text += `,"bytes":${Number.isFinite(line.bytes) ? line.bytes : null}`;
  text += `,"ms":${line.ms}`;
  if (line.address !== undefined) text += `,"address":${jsonText(line.address)}`;
  if (line.aborted) text += `,"aborted":true`;
  return `${text},"msg":"Solicitud"}\n`;
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
