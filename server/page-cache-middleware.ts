import type express from "express";
import { cacheKey, hasAdminSession, isCacheablePath } from "./cacheable-pages";
import { chooseEncoding } from "./cached-headers";
import { requestPath } from "./edge";
import type { CachedPage, PageCache, RenderReason } from "./page-cache";
import { policyWithHashes } from "./script-hashes";

export interface PageCacheMiddlewareOptions {
  cache: PageCache;
  /** Renders the page for a request that carries nothing of the visitor (see server/app.ts). */
  render(pathAndQuery: string, req: express.Request, reason: RenderReason): Promise<Response>;
  /** Separates pages rendered for different shop addresses (protocol without PUBLIC_URL). */
  scope(req: express.Request): string;
}

/** Whether this request may be answered from the cache at all. */
export function mayUseCache(req: express.Request): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (!isCacheablePath(req.path)) return false;
  return !hasAdminSession(req.headers.cookie);
}

/**
 * Answers cacheable requests from the cache; everything else goes on untouched (`next()`), with
 * today's headers. Marks its answers so the compression middleware leaves them alone.
 */
export function pageCacheMiddleware(options: PageCacheMiddlewareOptions): express.RequestHandler {
  return async (req, res, next) => {
    if (!mayUseCache(req)) {
      if (isCacheablePath(req.path)) res.setHeader("X-Cache", "BYPASS");
      next();
      return;
    }
    try {
      // A whole address in the request line ("GET http://host/x") stands for its path (the edge
      // refused anything that is not one).
      const path = cacheKey(requestPath(req.originalUrl) ?? "/");
      const result = await options.cache.get(`${options.scope(req)} ${path}`, (reason) =>
        options.render(path, req, reason),
      );
      if (result === "pass") {
        res.setHeader("X-Cache", "BYPASS");
        next();
        return;
      }
      if (res.destroyed || res.writableEnded) return;
      send(req, res, result.page, result.outcome);
    } catch (error) {
      next(error);
    }
  };
}

function send(req: express.Request, res: express.Response, page: CachedPage, outcome: "hit" | "miss"): void {
  const encoding = chooseEncoding(req.headers["accept-encoding"]);
  const body = page.bodies[encoding];
  res.locals.fromPageCache = true;
  res.status(page.status);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  const policy = res.getHeader("Content-Security-Policy");
  if (typeof policy === "string")
    res.setHeader("Content-Security-Policy", policyWithHashes(policy, page.scriptHashes));
  res.setHeader("Vary", "Accept-Encoding");
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", String(body.length));
  res.setHeader("X-Cache", outcome === "hit" ? "HIT" : "MISS");
  if (req.method === "HEAD") res.end();
  else res.end(body);
}
