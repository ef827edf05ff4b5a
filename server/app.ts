import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";
import express, { type Express } from "express";
import { type Config, loadConfig } from "~/config/env.server";
import { bufferedAccessLog, log, withRequestId } from "~/config/log.server";
import { LOCAL_MEDIA_ROUTE } from "~/media/local-storage.server";
import { MAX_UPLOAD_BODY_BYTES } from "~/media/multipart.server";
import { tooLargeMessage } from "~/media/upload-failures.server";
import { type AnswerKind, recordStoredPageServed } from "~/observability/metrics.server";
import { startServices } from "~/services.server";
import { isAdminPath, PATHS } from "~/web/paths";
import { anonymousContext, requestContext } from "~/web/request-context.server";
import type { Services } from "~/web/services";
import { answerTimes, markArrival, timeFastAnswer } from "./answer-times";
import { hitHeaders } from "./cached-headers";
import { createCheckoutFastPath } from "./checkout-fast-path";
import { drainAfterAnswer, edgeGuards, errorHandler, refuse } from "./edge";
import { edgeRoutes, healthCheck } from "./edge-routes";
import { clientAddress, createFastPath, type FastPath } from "./fast-path";
import { headerBlock } from "./header-block";
import { metricsEndpoint } from "./metrics-route";
import { listeningOrigin, originOf } from "./origins";
import { type CachedPage, type Encoding, type HitHead, PageCache, type RenderReason } from "./page-cache";
import { pageCacheMiddleware } from "./page-cache-middleware";
import { createPageRenderer, type PageRenderer } from "./page-renderer";
import { createRequestHandler } from "./request-handler";
import { requestBrowser } from "./request-limits";
import { shopPages } from "./router-build";
import { securityHeaders } from "./security-headers";
import { builtAssets, localMedia, notFound } from "./static-files";

/** The shop's log, for server.js's own lines. */
export { log } from "~/config/log.server";
export { answerParserErrors } from "./edge";
export { runRenderWorker } from "./render-worker";

const MAX_BODY_BYTES = 256 * 1024;
/** The endpoint that takes files (route `routes/admin/media.ts`). */
const UPLOAD_PATH = PATHS.adminMedia;
/**
 * How much of a body answered before its end is still read and thrown away (drainAfterAnswer):
 * more for uploads, where a browser is mid-way through a large file and must see the answer.
 */
const DRAIN_BYTES = 1024 * 1024;
const DRAIN_MS = 2_000;
const UPLOAD_DRAIN_BYTES = 32 * 1024 * 1024;
const UPLOAD_DRAIN_MS = 5_000;

export interface ShopOptions {
  /** The built browser assets (build/client). Omitted in development, where Vite serves them. */
  clientDir?: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /**
   * The built server module's address (build/server/index.js, which exports `runRenderWorker`):
   * busy pages are then rendered on a thread of their own (server/page-renderer.ts). Without it
   * (development, tests that build the shop in their own process) every render runs in line.
   */
  renderWorkerEntry?: string;
}

export interface Shop {
  /** The Express app, reached through `serve` (which gives each request its id). */
  app: Express;
  config: Config;
  services: Services;
  /**
   * Every request's way in. It gives the request its id (X-Request-Id: the client's or a load
   * balancer's when it looks sane, else a new one), answered in the `X-Request-Id` header and
   * carried by every log line written while handling it; with LOG_REQUESTS, one access line when
   * it ends. Then it answers a fresh page-cache hit (server/fast-path.ts) or a checkout of pieces
   * that are gone (server/checkout-fast-path.ts) before Express sees the request, or hands it to
   * `express` (`app`, behind server.js' own wrapper); a checkout taken but not answered there goes
   * on to `express` with its body already read. `extraHeaders` (name, value, …) are added to a
   * front door's answer, as server.js adds them to every answer.
   */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    extraHeaders: readonly string[],
    express: () => void,
  ): void;
  /**
   * Renders the home once, unseen, so the first visitors of a new process do not pay for its start,
   * and starts the render thread (PAGE_RENDER_THREAD), ready before the server listens.
   */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** Reads the configuration, opens the database (migrating it) and builds the HTTP app. */
export async function createShop(options: ShopOptions = {}): Promise<Shop> {
  const config = loadConfig(options.env);
  log.level = config.logLevel;
  const services = await startServices(config, options.log);
  const { app, serve, warmUp, stopRendering } = buildApp(services, options);
  const close = async () => {
    await stopRendering();
    await services.stop();
  };
  return { app, config, services, serve, warmUp, close };
}

