import { promisify } from "node:util";
import zlib from "node:zlib";
import { log } from "~/config/log.server";
import type { HeaderBlock } from "./header-block";
import { inlineScriptHashes } from "./script-hashes";

/*
 * A short-lived, in-process cache of whole rendered answers for the anonymous public pages
 * (decision 12). Why each rule is what it is:
 * - TTL 1 s from the moment the render *started* (its data was read after that), so a page is
 *   never more than 1 s staler than the database, and a drop opening or closing flips within 1 s.
 * - One render per page per refresh: concurrent misses wait for the same render (single flight).
 * - Rendered without a nonce, fully (onAllReady), for a request that carries nothing of any
 *   visitor; the CSP of a cached answer lists the sha256 of each inline script it contains.
 * - Stored gzip and brotli once, so a hit costs no compression.
 * - Anything an admin saves clears it (generation counter: a render started before the clear is
 *   served to those who waited for it but never stored).
 */

export const PAGE_TTL_MS = 1_000;
/**
 * A page still asked for in the last this-many ms of its life is rendered again in the
 * background while it keeps being served: a busy page is never missing, so its visitors never
 * wait for the next render. Each entry still lives 1 s from the start of its own render.
 */
export const REFRESH_AHEAD_MS = 200;
/** Distinct addresses kept at once; past it the oldest go (random query strings cannot fill memory). */
export const MAX_ENTRIES = 500;
/** Answers larger than this are served but not kept. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export type Encoding = "br" | "gzip" | "identity";

export interface CachedPage {
  status: number;
  /** The route's own headers worth replaying (Content-Type, and its Cache-Control when public). */
  headers: [string, string][];
  bodies: Record<Encoding, Buffer>;
  /** 'sha256-…' of every inline script, for the Content-Security-Policy. */
  scriptHashes: string[];
  renderedAt: number;
  expiresAt: number;
  /**
   * The whole header list of a hit, per plain/HTTPS request and encoding, checked and joined once
   * when the entry is stored (`PageCacheOptions.prepare`) for the front door (server/fast-path.ts),
   * which then does no per-request header work.
   */
  wire?: WireHeaders;
}

/** A hit's headers but its Content-Length (`block`), and that as writeHead takes it (`framing`). */
export interface HitHead {
  block: HeaderBlock;
  framing: string[];
}

export type WireHeaders = Record<"plain" | "secure", Record<Encoding, HitHead>>;

/** Headers never stored nor replayed: per connection, per encoding, or decided by the cache. */
const NOT_STORED = new Set([
  "set-cookie",
  "cache-control",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "vary",
  "content-security-policy",
  // Node's to act on, never a stored answer's (server/header-block.ts refuses them).
  "expect",
  "trailer",
]);

/** A cached page (not a route with its own public policy) may be kept by a CDN for 1 s. */
export const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=1";

