/*
 * Addresses that both the router (app/routes.ts) and the server's edge (server/) know: written once
 * here. The edge counts, limits or streams requests to them before React Router sees them.
 */
export const PATHS = {
  login: "/login",
  loginCode: "/login/codigo",
  loginSetUp: "/login/configurar",
  cancel: "/cancel",
  /** 'Mi pedido': the look-up form (an order's number and e-mail) and, below it, each order's page. */
  orderLookup: "/mi-pedido",
  checkout: "/api/checkout",
  /** A shopper's place in a drop's line, looked at while the drawer waits (`:id` the place). */
  line: "/api/fila/:id",
  /** The proof of work's challenge (server/request-limits.ts). */
  challenge: "/api/reto",
  /** The server's clock for pages that open and close a drop on their own. */
  clock: "/api/hora",
  health: "/healthz",
  /** The shop's counters for a metrics system (server/metrics-route.ts), behind a bearer token. */
  metrics: "/metrics",
  /** The endpoint that takes files: its body is streamed, not read whole. */
  adminMedia: "/admin/media",
  collection: "/coleccion/:dropId",
  product: "/drop/:dropId/product/:productId",
} as const;

/** The sign-in's three forms: the password, the second factor's code and its set-up. */
export const SIGN_IN_PATHS = [PATHS.login, PATHS.loginCode, PATHS.loginSetUp] as const;

/** A path as app/routes.ts writes it: relative to its parent (the root, or a prefix). */
export function routePath(path: string, parent = ""): string {
  return path.slice(parent.length + 1);
}

/** A page's address and the one React Router's data requests use for it. */
export function withDataRequest(path: string): [string, string] {
  return [path, `${path}.data`];
}

/** Matches a route pattern's addresses (`:param` is one segment) and their data requests. */
export function pathPattern(pattern: string): RegExp {
  const body = pattern
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+?" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}(?:\\.data)?$`);
}

/** Whether a path is in the admin area (and not, say, /administrador). */
export function isAdminPath(path: string): boolean {
  return path === "/admin" || path.startsWith("/admin/");
}

/** Where /login may send someone back to: only pages of the admin area. */
export function safeAdminPath(value: string | null | undefined): string | null {
  if (!value) return null;
  if (!/^\/admin(\/[\w\-/.]*)?(\?[\w\-=&%.+]*)?$/.test(value)) return null;
  if (value.includes("//") || value.includes("..")) return null;
  return value;
}
