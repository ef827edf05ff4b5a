import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import express, { type Express } from "express";
import helmet from "helmet";
import morgan from "morgan";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { busyPage } from "~/auth/login-busy";
import { logLoginRefusal } from "~/auth/login-log.server";
import { type Config, loadConfig } from "~/config/env.server";
import { limitRefusalContext } from "~/http/limit-refusal";
import { isAdminPath } from "~/lib/admin-path";
import { browserIdContext, clientAddressContext } from "~/lib/client-address";
import { cspNonceContext, wholeDocumentContext } from "~/lib/nonce";
import { shopOriginContext } from "~/lib/origin.server";
import { LOCAL_MEDIA_ROUTE } from "~/media/local-storage.server";
import { MAX_UPLOAD_BODY_BYTES } from "~/media/multipart.server";
import { tooLargeMessage } from "~/media/upload-failures.server";
import { type Services, servicesContext, startServices } from "~/services.server";
import { checkoutEndpoint } from "./checkout-endpoint";
import { type CheckoutFastPath, createCheckoutFastPath } from "./checkout-fast-path";
import { drainAfterAnswer, edgeGuards, errorHandler, refuse } from "./edge";
import { createFastPath, type FastPath } from "./fast-path";

export type ShopFastPath = CheckoutFastPath;

import { type CachedPage, type Encoding, hitHeaders, PageCache, pageCacheMiddleware } from "./page-cache";
import { createRequestHandler, routerFetch } from "./request-handler";
import {
  countRequests,
  issueBrowserCookie,
  limitRequests,
  requestBrowser,
  requireProofOfWork,
  serveChallenge,
} from "./request-limits";

export { answerParserErrors } from "./edge";

const MAX_BODY_BYTES = 256 * 1024;
/**
 * 'Avísame' sign-ups: the form on an upcoming drop's page and its product pages posts to the page
 * itself (React Router's data requests end in .data). Those pages take no other post.
 */