/** An X-Request-Id taken as it comes: short, and only characters that need no escaping anywhere. */
const SANE_REQUEST_ID = /^[\w.:@-]{1,64}$/;

function buildApp(
  services: Services,
  options: ShopOptions,
): { app: Express; serve: Shop["serve"]; warmUp(): Promise<void>; stopRendering(): Promise<void> } {
  const { config } = services;
  const { clientDir } = options;
  const app = express();
  app.disable("x-powered-by");
  app.locals.shopName = services.settings.current().shop.name;
  services.settings.onChange((settings) => {
    app.locals.shopName = settings.shop.name;
  });
  // Behind one load balancer that terminates TLS: X-Forwarded-Proto tells us the request was HTTPS,
  // and only the last X-Forwarded-For hop (the one it added) is believed.
  if (config.trustProxy) app.set("trust proxy", 1);

  const access = config.logRequests ? accessLog(config.trustProxy, config.logBufferBytes) : undefined;
  // How long each answer takes, for the shop's metrics (app/observability).
  app.use(answerTimes);
  // The front doors' answers: timed, and logged like the rest (LOG_REQUESTS).
  const fastAnswer = (kind: AnswerKind) => (req: IncomingMessage, res: ServerResponse, bytes: number) => {
    timeFastAnswer(req, kind);
    access?.answered(req, res, bytes);
  };
  // Pages from the page cache are already compressed (gzip and brotli, once when stored).
  const compress = compression({
    filter: (req, res) => !res.locals.fromPageCache && compression.filter(req, res),
  });
  // A checkout's answer is a few bytes of JSON: on drop day, wrapping each one for compression
  // costs more than it could save.
  app.use((req, res, next) => (req.path === "/api/checkout" ? next() : compress(req, res, next)));
  app.use(
    drainAfterAnswer((req) =>
      req.path === UPLOAD_PATH
        ? { bytes: UPLOAD_DRAIN_BYTES, ms: UPLOAD_DRAIN_MS }
        : { bytes: DRAIN_BYTES, ms: DRAIN_MS },
    ),
  );
  app.use(edgeGuards(config));
  // A body is refused unread when its declared length is past its cap; one sent without a length
  // (chunked) is counted as it arrives (server/request-handler.ts). The media upload streams its
  // body and counts each kind's limit itself (app/media/multipart.server.ts).
  app.use((req, res, next) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (req.method === "POST" && req.path === UPLOAD_PATH) {
      if (declared > MAX_UPLOAD_BODY_BYTES) {
        refuse(req, res, 413, tooLargeMessage(null));
        return;
      }
      next();
      return;
    }
    if (declared > MAX_BODY_BYTES) {
      refuse(req, res, 413, "La solicitud es demasiado grande.");
      return;
    }
    next();
  });
  const security = securityHeaders(config, {
    development: clientDir === undefined,
    videoUrl: services.settings.current().shop.processVideoUrl,
  });
  // Before the page cache's listener below, which reads the new headers.
  services.settings.onChange((settings) => security.setVideoUrl(settings.shop.processVideoUrl));
  app.use(security.middleware);

  app.get(PATHS.health, healthCheck(services));
  app.get(PATHS.metrics, metricsEndpoint(config.metricsToken));

  if (services.media.kind === "local") app.use(LOCAL_MEDIA_ROUTE, localMedia(config.mediaDir));
  else app.use(LOCAL_MEDIA_ROUTE, notFound);

  if (clientDir) app.use(builtAssets(clientDir));

  const shopOrigin = (req: express.Request) => {
    if (req.socket.localPort) app.locals.listenPort ??= req.socket.localPort;
    return config.publicUrl ?? listeningOrigin(req, config.host);
  };

  app.use(edgeRoutes(services, shopOrigin, MAX_BODY_BYTES));

  const fetchPage = shopPages(config.publicUrl, config.env === "production" ? "production" : "development");

  let pageFastPath: FastPath = () => false;
  let renderer: PageRenderer | undefined;
  // Anonymous public pages from a 1-second shared cache (decision 12). Not in development, where
  // Vite's hot reload changes pages under it.
  if (clientDir) {
    // Remade when Configuración changes (the CSP names the process video's host).
    let plain = security.headers(false);
    let secure = security.headers(true);
    const encodings: Encoding[] = ["br", "gzip", "identity"];
    const wire = (page: CachedPage, list: [string, string][]) =>
      Object.fromEntries(encodings.map((e) => [e, hitHeaders(page, list, e)])) as Record<Encoding, HitHead>;
    // Busy pages are rendered on a thread of their own (server/page-renderer.ts).
    const pages = createPageRenderer({
      entry: config.pageRenderThread ? options.renderWorkerEntry : undefined,
      env: options.env,
      here: (url, origin) =>
        fetchPage(new Request(url, { method: "GET" }), anonymousContext(services, origin)),
    });
    renderer = pages;
    // A page for the cache. Nothing of the visitor goes in: no cookies, no address, no nonce; only
    // the address. The origin only: routes are matched from the root whatever path PUBLIC_URL has.
    const renderStored = (pathAndQuery: string, origin: string, reason: RenderReason) =>
      pages.render(`${new URL(origin).origin}${pathAndQuery}`, origin, reason);
    const cache = new PageCache({
      // A hit's whole header list, made once per stored page for the front door.
      prepare(page) {
        page.wire = { plain: wire(page, plain), secure: wire(page, secure) };
      },
    });
    pageFastPath = createFastPath({
      cache,
      publicUrl: config.publicUrl,
      trustProxy: config.trustProxy,
      listeningOrigin: (protocol, port) =>
        originOf(protocol, config.host, port ?? (app.locals.listenPort as number | undefined)),
      render: renderStored,
      answered(req, res, bytes) {
        recordStoredPageServed();
        access?.hit(req, res, bytes);
      },
    });
    // Configuración saved here or on another server (seen by its poll): pages stored before it
    // would show the old details, and their headers the old CSP; the render thread reads it too.
    services.settings.onChange(() => {
      plain = security.headers(false);
      secure = security.headers(true);
      renderer?.settingsChanged(services.settings.version());
      cache.clear();
    });
    // An admin change shows at once on this server: a successful admin post clears the cache
    // before its answer leaves (other servers catch up within the cache's 1 s).
    app.use((req, res, next) => {
      if (req.method === "POST" && isAdminPath(req.path)) clearWhenSucceeded(res, () => cache.clear());
      next();
    });
    app.use(
      pageCacheMiddleware({
        cache,
        scope: shopOrigin,
        render: (pathAndQuery, req, reason) => renderStored(pathAndQuery, shopOrigin(req), reason),
      }),
    );
  }

  app.all(
    "/{*splat}",
    createRequestHandler({
      fetch: fetchPage,
      maxBodyBytes: MAX_BODY_BYTES,
      streamedPaths: [UPLOAD_PATH],
      getLoadContext(req, res) {
        const refusal = res.locals.limitRefusal;
        return requestContext(services, {
          clientAddress: req.ip ?? req.socket.remoteAddress ?? "desconocida",
          browserId: requestBrowser(services.browserCookies, req, res),
          nonce: String(res.locals.cspNonce ?? ""),
          origin: shopOrigin(req),
          limitRefusal: typeof refusal === "number" ? refusal : null,
        });
      },
    }),
  );
  // Nothing above took it (the bridge takes every path the edge lets through): never Express'
  // own English "Cannot GET".
  app.use((req, res) => refuse(req, res, 404, "Página no encontrada.", { quiet: true }));
  app.use(errorHandler);

  // A new process renders its first page slowly (the server build is imported and compiled on
  // first use, nothing is optimised yet): a worker that joins a cluster under load would make the
  // visitors it is handed wait for that. Rendered like a cached page (nothing of any visitor) and
  // thrown away; a failure here is left for the first real request to show.
  async function warmUp(): Promise<void> {
    if (!clientDir) return;
    const origin = config.publicUrl ?? "http://localhost";
    try {
      const response = await fetchPage(
        new Request(`${new URL(origin).origin}/`),
        anonymousContext(services, origin),
      );
      await response.arrayBuffer();
    } catch {}
    // The render thread, ready before the first visitor (PAGE_RENDER_THREAD; decision 12).
    await renderer?.start();
  }
  // The answer's headers, remade when Configuración changes (the CSP names the video's host).
  const checkoutHead = (secure: boolean) =>
    headerBlock([
      ...security.headers(secure).flat(),
      "Content-Type",
      "application/json",
      "Cache-Control",
      "no-store",
    ]);
  const checkoutHeaders = { plain: checkoutHead(false), secure: checkoutHead(true) };
  services.settings.onChange(() => {
    checkoutHeaders.plain = checkoutHead(false);
    checkoutHeaders.secure = checkoutHead(true);
  });
  const checkoutFastPath = createCheckoutFastPath({
    services,
    maxBodyBytes: MAX_BODY_BYTES,
    trustProxy: config.trustProxy,
    headers: checkoutHeaders,
    shopOrigin: (protocol, port) =>
      config.publicUrl ??
      originOf(protocol, config.host, port ?? (app.locals.listenPort as number | undefined)),
    log: fastAnswer("checkout"),
  });
  const serve: Shop["serve"] = (req, res, extraHeaders, toExpress) => {
    // A stored page is answered first, with nothing of its own request beyond the answer: no id
    // unless an access line carries it (LOG_REQUESTS), no log context, no timing (it is counted).
    // On drop day nearly every request is one, and each of those cost it a tenth of its answers a
    // second (decision 12).
    if (!access && pageFastPath(req, res, extraHeaders)) return;
    const arrived = performance.now();
    const asked = req.headers["x-request-id"];
    const id = typeof asked === "string" && SANE_REQUEST_ID.test(asked) ? asked : randomUUID();
    const headers = ["X-Request-Id", id];
    for (const header of extraHeaders) headers.push(header);
    if (access) {
      access.arrived(res, id, arrived);
      if (pageFastPath(req, res, headers)) return;
      access.begin(req, res);
    }
    markArrival(req, arrived);
    withRequestId(id, () => {
      const viaExpress = () => {
        res.setHeader("X-Request-Id", id);
        toExpress();
      };
      if (checkoutFastPath(req, res, headers, viaExpress)) return;
      viaExpress();
    });
  };
  return { app, serve, warmUp, stopRendering: async () => renderer?.close() };
}

