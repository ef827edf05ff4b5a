import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type express from "express";
import {
  createRequestHandler as createReactRouterHandler,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { answerServerError, refuse, requestPath } from "./edge";

/**
 * The bridge from Express to React Router. It replaces @react-router/express (decision 10) for
 * two reasons: the request body is counted as it arrives, so a body past its cap is refused with
 * a Spanish 413 however it is sent (with or without Content-Length) and never buffered; and the
 * Request's address is built from a Host header already checked (server/edge.ts), so a broken one
 * cannot make the adapter throw.
 */
/** React Router's own handler, created once on first use: a Request in, a Response out. */
export type RouterFetch = (request: Request, context: RouterContextProvider) => Promise<Response>;

export function routerFetch(
  build: () => Promise<ServerBuild>,
  mode: "production" | "development",
): RouterFetch {
  let handle: ReturnType<typeof createReactRouterHandler> | undefined;
  return async (request, context) => {
    handle ??= createReactRouterHandler(await build(), mode);
    return handle(request, context);
  };
}

export interface HandlerOptions {
  fetch: RouterFetch;
  getLoadContext(req: express.Request, res: express.Response): RouterContextProvider;
  /** Bodies of every route are read whole, up to this many bytes. */
  maxBodyBytes: number;
  /** Routes that stream their body and count its bytes themselves (the media upload). */
  streamedPaths: string[];
}

export function createRequestHandler(options: HandlerOptions): express.RequestHandler {
  return async (req, res, next) => {
    try {
      const controller = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      let body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> | undefined;
      if (req.method !== "GET" && req.method !== "HEAD") {
        if (options.streamedPaths.includes(req.path)) {
          body = createReadableStreamFromReadable(req);
        } else {
          const read = await readBody(req, options.maxBodyBytes);
          if (read === "too-large") {
            refuse(req, res, 413, "La solicitud es demasiado grande.");
            return;
          }
          if (read === "aborted") return;
          body = new Uint8Array(read);
        }
      }
      const request = new Request(requestUrl(req), {
        method: req.method,
        headers: toHeaders(req.headers),
        body,
        signal: controller.signal,
        // Required by Node's fetch for a streamed body.
        ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
      } as RequestInit);
      const response = await options.fetch(request, options.getLoadContext(req, res));
      // A resource route's error (a CSV, an upload, the sitemap) is answered by React Router in
      // English plain text; the shop answers it in Spanish (handleError has logged it).
      if (await isLastResortError(response)) {
        answerServerError(req, res);
        return;
      }
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** React Router's own answer to an error no route handled: a 500 of plain "Unexpected Server Error". */
async function isLastResortError(response: Response): Promise<boolean> {
  if (response.status !== 500 || !response.headers.get("content-type")?.startsWith("text/plain"))
    return false;
  const text = await response.clone().text();
  if (text !== "Unexpected Server Error") return false;
  await response.body?.cancel();
  return true;
}

/** A body already read before Express (server/checkout-fast-path.ts), for `readBody` to hand on. */
const READ_BEFORE = Symbol("body read before Express");

export function keepReadBody(req: IncomingMessage, body: Buffer): void {
  (req as IncomingMessage & { [READ_BEFORE]?: Buffer })[READ_BEFORE] = body;
}

/** The body the front door already read, if it did. */
export function keptBody(req: IncomingMessage): Buffer | undefined {
  return (req as IncomingMessage & { [READ_BEFORE]?: Buffer })[READ_BEFORE];
}

/** Reads a body into memory up to `max` bytes; past that it stops reading (the rest is drained by the edge). */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | "too-large" | "aborted"> {
  const before = (req as IncomingMessage & { [READ_BEFORE]?: Buffer })[READ_BEFORE];
  if (before !== undefined) return Promise.resolve(before.length > max ? "too-large" : before);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: Buffer | "too-large" | "aborted") => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onAbort);
      req.off("close", onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.pause();
        done("too-large");
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks));
    const onAbort = () => done("aborted");
    const onClose = () => {
      if (!req.complete) done("aborted");
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onAbort);
    req.on("close", onClose);
  });
}

function requestUrl(req: express.Request): string {
  // The Host header and the address were checked at the edge; an HTTP/1.0 request may have no Host.
  const local = req.socket.localAddress ?? "localhost";
  // An IPv6 address (a server listening on `::`) goes in brackets, as in any address.
  const host =
    req.headers.host || `${local.includes(":") ? `[${local}]` : local}:${req.socket.localPort ?? ""}`;
  return `${req.protocol}://${host}${requestPath(req.originalUrl) ?? "/"}`;
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  return headers;
}

async function sendResponse(res: express.Response, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (!response.body) {
    res.end();
    return;
  }
  // A JSON answer (the /api routes) is whole at once: sent with its length, so the compression
  // middleware leaves small ones alone (below its 1 kB threshold) instead of starting a gzip
  // stream for a 60-byte refusal, a tenth of a checkout's cost on drop day.
  if ((response.headers.get("content-type") ?? "").startsWith("application/json")) {
    const body = Buffer.from(await response.arrayBuffer());
    if (res.destroyed || res.writableEnded) return;
    res.setHeader("Content-Length", String(body.length));
    res.end(body);
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
