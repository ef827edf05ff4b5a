import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type express from "express";
import type { Config } from "~/config/env.server";
import { log, outsideRequests } from "~/config/log.server";
import { PATHS, pathPattern, SIGN_IN_PATHS } from "~/web/paths";

/**
 * The shop's edge: what every request passes before any route sees it. Malformed requests (an
 * unknown method, a broken Host header, an address that does not decode, a form from another
 * site) are refused here with a Spanish page or JSON and a 4xx, and one log line each.
 */

const TITLES: Record<number, string> = {
  400: "Solicitud no válida",
  403: "Acción no permitida",
  404: "Página no encontrada",
  405: "Método no permitido",
  413: "Solicitud demasiado grande",
  429: "Demasiados intentos",
  500: "Algo salió mal",
};

/** Methods the shop answers; anything else is a 405 before routing. */
const METHODS = new Set(["GET", "HEAD", "POST"]);

/**
 * A Host header as a browser sends it: a name or IPv4 address, or an IPv6 address in brackets,
 * and an optional port. Anything else would build a broken (or someone else's) address.
 */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/** Hosts found valid lately: a page-cache hit checks its Host, nearly always the same one. */
const validHosts = new Set<string>();

export function isValidHost(host: string): boolean {
  if (validHosts.has(host)) return true;
  if (!checkHost(host)) return false;
  // Only valid ones are kept, a few at most: made-up names cannot grow it.
  if (validHosts.size >= 32) validHosts.clear();
  validHosts.add(host);
  return true;
}

function checkHost(host: string): boolean {
  const match = HOST.exec(host);
  if (!match || host.length > 255) return false;
  const port = match[1];
  if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65_535)) return false;
  // And one the address parser takes: `256.0.0.1`, `1.2.3.4.5` or `[::::]` look like names or
  // addresses but build no URL, and every page's request is built on its Host.
  return URL.canParse(`http://${host}/`);
}

/**
 * The address a request asks for, as a path ("/…"): the request line's own, or the path of a whole
 * address ("http://host/…", which HTTP/1.1 servers must take; its host is not believed, like the
 * Host header's). Null for anything else ("*", "example.com:443").
 */