/** Whether a rendered answer may be stored and shared: a 200 that sets no cookie and is not private. */
export function isStorable(response: Response, size: number): boolean {
  if (response.status !== 200) return false;
  if (response.headers.getSetCookie().length > 0) return false;
  const cc = response.headers.get("cache-control") ?? "";
  if (/\b(private|no-store|no-cache)\b/i.test(cc)) return false;
  return size <= MAX_BODY_BYTES;
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Compresses once at store time (on libuv's thread pool, off the event loop). */
async function toEntry(response: Response, body: Buffer, renderedAt: number): Promise<CachedPage> {
  const type = response.headers.get("content-type") ?? "";
  const [gz, br] = await Promise.all([
    gzip(body, { level: 6 }),
    // Quality 5: close to 11's size on HTML at a fraction of its time; pages are recompressed every second.
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  ]);
  const headers: [string, string][] = [];
  for (const [name, value] of response.headers.entries())
    if (!NOT_STORED.has(name)) headers.push([name, value]);
  // A route with its own public policy (sitemap, robots: no stock nor price in them) keeps it.
  const own = response.headers.get("cache-control");
  headers.push(["cache-control", own && /\bpublic\b/.test(own) ? own : SHARED_CACHE_CONTROL]);
  return {
    status: response.status,
    headers,
    bodies: { identity: body, gzip: gz, br },
    scriptHashes: type.includes("text/html") ? inlineScriptHashes(body.toString("utf8")) : [],
    renderedAt,
    expiresAt: renderedAt + PAGE_TTL_MS,
  };
}

/** Why a page is rendered: nobody has it (a miss), or a busy page is renewed before it expires. */
export type RenderReason = "miss" | "ahead";

export type Render = (reason: RenderReason) => Promise<Response>;

type Flight = Promise<CachedPage | "pass">;

export interface PageCacheOptions {
  now?: () => number;
  ttlMs?: number;
  refreshAheadMs?: number;
  /** Runs once on every page before it is stored (precomputes what a hit needs). */
  prepare?: (page: CachedPage) => void;
}

/** The store and its single flights; knows nothing of Express (see `pageCacheMiddleware`). */
export class PageCache {
  private readonly entries = new Map<string, CachedPage | { pass: true; expiresAt: number }>();
  private readonly flights = new Map<string, { generation: number; flight: Flight }>();
  private generation = 0;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly refreshAheadMs: number;
  private readonly prepare: ((page: CachedPage) => void) | undefined;
  /** How many renders the cache asked for (tests and benchmarks). */
  renders = 0;

  constructor(options: PageCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? PAGE_TTL_MS;
    this.refreshAheadMs = options.refreshAheadMs ?? REFRESH_AHEAD_MS;
    this.prepare = options.prepare;
  }

  /**
   * A fresh stored page for `key`, without waiting; undefined otherwise. A page due for its
   * refresh with none under way is renewed with `ahead` in the background and still returned
   * (the front door, server/fast-path.ts); without `ahead` it is left to `get` (undefined).
   */
  peek(key: string, ahead?: Render): CachedPage | undefined {
    const stored = this.entries.get(key);
    if (stored === undefined || "pass" in stored) return undefined;
    const left = stored.expiresAt - this.now();
    if (left <= 0) return undefined;
    if (left <= this.refreshAheadMs && !this.flights.has(key)) {
      if (ahead === undefined) return undefined;
      this.renewAhead(key, ahead);
    }
    return stored;
  }

  /** Forgets every page, and every render already under way: the next request renders again. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.flights.clear();
  }

  /**
   * The page for `key`: a fresh stored one ("hit"), or the result of a render, shared by every
   * request that asks while it runs ("miss" for the one that started it, "hit" for the others).
   * "pass" means the answer is not to be shared (not a 200, sets a cookie…): render it normally.
   */
  async get(key: string, render: Render): Promise<{ page: CachedPage; outcome: "hit" | "miss" } | "pass"> {
    const stored = this.entries.get(key);
    const left = stored ? stored.expiresAt - this.now() : 0;
    if (stored && left > 0) {
      if ("pass" in stored) return "pass";
      if (left <= this.refreshAheadMs && !this.flights.has(key)) this.renewAhead(key, render);
      return { page: stored, outcome: "hit" };
    }
    if (stored) this.entries.delete(key);
    const running = this.flights.get(key);
    if (running && running.generation === this.generation) {
      const result = await running.flight;
      return result === "pass" ? "pass" : { page: result, outcome: "hit" };
    }
    const result = await this.start(key, render, "miss");
    return result === "pass" ? "pass" : { page: result, outcome: "miss" };
  }

  /** A stored page's successor, rendered in the background while the stored one is served. */
  private renewAhead(key: string, render: Render): void {
    // A failure shows on the next miss, rendered normally.
    this.start(key, render, "ahead").catch((error) =>
      log.error({ err: error }, "No se pudo renovar una página guardada"),
    );
  }

  /** Renders `key` once, as the flight every request for it meanwhile waits for. */
  private async start(key: string, render: Render, reason: RenderReason): Flight {
    const generation = this.generation;
    const flight = this.fly(key, render, generation, reason);
    this.flights.set(key, { generation, flight });
    try {
      return await flight;
    } finally {
      if (this.flights.get(key)?.flight === flight) this.flights.delete(key);
    }
  }

  private async fly(
    key: string,
    render: Render,
    generation: number,
    reason: RenderReason,
  ): Promise<CachedPage | "pass"> {
    const startedAt = this.now();
    this.renders++;
    const response = await render(reason);
    const body = Buffer.from(await response.arrayBuffer());
    if (!isStorable(response, body.length)) {
      // Remembered for one TTL, so a flood of a missing page does not render it twice each time.
      this.store(key, { pass: true, expiresAt: startedAt + this.ttlMs }, generation);
      return "pass";
    }
    const page = await toEntry(response, body, startedAt);
    page.expiresAt = startedAt + this.ttlMs;
    this.prepare?.(page);
    this.store(key, page, generation);
    return page;
  }

  private store(
    key: string,
    value: CachedPage | { pass: true; expiresAt: number },
    generation: number,
  ): void {
    // Rendered before an admin change: served to those who waited, never kept.
    if (generation !== this.generation || value.expiresAt <= this.now()) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const now = this.now();
      for (const [k, v] of this.entries) if (v.expiresAt <= now) this.entries.delete(k);
      // Still full: the oldest inserted go first.
      for (const k of this.entries.keys()) {
        if (this.entries.size < MAX_ENTRIES) break;
        this.entries.delete(k);
      }
    }
    this.entries.set(key, value);
  }
}