const WAITLIST_SIGN_UPS = [/^\/coleccion\/[^/]+?(?:\.data)?$/, /^\/drop\/[^/]+\/product\/[^/]+?(?:\.data)?$/];
/** The endpoint that takes files (route `routes/admin/media.ts`). */
const UPLOAD_PATH = "/admin/media";
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

  app.get("/healthz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    try {
      await services.database.ping();
      // Nothing beyond ok/error: which database runs where is nobody else's business.
      res.json({ status: "ok" });
    } catch {
      res.status(503).json({ status: "error" });
    }
  });

  if (services.media.kind === "local") app.use(LOCAL_MEDIA_ROUTE, localMedia(config.mediaDir));
  else app.use(LOCAL_MEDIA_ROUTE, notFound);

  if (clientDir) {
    // Vite puts a content hash in every file name under /assets.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
      notFound,
    );
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }

  const shopOrigin = (req: express.Request) => {
    if (req.socket.localPort) app.locals.listenPort ??= req.socket.localPort;
    return config.publicUrl ?? listeningOrigin(req, config.host);
  };

  // The server's clock for pages that open and close a drop on their own (decision 17): never
  // cached, no cookie, no database, so a drop-day crowd costs next to nothing here.
  app.get("/api/hora", (_req, res) => {
    res.set("Cache-Control", "no-store");
    res.json({ ahora: Date.now() });
  });

  // Drop-day limits, per browser first and per address second (app/limits).
  app.use("/api", issueBrowserCookie);
  app.post(
    "/api/checkout",
    limitRequests(services.limits, "checkout"),
    requireProofOfWork(services.proofOfWork),
    checkoutEndpoint(services, shopOrigin, MAX_BODY_BYTES),
  );
  app.get("/api/reto", limitRequests(services.limits, "challenge"), serveChallenge(services.proofOfWork));
  app.get(["/cancel", "/cancel.data"], limitRequests(services.limits, "cancel"));
  // The sign-in's every form: the password, the second factor's code and its set-up share one
  // allowance per browser. Its pages give the browser its cookie (never cached pages), so a person
  // signing in is counted as a browser; a script that drops it shares the address's small one.
  app.get(["/login", "/login/codigo", "/login/configurar"], issueBrowserCookie);
  app.post(
    [
      "/login",
      "/login.data",
      "/login/codigo",
      "/login/codigo.data",
      "/login/configurar",
      "/login/configurar.data",
    ],
    limitRequests(services.limits, "login"),
  );
  // The sign-up form shows its own 429 (the route answers it): the count is made here all the same.
  // A post's answer is never cached, so it may carry the browser cookie too.
  app.post(WAITLIST_SIGN_UPS, issueBrowserCookie, countRequests(services.limits, "waitlist"));

  // While the server already knows the sign-in line is full (no database read), a login form
  // posted without JavaScript is refused here, before React Router renders anything: under a
  // password-guessing flood, that render is what the other pages would wait behind. With
  // JavaScript the form asks for /login.data and the action answers, so the message shows in it.
  app.post("/login", (req, res, next) => {
    const wait = services.auth.busyFor();
    if (wait === null) {
      next();
      return;
    }
    logLoginRefusal("busy", req.ip ?? "desconocida");
    res
      .status(429)
      .set({ "Retry-After": String(wait), "Cache-Control": "private, no-store" })
      .type("html")
      .send(busyPage(wait));
  });

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
          const context = new RouterContextProvider();
          context.set(servicesContext, services);
          context.set(clientAddressContext, "caché");
          context.set(cspNonceContext, "");
          context.set(wholeDocumentContext, true);
          context.set(shopOriginContext, shopOrigin(req));
          return fetchPage(request, context);
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
        const context = new RouterContextProvider();
        context.set(servicesContext, services);
        context.set(clientAddressContext, req.ip ?? req.socket.remoteAddress ?? "desconocida");
        context.set(browserIdContext, requestBrowser(req, res));
        context.set(cspNonceContext, String(res.locals.cspNonce ?? ""));
        context.set(shopOriginContext, shopOrigin(req));
        const refusal = res.locals.limitRefusal;
        context.set(limitRefusalContext, typeof refusal === "number" ? refusal : null);
        return context;
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
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    context.set(clientAddressContext, "caché");
    context.set(cspNonceContext, "");
    context.set(wholeDocumentContext, true);
    context.set(shopOriginContext, origin);
    try {
      const response = await fetchPage(new Request(`${new URL(origin).origin}/`), context);
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

/**
 * The shop's own address when PUBLIC_URL is not set: the one it listens on (what it prints at
 * start), never the request's Host header, which anyone can set (absolute links in pages,
 * previews, the sitemap and e-mails are built from it, and pages may be cached).
 */
export function listeningOrigin(req: express.Request, host: string): string {
  // A connection already closed (the client left mid-request) has no local port any more.
  return originOf(req.protocol, host, req.socket.localPort ?? req.app.locals.listenPort);
}

function originOf(protocol: string, host: string, port: number | undefined): string {
  const wildcard = host === "0.0.0.0" || host === "::" || host === "";
  const name = wildcard ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return port ? `${protocol}://${name}:${port}` : `${protocol}://${name}`;
}

/** Runs `clear` as the answer's status is written, when it is a success (< 400). */
function clearWhenSucceeded(res: express.Response, clear: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
    if (!this.headersSent && args[0] < 400) clear();
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

// A missing file is no one's attack: answered in Spanish, not logged.
const notFound: express.RequestHandler = (req, res) =>
  refuse(req, res, 404, "Archivo no encontrado.", { quiet: true });

/**
 * Local media under /media: only the drops' folder is public. Keys are unique per upload, so a
 * stored file never changes: cache it for a year.
 */
export function localMedia(mediaDir: string): express.Router {
  const router = express.Router();
  router.use(
    "/drops",
    express.static(path.join(mediaDir, "drops"), { immutable: true, maxAge: "1y", index: false }),
    notFound,
  );
  router.use(notFound);
  return router;
}

const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "interest-cohort=()",
  "browsing-topics=()",
].join(", ");

/** Placeholder nonce in the precomputed policy; replaced by the page's script hashes. */
const NO_NONCE = "-";

/**
 * The headers every answer gets (helmet's, the permissions policy, HSTS over HTTPS): the
 * middleware, and `headers(secure)`, the same list computed once by running it on a stand-in
 * response, for answers written without Express (page-cache hits, server/fast-path.ts).
 */
function securityHeaders(
  config: Config,
  { development, videoUrl }: { development: boolean; videoUrl: string | null },
): {
  middleware: express.RequestHandler;
  headers(secure: boolean): [string, string][];
  /** The process video's address changed (Configuración): the policy is made again, once. */
  setVideoUrl(url: string | null): void;
} {
  // Media in S3-compatible storage are fetched from its public address.
  const mediaSources = config.media.kind === "s3" ? [new URL(config.media.publicUrl).origin] : [];
  // The process video on /nosotros: a player in a frame (YouTube, Vimeo) or a file in <video>.
  const build = (video: string | null) => {
    const videoSources = video ? [new URL(video).origin] : [];
    return helmet({
      // Development: Vite injects inline scripts and a websocket for hot reload.
      contentSecurityPolicy: development
        ? false
        : {
            useDefaults: false,
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", "data:", "blob:", ...mediaSources],
              mediaSrc: ["'self'", "blob:", ...new Set([...mediaSources, ...videoSources])],
              fontSrc: ["'self'"],
              connectSrc: ["'self'"],
              frameSrc: ["'self'", ...videoSources],
              frameAncestors: ["'none'"],
              formAction: ["'self'"],
              baseUri: ["'self'"],
              objectSrc: ["'none'"],
            },
          },
      // Sent only for HTTPS requests, below: HSTS over plain HTTP would lock out a local install.
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      xFrameOptions: { action: "deny" },
    });
  };
  let withHelmet = build(videoUrl);
  const apply = (req: express.Request, res: express.Response, next: express.NextFunction) => {
    // The shop needs no camera, microphone, location, payment or USB access from the browser.
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    withHelmet(req, res, next);
  };
  return {
    middleware(req, res, next) {
      res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
      apply(req, res, next);
    },
    headers(secure) {
      const set = new Map<string, [string, string]>();
      const stand = {
        locals: { cspNonce: NO_NONCE },
        setHeader(name: string, value: string) {
          set.set(name.toLowerCase(), [name, String(value)]);
        },
        removeHeader(name: string) {
          set.delete(name.toLowerCase());
        },
      };
      let done = false;
      apply({ secure } as express.Request, stand as unknown as express.Response, (error?: unknown) => {
        if (error) throw error;
        done = true;
      });
      // Helmet answers synchronously; if it ever did not, no list is better than a wrong one.
      if (!done) throw new Error("securityHeaders: helmet did not finish synchronously");
      return [...set.values()];
    },
    setVideoUrl(url) {
      withHelmet = build(url);
    },
  };
}
