// The JavaScript a page loads: the modules its HTML preloads, imports or names as scripts, each
// gzip-compressed at level 9. Shared by `npm run bench:storefront`, which prints it, and
// tests/server/server.test.ts, which holds it to the budget on every run.
import { gzipSync } from "node:zlib";

/** Home and the product page each load at most this much JavaScript, gzip (issue 24). */
export const PAGE_JS_BUDGET_KB = 120;

/** The module addresses a page's HTML makes the browser load at once. */
export function pageScripts(html) {
  return new Set([
    ...[...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1]),
    ...[...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]),
  ]);
}

/**
 * What a page's modules weigh: KB gzip in all, its files, and whether one of them is or names the
 * reports' chart library (uPlot). `cache` keeps each module's figures across pages.
 */
export async function pageJavaScript(origin, html, cache = new Map()) {
  const files = [...pageScripts(html)];
  let bytes = 0;
  let charts = false;
  for (const src of files) {
    if (!cache.has(src)) {
      const body = Buffer.from(await (await fetch(origin + src)).arrayBuffer());
      cache.set(src, {
        gzip: gzipSync(body, { level: 9 }).length,
        charts: /uplot/i.test(src) || body.includes("uPlot"),
      });
    }
    const one = cache.get(src);
    bytes += one.gzip;
    charts ||= one.charts;
  }
  return { kb: bytes / 1024, files, charts };
}
