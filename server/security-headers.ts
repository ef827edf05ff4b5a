import crypto from "node:crypto";
import type express from "express";
import helmet from "helmet";
import type { Config } from "~/config/env.server";
import { embedVideoUrl } from "~/lib/urls";

/*
 * The headers every answer gets: helmet's (with the Content-Security-Policy and its per-answer
 * nonce), the permissions policy, and HSTS over HTTPS. Answers written without Express (page-cache
 * hits, the checkout's front door) get the same list, computed once.
 */

// (No `interest-cohort`: FLoC is gone, and browsers now log the unknown name as an error.)
const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "browsing-topics=()",
].join(", ");

/** Placeholder nonce in the precomputed policy; replaced by the page's script hashes. */
const NO_NONCE = "-";

/**
 * The headers every answer gets (helmet's, the permissions policy, HSTS over HTTPS): the
 * middleware, and `headers(secure)`, the same list computed once by running it on a stand-in
 * response, for answers written without Express (page-cache hits, server/fast-path.ts).
 */
export function securityHeaders(
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
    // The player /nosotros frames, whatever page address the owner pasted (embedVideoUrl).
    const videoSources = video ? [new URL(embedVideoUrl(video)).origin] : [];
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
              // Fonts, fetches and frames fall back to default-src ('self'); frames name the
              // video's player only when there is one. Every byte here is sent with every page.
              ...(videoSources.length > 0 ? { frameSrc: ["'self'", ...videoSources] } : {}),
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
      // Headers only browsers long gone read (IE8's downloads, Flash's cross-domain policies, the
      // XSS filter every browser removed; DNS prefetching is off by default on HTTPS pages): each
      // costs its bytes on every answer, the cached pages' included (decision 12).
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
      xDnsPrefetchControl: false,
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
