import type { Config } from "~/config/env.server";

/** The shop's public origin: PUBLIC_URL when set, otherwise the address the request came to. */
export function publicOrigin(request: Request, config: Config): string {
  return config.publicUrl ?? new URL(request.url).origin;
}

/** Makes a path (e.g. a /media URL) absolute, for canonical links, previews and the sitemap. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin}/`).toString();
}

/**
 * Whether a state-changing request comes from the shop's own pages. Browsers send `Origin` with
 * every POST; when it is missing (old browsers) `Sec-Fetch-Site` may vouch for it. With
 * `allowUnknown`, a request that says neither passes (scripts without cookies, e.g. the checkout
 * endpoint that holds no session); admin requests leave it off.
 */
export function isSameOrigin(request: Request, config: Config, { allowUnknown = false } = {}): boolean {
  const from = request.headers.get("origin");
  if (from && from !== "null") {
    return from === publicOrigin(request, config) || from === new URL(request.url).origin;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  return allowUnknown && from === null;
}