export function requestPath(target: string): string | null {
  if (target.startsWith("/")) return target;
  if (!/^https?:\/\/[^/?#]*\//i.test(target)) return null;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

/** Whether the client asked for data (the API, React Router's .data requests) rather than a page. */
function wantsJson(req: express.Request): boolean {
  const path = req.path;
  if (path.startsWith("/api/") || path.endsWith(".data")) return true;
  // A browser asks for text/html; a script (Accept: */* or none) gets JSON.
  return req.accepts(["json", "html"]) === "json";
}

/** What a refusal's log line says besides its message. */
interface Refusal {
  status: number;
  method?: string;
  url?: string;
  reason?: string;
  detail?: string;
  /** Counted together with other refusals of its status: past MAX_DISTINCT kinds in a second. */
  several?: true;
}

/** Refusals logged in the current second, by their kind: the first is written, the rest counted. */
const repeats = new Map<string, { refusal: Refusal; count: number }>();
/** Distinct lines remembered per second; past it a flood of odd addresses is counted as one. */
const MAX_DISTINCT = 200;

function logLine(req: express.Request, status: number, message: string, detail?: string): void {
  // One line per refusal, with the address cut short (the JSON shows control characters escaped)
  // and without its query, as the access log: it may carry a signed link's token, a buyer's
  // e-mail typed in a search, an unsubscribe link's key.
  const url = req.originalUrl.split("?")[0]?.slice(0, 200) ?? "";
  const refusal: Refusal = { status, method: req.method, url, reason: message, detail };
  const line = `${status} ${req.method} ${url} ${message} ${detail ?? ""}`;
  // Under a flood (a script past its limit), the same line a thousand times a second would cost
  // more than the refusals themselves: it is written once, then as a count each second.
  const several = repeats.size >= MAX_DISTINCT && !repeats.has(line);
  const key = several ? `${status} varias` : line;
  const seen = repeats.get(key);
  if (seen !== undefined) {
    seen.count++;
    return;
  }
  repeats.set(key, { refusal: several ? { status, several: true } : refusal, count: 0 });
  log.warn(refusal, "Solicitud rechazada");
  // The first line of a second starts its count.
  if (repeats.size === 1) outsideRequests(() => setTimeout(flushRepeats, 1_000).unref());
}

function flushRepeats(): void {
  for (const { refusal, count } of repeats.values())
    if (count > 0) log.warn({ ...refusal, more: count }, "Solicitud rechazada: más en el último segundo");
  repeats.clear();
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small page of its own: a refusal must not depend on the app (or the database) working. */
export function refusalPage(status: number, message: string, shopName = ""): string {
  const title = TITLES[status] ?? TITLES[400];
  const suffix = shopName ? ` · ${escapeHtml(shopName)}` : "";
  return `<!doctype html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}${suffix}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1.25rem;color:#2b2118"><h1 style="font-family:Georgia,serif;font-weight:400">${title}</h1><p>${escapeHtml(message)}</p><p><a href="/" style="color:#7a5a1d">Ir a la tienda</a></p></body></html>`;
}

/**
 * Answers a refusal in Spanish: JSON `{ message }` to the API and data requests, a small page to
 * browsers. A body still arriving is dealt with by drainAfterAnswer: asking Node to close the
 * connection here would reset it under the client before it read the answer.
 */
export function refuse(
  req: express.Request,
  res: express.Response,
  status: number,
  message: string,
  options: { detail?: string; headers?: Record<string, string>; quiet?: boolean } = {},
): void {
  if (!options.quiet) logLine(req, status, message, options.detail);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set("Cache-Control", "no-store");
  for (const [name, value] of Object.entries(options.headers ?? {})) res.set(name, value);
  if (req.method === "HEAD") {
    res.end();
  } else if (wantsJson(req)) {
    res.json({ message });
  } else {
    res.type("html").send(refusalPage(status, message, res.app.locals.shopName));
  }
}

/**
 * A body the shop stopped reading (refused, or a GET that carried one) still has the rest coming.
 * Closing at once would make most clients report a reset instead of the answer, so once the answer
 * is sent the rest is read and thrown away (never kept) up to `bytes`; past that, reading stops
 * (the sender is held up by TCP itself). After `ms` the connection is closed, by which time the
 * client has read the answer. A body that ends within that leaves the connection open.
 */
export function drainAfterAnswer(
  limits: (req: express.Request) => { bytes: number; ms: number },
): express.RequestHandler {
  return (req, res, next) => {
    lingerOnClose(req);
    res.once("finish", () => {
      if (req.complete) return;
      const { bytes, ms } = limits(req);
      const socket = req.socket;
      // Whoever read the body has stopped: its listener would otherwise queue what comes next.
      req.removeAllListeners("data");
      let drained = 0;
      const timer = setTimeout(() => socket.destroy(), ms);
      timer.unref();
      req.on("data", (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > bytes) req.pause();
      });
      req.once("end", () => {
        clearTimeout(timer);
        // Half-closed by lingerOnClose: everything is read now, so closing cannot reset.
        if (socket.writableEnded) socket.destroy();
      });
      req.once("close", () => clearTimeout(timer));
      req.resume();
    });
    next();
  };
}

const nativeDestroySoon = Symbol("destroySoon");
type LingeringSocket = Socket & { destroySoon?: () => void; [nativeDestroySoon]?: () => void };

/**
 * When the client asked for `Connection: close`, Node closes the connection the moment the answer
 * is out. With a body still arriving, that close is a reset, and a reset can wipe the answer from
 * the client before it reads it. Instead the connection is half-closed (the answer is complete) and
 * the rest of the body is read by drainAfterAnswer, which closes it: a "lingering close", as nginx does.
 */
function lingerOnClose(req: express.Request): void {
  const socket = req.socket as LingeringSocket;
  if (typeof socket.destroySoon !== "function") return;
  socket[nativeDestroySoon] ??= socket.destroySoon;
  const native = socket[nativeDestroySoon];
  socket.destroySoon = function (this: LingeringSocket) {
    if (req.complete || this.destroyed) native.call(this);
    else this.end();
  };
}

/** Paths that take posts from outside the shop's pages: the card provider's notifications. */
const OPEN_TO_OTHER_SITES = new Set(["/api/stripe/webhook"]);

/** The addresses the request limits count (server/edge-routes.ts), with their data requests. */
const LIMITED_PATHS = [PATHS.checkout, PATHS.cancel, PATHS.orderLookup, ...SIGN_IN_PATHS].map(pathPattern);
/** Pages whose posts the limits count ('Avísame' sign-ups), not their reading. */
const LIMITED_POSTS = [PATHS.collection, PATHS.product].map(pathPattern);

/**
 * The route address React Router reads a path as: a data request's (`/x.data`, `/x/_.data`) is its
 * page's, trailing slashes are dropped and letters' case does not count.
 */
export function routeAddress(path: string): string {
  const page = path.endsWith("/_.data")
    ? path.slice(0, -6)
    : path.endsWith(".data")
      ? path.slice(0, -5)
      : path;
  return (page.replace(/\/+$/, "") || "/").toLowerCase();
}

/**
 * React Router's route discovery: the shop's pages ask it which routes an address has
 * (`/__manifest?paths=…&version=…`, always with `paths`, and never past 7,680 characters of
 * address). It refuses a request of its current version without `paths` in English ("Invalid
 * Request"), and one past that length with an empty "Bad Request". (The shop keeps React
 * Router's default address for it and no basename.) The length is measured as the request was
 * written, a few characters apart from React Router's own measure at worst.
 */
const MANIFEST_PATH = "/__manifest";
const MANIFEST_URL_LIMIT = 7_680;

function isManifestAsked(originalUrl: string, host: string): boolean {
  const query = originalUrl.indexOf("?");
  if (query < 0 || !new URLSearchParams(originalUrl.slice(query)).has("paths")) return false;
  return `http://${host}${originalUrl}`.length <= MANIFEST_URL_LIMIT;
}

/** More than any address of the shop has (its deepest page has 5; media and assets fewer). */
const MOST_SEGMENTS = 32;

/** Whether `path` has more than `most` slashes (counted, not split: it may be kilobytes long). */
function segmentsOver(path: string, most: number): boolean {
  let seen = 0;
  for (let at = path.indexOf("/"); at >= 0; at = path.indexOf("/", at + 1)) if (++seen > most) return true;
  return false;
}

export function edgeGuards(config: Config): express.RequestHandler {
  return (req, res, next) => {
    if (!METHODS.has(req.method)) {
      refuse(req, res, 405, "Método no permitido.", { headers: { Allow: "GET, HEAD, POST" } });
      return;
    }
    const host = req.headers.host;
    // HTTP/1.0 clients may send none (the request then stands for the shop's own address).
    if (host === undefined ? req.httpVersionMajor > 1 || req.httpVersionMinor > 0 : !isValidHost(host)) {
      refuse(req, res, 400, "La dirección del servidor (encabezado Host) no es válida.", {
        detail: `Host: ${JSON.stringify(host ?? null)}`,
      });
      return;
    }
    // (A control character that decodes is the routes' to judge: an id with one is simply not found.)
    let path: string;
    let parsed: string;
    try {
      if (requestPath(req.originalUrl) === null) throw new URIError("not a path");
      // The path as React Router reads it: the URL parser drops dot segments (`/./x`, `/%2e/x`,
      // `/a/../x`) and reads `\` as `/`, so `/./mi-pedido` reached the look-up past its limit.
      parsed = new URL(`http://shop.invalid${req.path}`).pathname;
      path = decodeURIComponent(parsed);
    } catch {
      refuse(req, res, 400, "La dirección no es válida.");
      return;
    }
    // Except a line break: no page has one, and React Router's catch-all cannot match it (its
    // pattern stops at line ends), so it would answer its own English "No route matches".
    if (/[\r\n\u2028\u2029]/.test(path)) {
      refuse(req, res, 404, "La página que buscas no existe.");
      return;
    }
    // Deeper than any page or file of the shop: not found, without React Router, whose 404 page
    // lists the routes matching every leading part of the path (its route discovery), a cost
    // that grows with the square of the depth: 4,000 segments took 2 s of this thread.
    if (segmentsOver(path, MOST_SEGMENTS)) {
      refuse(req, res, 404, "La página que buscas no existe.");
      return;
    }
    // Route discovery's own refusals, in the shop's words (React Router matches it undecoded).
    if (parsed === MANIFEST_PATH && !isManifestAsked(req.originalUrl, req.headers.host ?? "")) {
      refuse(req, res, 400, "La solicitud no es válida.");
      return;
    }
    // A request the limits count goes to its address as the shop wrote it. The same address
    // written with escapes (`/mi%2Dpedido`) would reach its route past the limits, which match
    // addresses as written, while React Router matches them decoded.
    // So would its other spellings React Router takes for the same route (`/mi-pedido/`,
    // `/mi-pedido/_.data`, `/MI-PEDIDO`): only the two the shop writes (`/x`, `/x.data`) pass.
    // A page asked for that way (a typed address, an old link) is sent to the shop's spelling;
    // a form or a data request is refused. Only a path not written the shop's way is looked at.
    const routed = routeAddress(path);
    const written =
      parsed === req.path && path === req.path && (path === routed || path === `${routed}.data`);
    const limited = req.method === "POST" ? [...LIMITED_PATHS, ...LIMITED_POSTS] : LIMITED_PATHS;
    if (!written && limited.some((pattern) => pattern.test(routed))) {
      const page =
        (req.method === "GET" || req.method === "HEAD") && path === parsed && !path.endsWith(".data");
      if (page) {
        const query = req.originalUrl.indexOf("?");
        res.redirect(301, `${routed}${query < 0 ? "" : req.originalUrl.slice(query)}`);
        return;
      }
      refuse(req, res, 400, "La dirección no es válida.");
      return;
    }
    if (req.method === "POST" && !OPEN_TO_OTHER_SITES.has(req.path)) {
      // A form or script posted from another site, or from a page that hides where it is ("null":
      // a sandboxed frame, a file, a redirect from elsewhere; never the shop's own pages, and
      // React Router would refuse it in English). Requests that name no origin go on to the
      // routes' own checks (requireAdmin, requireSameOrigin).
      const origin = req.headers.origin;
      const ours = [config.publicUrl, `${req.protocol}://${host}`];
      if (origin && !ours.includes(origin)) {
        refuse(req, res, 403, "Solicitud no permitida: no viene de la tienda.", {
          detail: `Origin: ${origin.slice(0, 100)}`,
        });
        return;
      }
    }
    next();
  };
}

/**
 * The last error handler: what a route or middleware threw. A client's mistake that a library
 * reports (a 4xx `status`, e.g. a body that is not valid JSON) keeps its status with a Spanish
 * message; anything else is the shop's fault: logged whole, answered 500 in Spanish.
 */
export const errorHandler: express.ErrorRequestHandler = (error, req, res, _next) => {
  const status = Number(
    (error as { status?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode,
  );
  if (status >= 400 && status < 500) {
    refuse(
      req,
      res,
      status,
      status === 413 ? "La solicitud es demasiado grande." : "La solicitud no es válida.",
      {
        detail: String((error as Error)?.message ?? "").slice(0, 120),
      },
    );
    return;
  }
  log.error({ err: error }, "Error al atender la solicitud");
  answerServerError(req, res);
};

/** The shop's own 500, in Spanish (JSON or a page, as the request wants), for an error already logged. */
export function answerServerError(req: express.Request, res: express.Response): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(500).set("Cache-Control", "no-store");
  if (wantsJson(req)) res.json({ message: "Algo salió mal. Intenta de nuevo en un momento." });
  else
    res
      .type("html")
      .send(refusalPage(500, "Algo salió mal. Intenta de nuevo en un momento.", res.app.locals.shopName));
}

/** A whole answer written straight to the connection, for requests that never reach Express. */
function rawAnswer(status: number, reason: string, message: string, headers = ""): string {
  const body = JSON.stringify({ message });
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `${headers}Cache-Control: no-store\r\nConnection: close\r\n\r\n` +
    body
  );
}

/**
 * Requests Node's own parser refuses before Express sees them (an unknown method, a malformed
 * request line or header) get a Spanish 400 too, and one log line, instead of a bare answer. So
 * do the two Node answers itself without asking the app: CONNECT (a proxy's method; Node would
 * close the connection without a word) and an `Expect` other than 100-continue (an empty 417).
 */
export function answerParserErrors(server: Server): void {
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    log.warn({ status: 405, method: "CONNECT", url: String(req.url).slice(0, 200) }, "Solicitud rechazada");
    socket.on("error", () => socket.destroy());
    socket.end(rawAnswer(405, "Method Not Allowed", "Método no permitido.", "Allow: GET, HEAD, POST\r\n"));
  });
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    log.warn(
      {
        status: 417,
        method: req.method,
        url: String(req.url).slice(0, 200),
        detail: `Expect: ${String(req.headers.expect).slice(0, 100)}`,
      },
      "Solicitud rechazada",
    );
    const body = JSON.stringify({
      message: "La solicitud pide algo que el servidor no ofrece (encabezado Expect).",
    });
    res.writeHead(417, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
      Connection: "close",
    });
    res.end(body);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    const status = tooLarge ? 431 : 400;
    log.warn({ status, error: error.code ?? error.message }, "Solicitud rechazada por el analizador HTTP");
    socket.end(
      tooLarge
        ? rawAnswer(
            431,
            "Request Header Fields Too Large",
            "Los encabezados de la solicitud son demasiado grandes.",
          )
        : rawAnswer(400, "Bad Request", "La solicitud no es válida."),
    );
  });
}
