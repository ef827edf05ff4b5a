import crypto from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Express } from "express";
import helmet from "helmet";
import morgan from "morgan";
import { RouterContextProvider } from "react-router";
import { type Config, loadConfig } from "~/config/env.server";
import { clientAddressContext } from "~/lib/client-address";
import { cspNonceContext } from "~/lib/nonce";
import { LOCAL_MEDIA_ROUTE } from "~/media/local-storage.server";
import { MAX_UPLOAD_BODY_BYTES, tooLargeMessage } from "~/media/uploads.server";
import { type Services, servicesContext, startServices } from "~/services.server";

const MAX_BODY_BYTES = 256 * 1024;
/** The endpoint that takes files (route `routes/admin/media.ts`). */
const UPLOAD_PATH = "/admin/media";
/** How much of an upload answered before its end is still read (and thrown away): see drainUnreadBody. */
const DRAIN_BYTES = 32 * 1024 * 1024;
const DRAIN_MS = 5_000;

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
  close(): Promise<void>;
}

/** Reads the configuration, opens the database (migrating it) and builds the HTTP app. */
export async function createShop(options: ShopOptions = {}): Promise<Shop> {
  const config = loadConfig(options.env);
  const services = await startServices(config, options.log);
  const app = buildApp(services, options.clientDir);
  return { app, config, services, close: () => services.stop() };
}

function buildApp(services: Services, clientDir: string | undefined): Express {
  const { config } = services;
  const app = express();
  app.disable("x-powered-by");
  // Behind one load balancer that terminates TLS: X-Forwarded-Proto tells us the request was HTTPS,
  // and only the last X-Forwarded-For hop (the one it added) is believed.
  if (config.trustProxy) app.set("trust proxy", 1);

  if (config.logRequests) {
    app.use(morgan(":remote-addr :method :url :status :res[content-length] - :response-time ms"));
  }
  app.use(compression());
  // No page or endpoint of the shop takes more than a small form or cart: refuse big bodies
  // before anything reads them. The media upload is the exception: it streams its body and counts
  // the bytes against each kind's limit itself (app/media/uploads.server.ts), so here only a
  // declared length past the largest allowed (a video's) is refused unread.
  app.use((req, res, next) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (req.method === "POST" && req.path === UPLOAD_PATH) {
      drainUnreadBody(req, res);
      if (declared > MAX_UPLOAD_BODY_BYTES) {
        res
          .status(413)
          .set("Cache-Control", "no-store")
          .json({ message: tooLargeMessage(null) });
        return;
      }
      next();
      return;
    }
    if (declared > MAX_BODY_BYTES) {
      res.status(413).json({ message: "La solicitud es demasiado grande." });
      return;
    }
    next();
  });
  app.use(securityHeaders(config, { development: clientDir === undefined }));

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

  // A form posted to the admin area or the sign-in pages from another site is refused here with a
  // Spanish 403, before React Router's own origin check (a bare 400). The route guards
  // (requireAdmin, requireSameOrigin) still check what comes through, e.g. a request with no Origin.
  app.use(["/admin", "/login", "/login.data", "/logout", "/logout.data"], (req, res, next) => {
    const origin = req.headers.origin;
    if (req.method === "GET" || req.method === "HEAD" || !origin || origin === "null") return next();
    if (origin === config.publicUrl || origin === `${req.protocol}://${req.headers.host}`) return next();
    const message = "Solicitud no permitida: no viene de la tienda.";
    res.status(403).set("Cache-Control", "no-store");
    if (req.accepts(["json", "html"]) === "html") {
      res
        .type("html")
        .send(
          `<!doctype html><html lang="es-MX"><meta charset="utf-8"><title>Acción no permitida</title><h1>Acción no permitida</h1><p>${message}</p><p><a href="/">Ir a la tienda</a></p></html>`,
        );
    } else {
      res.json({ message });
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

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: () => import("virtual:react-router/server-build"),
      mode: config.env === "production" ? "production" : "development",
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(servicesContext, services);
        context.set(clientAddressContext, req.ip ?? req.socket.remoteAddress ?? "desconocida");
        context.set(cspNonceContext, String(res.locals.cspNonce ?? ""));
        return context;
      },
    }),
  );
  return app;
}

/**
 * An upload answered before its body has all arrived (no session, another site, too large, not a
 * photo…) still has the rest of the body coming. Closing the connection at once would make most
 * clients report a reset instead of the answer, so once the answer is sent the rest is read and
 * thrown away (never kept) for up to DRAIN_MS or DRAIN_BYTES, then the connection is closed. A
 * body that ends within that leaves the connection open for the next request.
 */
function drainUnreadBody(req: express.Request, res: express.Response): void {
  res.once("finish", () => {
    if (req.complete) return;
    // Whoever read the body (React Router's request stream) has stopped: its listener would
    // otherwise queue what comes next.
    req.removeAllListeners("data");
    let drained = 0;
    const close = () => req.socket.destroy();
    const timer = setTimeout(close, DRAIN_MS);
    timer.unref();
    req.on("data", (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_BYTES) close();
    });
    req.once("end", () => clearTimeout(timer));
    req.once("close", () => clearTimeout(timer));
    req.resume();
  });
}

const notFound: express.RequestHandler = (_req, res) => {
  res.status(404).type("text/plain; charset=utf-8").send("Archivo no encontrado");
};

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

function securityHeaders(config: Config, { development }: { development: boolean }): express.RequestHandler {
  const frameSources = config.shop.processVideoUrl ? [new URL(config.shop.processVideoUrl).origin] : [];
  // Media in S3-compatible storage are fetched from its public address.
  const mediaSources = config.media.kind === "s3" ? [new URL(config.media.publicUrl).origin] : [];
  const withHelmet = helmet({
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
            mediaSrc: ["'self'", "blob:", ...mediaSources],
            fontSrc: ["'self'"],
            connectSrc: ["'self'"],
            frameSrc: ["'self'", ...frameSources],
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
  return (req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    // The shop needs no camera, microphone, location, payment or USB access from the browser.
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    withHelmet(req, res, next);
  };
}
