import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { cacheKey, hasAdminSession } from "./cacheable-pages";
import { chooseEncoding } from "./cached-headers";
import { isValidHost } from "./edge";
import { writeBlockHead } from "./header-block";
import type { CachedPage, PageCache, RenderReason } from "./page-cache";

/*
 * The front door for page-cache hits (decision 12): a request that the Express app would answer
 * from a fresh stored page is answered here, before Express, with the header block the entry
 * precomputed (`CachedPage.wire`). On drop day nearly every request is such a hit, and the
 * middleware stack (edge checks, helmet, a random nonce, routing) cost far more than the answer.
 *
 * It only answers what the full path would answer identically; anything else (a miss, an unusual
 * request, anything the edge might refuse) returns false and goes to Express unchanged.
 */

export type FastPath = (
  req: IncomingMessage,
  res: ServerResponse,
  extraHeaders?: readonly string[],
) => boolean;

export interface FastPathOptions {
  cache: PageCache;
  /** PUBLIC_URL, when set: the cache's scope for every request. */
  publicUrl: string | undefined;
  trustProxy: boolean;
  /** The shop's origin from the protocol and listening port when PUBLIC_URL is not set. */
  listeningOrigin(protocol: string, port: number | undefined): string;
  /**
   * Renders a page for the cache as the full path does (its path and query, the shop's origin):
   * a stored page due for its refresh is renewed from here, in the background, while it is
   * still served (decision 12), so no request has to take the slow path to start that.
   */
  render(pathAndQuery: string, origin: string, reason: RenderReason): Promise<Response>;
  /** Told of every answer given, once written (counted; LOG_REQUESTS logs it with its length). */
  answered?: (req: IncomingMessage, res: ServerResponse, bytes: number) => void;
}

/**
 * A request target the edge lets through and Express reads exactly as written: origin-form,
 * visible ASCII only, nothing percent-encoded (so decoding changes nothing) and no fragment.
 */
const PLAIN_TARGET = /^\/[!"$&'()*+,\-./0-9:;<=>?@A-Z[\]^_`a-z{|}~]*$/;

/**
 * req.protocol as Express computes it (trust proxy: the first X-Forwarded-Proto), or null for
 * anything but a plain http or https: the front doors leave those to Express.
 */
/** req.ip as Express gives it with `trust proxy` unset or 1 (the one hop the proxy added). */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? req.headers["x-forwarded-for"] : undefined;
  if (typeof forwarded === "string" && forwarded !== "") {
    const last = forwarded.slice(forwarded.lastIndexOf(",") + 1).trim();
    if (last !== "") return last;
  }
  return req.socket.remoteAddress;
}

export function requestProtocol(req: IncomingMessage, trustProxy: boolean): "http" | "https" | null {
  const encrypted = (req.socket as TLSSocket).encrypted ? "https" : "http";
  if (!trustProxy) return encrypted;
  const forwarded = req.headers["x-forwarded-proto"];
  if (forwarded === undefined) return encrypted;
  return forwarded === "http" || forwarded === "https" ? forwarded : null;
}

export function createFastPath(options: FastPathOptions): FastPath {
  const { cache, publicUrl, trustProxy, render } = options;
  // Hosts already checked: the same one or two arrive on every request.
  const validHosts = new Set<string>();
  // The origin for a protocol and local port, made once: the same one or two on every request.
  const origins = new Map<string, string>();
  const listeningOrigin = (protocol: "http" | "https", port: number | undefined): string => {
    if (port === undefined) return options.listeningOrigin(protocol, port);
    const key = `${protocol}${port}`;
    let origin = origins.get(key);
    if (origin === undefined) {
      origin = options.listeningOrigin(protocol, port);
      if (origins.size >= 16) origins.clear();
      origins.set(key, origin);
    }
    return origin;
  };

  return (req, res, extraHeaders) => {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url ?? "";
    if (!PLAIN_TARGET.test(url)) return false;
    const headers = req.headers;
    // A body (the size checks, draining it) or an Expect: the full path deals with those.
    if (
      headers["content-length"] !== undefined ||
      headers["transfer-encoding"] !== undefined ||
      headers.expect !== undefined
    )
      return false;
    const host = headers.host;
    if (host === undefined) return false;
    if (!validHosts.has(host)) {
      if (!isValidHost(host)) return false;
      if (validHosts.size >= 64) validHosts.clear();
      validHosts.add(host);
    }
    if (hasAdminSession(headers.cookie)) return false;

    const protocol = requestProtocol(req, trustProxy);
    if (protocol === null) return false;
    const scope = publicUrl ?? listeningOrigin(protocol, req.socket.localPort);
    // Only the cache middleware stores entries, and only for cacheable paths: a stored entry for
    // this exact key means the path is one.
    const path = cacheKey(url);
    const page: CachedPage | undefined = cache.peek(`${scope} ${path}`, (reason) =>
      render(path, scope, reason),
    );
    const wire = page?.wire;
    if (page === undefined || wire === undefined) return false;

    const encoding = chooseEncoding(headers["accept-encoding"]);
    const body = page.bodies[encoding];
    const head = wire[protocol === "https" ? "secure" : "plain"][encoding];
    writeBlockHead(
      res,
      page.status,
      head.block,
      extraHeaders?.length ? head.framing.concat(extraHeaders) : head.framing,
    );
    if (method === "HEAD") res.end();
    else res.end(body);
    options.answered?.(req, res, body.length);
    return true;
  };
}