/**
 * LOG_REQUESTS: one line per request as it ends, from either path, e.g.
 *   {"level":"info",…,"reqId":"…","method":"GET","path":"/nosotros","status":200,"bytes":5120,
 *    "ms":1.8,"address":"203.0.113.7","msg":"Solicitud"}
 * `path` leaves out the query (it may hold a signed link's token); `bytes` is the answer's
 * declared length (absent when streamed); `ms` runs from its arrival to its last byte handed to
 * the connection; `aborted` says the client left first. `address` is Express' `req.ip` (with
 * TRUST_PROXY, the last X-Forwarded-For hop), computed without Express for the front doors.
 * A stored page's answer is written whole at once by the front door: its line is written right
 * after (`hit`), with no listener on the answer. Every other answer's is written when the answer
 * closes (`begin`).
 */
function accessLog(trustProxy: boolean, bufferBytes: number) {
  const write = bufferedAccessLog(bufferBytes);
  // Set on the response as the request arrives (`arrived`), read when its line is written; and the
  // length of a front door's answer, whose header list is written whole, not with setHeader.
  // (Properties of the response, not WeakMaps: one per request, on drop day tens of thousands a second.)
  const ID = Symbol("request id");
  const STARTED = Symbol("arrived at");
  const LENGTH = Symbol("answered length");
  type Answered = ServerResponse & { [ID]?: string; [STARTED]?: number; [LENGTH]?: number };
  const line = (
    req: IncomingMessage,
    res: Answered,
    url: string,
    bytes: number | undefined,
    aborted: boolean,
  ) => {
    const query = url.indexOf("?");
    write({
      reqId: res[ID] ?? "",
      method: req.method,
      path: (query < 0 ? url : url.slice(0, query)).slice(0, 200),
      status: res.statusCode,
      bytes,
      ms: Math.round((performance.now() - (res[STARTED] ?? 0)) * 10) / 10,
      address: clientAddress(req, trustProxy),
      aborted,
    });
  };
  return {
    /** The request's id and arrival, for its line. */
    arrived(res: ServerResponse, reqId: string, started: number): void {
      (res as Answered)[ID] = reqId;
      (res as Answered)[STARTED] = started;
    },
    /** An answer written by Express or the checkout's front door: logged as it closes. */
    begin(req: IncomingMessage, res: ServerResponse): void {
      // As it arrived: Express rewrites req.url under a mounted path (/media).
      const url = req.url ?? "";
      res.once("close", () => {
        const declared = (res as Answered)[LENGTH] ?? res.getHeader("content-length");
        line(req, res, url, declared === undefined ? undefined : Number(declared), !res.writableFinished);
      });
    },
    /** The checkout's front door tells its answer's length before writing it. */
    answered(_req: IncomingMessage, res: ServerResponse, bytes: number): void {
      (res as Answered)[LENGTH] = bytes;
    },
    /** A stored page, just handed whole to the connection (or to nobody: the client had left). */
    hit(req: IncomingMessage, res: ServerResponse, bytes: number): void {
      line(req, res, req.url ?? "", bytes, res.destroyed);
    },
  };
}

/** Runs `clear` as the answer's status is written, when it is a success (< 400). */
function clearWhenSucceeded(res: express.Response, clear: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
    if (!this.headersSent && args[0] < 400) clear();
    return writeHead.apply(this, args);
  } as typeof writeHead;
}
