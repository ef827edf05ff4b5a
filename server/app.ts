import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";
import express, { type Express } from "express";
import morgan from "morgan";
import type { ServerBuild } from "react-router";
import { type Config, loadConfig } from "~/config/env.server";
import { LOCAL_MEDIA_ROUTE } from "~/media/local-storage.server";
import { MAX_UPLOAD_BODY_BYTES } from "~/media/multipart.server";
import { tooLargeMessage } from "~/media/upload-failures.server";
import { startServices } from "~/services.server";
import { isAdminPath, PATHS } from "~/web/paths";
import { anonymousContext, requestContext } from "~/web/request-context.server";
import type { Services } from "~/web/services";
import { hitHeaders } from "./cached-headers";
import { type CheckoutFastPath, createCheckoutFastPath } from "./checkout-fast-path";
import { drainAfterAnswer, edgeGuards, errorHandler, refuse } from "./edge";
import { edgeRoutes, healthCheck } from "./edge-routes";
import { createFastPath, type FastPath } from "./fast-path";
import { listeningOrigin, originOf } from "./origins";
import { type CachedPage, type Encoding, PageCache } from "./page-cache";
import { pageCacheMiddleware } from "./page-cache-middleware";
import { createRequestHandler, routerFetch } from "./request-handler";
import { requestBrowser } from "./request-limits";
import { securityHeaders } from "./security-headers";
import { builtAssets, localMedia, notFound } from "./static-files";

export type ShopFastPath = CheckoutFastPath;

export { answerParserErrors } from "./edge";

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
}

export interface Shop {
  app: Express;
  config: Config;
  services: Services;
  /**
   * Answers a fresh page-cache hit (server/fast-path.ts) or a checkout of pieces that are gone
   * (server/checkout-fast-path.ts) before Express sees the request; false when it did not take
   * the request, which goes to `app`. A checkout it took and does not answer goes on to `next`
   * (Express) with its body already read. `extraHeaders` (name, value, …) are added to its
   * answer, as server.js adds them to every answer.
   */
  fastPath: ShopFastPath;
  /** Renders the home once, unseen, so the first visitors of a new process do not pay for its start. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** Reads the configuration, opens the database (migrating it) and builds the HTTP app. */
export async function createShop(options: ShopOptions = {}): Promise<Shop> {
  const config = loadConfig(options.env);
  const services = await startServices(config, options.log);
  const { app, fastPath, warmUp } = buildApp(services, options.clientDir);
  return { app, config, services, fastPath, warmUp, close: () => services.stop() };
}

/** What morgan writes per request (LOG_REQUESTS), on either path. */
const LOG_FORMAT = ":remote-addr :method :url :status :res[content-length] - :response-time ms";

function buildApp(
  services: Services,
  clientDir: string | undefined,
): { app: Express; fastPath: ShopFastPath; warmUp(): Promise<void> } {
  const { config } = services;
  const app = express();
  app.disable("x-powered-by");
  app.locals.shopName = services.settings.current().shop.name;
  services.settings.onChange((settings) => {
    app.locals.shopName = settings.shop.name;
  });
  // Behind one load balancer that terminates TLS: X-Forwarded-Proto tells us the request was HTTPS,
  // and only the last X-Forwarded-For hop (the one it added) is believed.
  if (config.trustProxy) app.set("trust proxy", 1);

  const logger = config.logRequests ? morgan(LOG_FORMAT) : undefined;
  if (logger) app.use(logger);
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

  if (services.media.kind === "local") app.use(LOCAL_MEDIA_ROUTE, localMedia(config.mediaDir));
  else app.use(LOCAL_MEDIA_ROUTE, notFound);

  if (clientDir) app.use(builtAssets(clientDir));

  const shopOrigin = (req: express.Request) => {
    if (req.socket.localPort) app.locals.listenPort ??= req.socket.localPort;
    return config.publicUrl ?? listeningOrigin(req, config.host);
  };

  app.use(edgeRoutes(services, shopOrigin, MAX_BODY_BYTES));

  const fetchPage = routerFetch(
    async () =>
      withPublicOrigin((await import("virtual:react-router/server-build")) as ServerBuild, config.publicUrl),
    config.env === "production" ? "production" : "development",
  );

  let pageFastPath: FastPath = () => false;
  // Anonymous public pages from a 1-second shared cache (decision 12). Not in development, where
  // Vite's hot reload changes pages under it.
  if (clientDir) {
    // Remade when Configuración changes (the CSP names the process video's host).
    let plain = security.headers(false);
    let secure = security.headers(true);
    const encodings: Encoding[] = ["br", "gzip", "identity"];
    const wire = (page: CachedPage, list: [string, string][]) =>
      Object.fromEntries(encodings.map((e) => [e, hitHeaders(page, list, e)])) as Record<Encoding, string[]>;
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
      log: logger && ((req, res) => logFastAnswer(app, logger, req, res)),
    });
    // Configuración saved here or on another server (seen by its poll): pages stored before it
    // would show the old details, and their headers the old CSP.
    services.settings.onChange(() => {
      plain = security.headers(false);
      secure = security.headers(true);
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
        render(pathAndQuery, req) {
          // Nothing of the visitor goes in: no cookies, no address, no nonce; only the address.
          // The origin only: routes are matched from the root whatever path PUBLIC_URL has.
          const request = new Request(`${new URL(shopOrigin(req)).origin}${pathAndQuery}`, { method: "GET" });
          return fetchPage(request, anonymousContext(services, shopOrigin(req)));
        },
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
  }
  // The answer's headers, remade when Configuración changes (the CSP names the video's host).
  const checkoutHeaders = { plain: security.headers(false).flat(), secure: security.headers(true).flat() };
  services.settings.onChange(() => {
    checkoutHeaders.plain = security.headers(false).flat();
    checkoutHeaders.secure = security.headers(true).flat();
  });
  const checkoutFastPath = createCheckoutFastPath({
    services,
    maxBodyBytes: MAX_BODY_BYTES,
    trustProxy: config.trustProxy,
    headers: checkoutHeaders,
    log: logger && ((req, res) => logFastAnswer(app, logger, req, res)),
  });
  const fastPath: ShopFastPath = (req, res, extraHeaders, next) =>
    pageFastPath(req, res, extraHeaders) || checkoutFastPath(req, res, extraHeaders, next);
  return { app, fastPath, warmUp };
}

/**
 * A front-door answer logged by the same morgan middleware, on a request given Express' request
 * prototype as Express itself does, so `:remote-addr` is `req.ip` (trust proxy included).
 */
function logFastAnswer(
  app: Express,
  logger: express.RequestHandler,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  Object.setPrototypeOf(req, app.request);
  logger(req as express.Request, res as express.Response, () => {});
}

/**
 * React Router refuses a post whose Origin is not the Host header's address, with a bare English
 * "Bad Request". Behind a proxy that sends its own Host (nginx's default) or terminates HTTPS, the
 * shop's pages post from PUBLIC_URL, which the edge has already accepted (edgeGuards): React
 * Router is told that address too, or no form (sign-in included) could ever be sent.
 */
function withPublicOrigin(build: ServerBuild, publicUrl: string | undefined): ServerBuild {
  if (!publicUrl) return build;
  return { ...build, allowedActionOrigins: [...(build.allowedActionOrigins || []), new URL(publicUrl).host] };
}

/** Runs `clear` as the answer's status is written, when it is a success (< 400). */
function clearWhenSucceeded(res: express.Response, clear: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
    if (!this.headersSent && args[0] < 400) clear();
    return writeHead.apply(this, args);
  } as typeof writeHead;
}
