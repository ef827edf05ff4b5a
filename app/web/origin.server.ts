import { createContext, type RouterContextProvider } from "react-router";
import type { Config } from "~/config/env.server";

/**
 * The shop's public origin, set by the server for each request: PUBLIC_URL when set, otherwise
 * the address the shop listens on. Never the request's Host header, which anyone can set.
 */
export const shopOriginContext = createContext<string>();

export function shopOrigin(context: Readonly<RouterContextProvider>): string {
  return context.get(shopOriginContext);
}

/**
 * Whether a state-changing request comes from the shop's own pages. Browsers send `Origin` with
 * every POST; when it is missing (old browsers) `Sec-Fetch-Site` may vouch for it. With
 * `allowUnknown`, a request that says neither passes (scripts without cookies, e.g. the checkout
 * endpoint that holds no session); admin requests leave it off.
 */
export function isSameOrigin(request: Request, config: Config, { allowUnknown = false } = {}): boolean {
  return isSameOriginFrom(
    { origin: request.headers.get("origin"), secFetchSite: request.headers.get("sec-fetch-site") },
    new URL(request.url).origin,
    config,
    { allowUnknown },
  );
}

/** isSameOrigin from the two headers and the origin the request was asked under. */
export function isSameOriginFrom(
  headers: { origin: string | null; secFetchSite: string | null },
  requestOrigin: string,
  config: Config,
  { allowUnknown = false } = {},
): boolean {
  const from = headers.origin;
  if (from && from !== "null") {
    // The page's own address (the Host it was asked under) counts too: a browser cannot lie about it.
    return from === config.publicUrl || from === requestOrigin;
  }
  const site = headers.secFetchSite;
  if (site) return site === "same-origin";
  return allowUnknown && from === null;
}
