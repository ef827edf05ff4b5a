import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "~/auth/auth.server";
import { collectionSearch, parseFilters, parseSort } from "~/catalogue/filters";

/* Which requests the page cache (server/page-cache.ts) may answer, and under which key. */

/**
 * Pages (and their React Router `.data` twins, what client navigations fetch: `/_.data` for the
 * home with trailing-slash-aware data requests, `/x.data` for the others) that may be cached.
 * `[^/]+` takes an id with or without `.data`.
 */
const PUBLIC_PAGES: RegExp[] = [
  /^\/$/,
  /^\/_\.data$/,
  /^\/colecciones(?:\.data)?$/,
  /^\/coleccion\/[^/]+$/,
  /^\/drop\/[^/]+\/product\/[^/]+$/,
  /^\/nosotros(?:\.data)?$/,
  /^\/(?:aviso-de-privacidad|envios|cambios-y-devoluciones|terminos-y-condiciones)(?:\.data)?$/,
  /^\/sitemap\.xml$/,
  /^\/robots\.txt$/,
];

/** A collection page's document (not its `.data` twin), whose query is filters and order only. */
const COLLECTION_PAGE = /^\/coleccion\/[^/.]+$/;

/**
 * The cache key's path part: the address as asked (path and query), without a fragment. A
 * collection page's query is reduced to the view it shows (known filters and order, in a fixed
 * order), so a link's tracking parameters or a hand-edited order share that view's entry rather
 * than costing a render each; the page is rendered for that reduced address.
 */
export function cacheKey(originalUrl: string): string {
  const hash = originalUrl.indexOf("#");
  const url = hash === -1 ? originalUrl : originalUrl.slice(0, hash);
  const query = url.indexOf("?");
  if (query !== -1 && COLLECTION_PAGE.test(url.slice(0, query))) {
    const params = new URLSearchParams(url.slice(query + 1));
    return url.slice(0, query) + collectionSearch(parseFilters(params), parseSort(params));
  }
  // "/x?" and "/x" are the same page.
  return url.endsWith("?") ? url.slice(0, -1) : url;
}

/** Whether the path names a public page that may be cached (the query is not looked at). */
export function isCacheablePath(pathname: string): boolean {
  return PUBLIC_PAGES.some((re) => re.test(pathname));
}

/** True when the Cookie header carries an administrator's session cookie (either name). */
export function hasAdminSession(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((part) => {
    const name = part.slice(0, part.indexOf("=") === -1 ? undefined : part.indexOf("=")).trim();
    return name === SESSION_COOKIE || name === SECURE_SESSION_COOKIE;
  });
}
