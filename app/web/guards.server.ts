import { createContext, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import type { AdminSession } from "~/auth/auth.server";
import type { Config } from "~/config/env.server";
import { servicesContext } from "~/web/services";
import { isSameOrigin } from "./origin.server";
import { isAdminPath, PATHS, safeAdminPath } from "./paths";

/*
 * The HTTP side of administrator sign-in (app/auth has the rules and knows nothing of requests):
 * the session middleware, `requireAdmin` and the same-origin guard.
 */

/**
 * The administrator's session, read once per request by `sessionMiddleware`; null when signed out
 * and while the second factor is still to be set up.
 */
export const adminSessionContext = createContext<AdminSession | null>(null);

/** A session that passed the password but has not set up the second factor: only /login/configurar takes it. */
export const setUpSessionContext = createContext<AdminSession | null>(null);

/** Where a session without its second factor set up is sent. */
export const SET_UP_PATH = PATHS.loginSetUp;

/** Where the browser is: HTTPS decides the cookie's name and its Secure flag. */
export function isSecureRequest(request: Request, config: Config): boolean {
  return new URL(request.url).protocol === "https:" || (config.publicUrl?.startsWith("https://") ?? false);
}

/**
 * Root middleware: reads the administrator's session (only when the request carries its cookie),
 * hands it to loaders and actions, and passes on the refreshed or cleared cookie. Pages that
 * depend on a session are never stored by shared caches.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, url, context }, next) => {
  const { auth, config } = context.get(servicesContext);
  const { session, setCookies } = await auth.readSession(request.headers, isSecureRequest(request, config));
  context.set(adminSessionContext, session && !session.settingUp ? session : null);
  context.set(setUpSessionContext, session?.settingUp ? session : null);
  const response = await next();
  // A login or logout answer sets the cookie itself; that one wins over a refresh of the old one.
  const alreadySet = new Set(response.headers.getSetCookie().map(cookieName));
  for (const cookie of setCookies) {
    if (!alreadySet.has(cookieName(cookie))) response.headers.append("Set-Cookie", cookie);
  }
  // `url`, not `request.url`: a client navigation asks for /admin/orders.data.
  if (
    session ||
    setCookies.length > 0 ||
    url.pathname === PATHS.login ||
    url.pathname.startsWith(`${PATHS.login}/`) ||
    isAdminPath(url.pathname)
  ) {
    response.headers.set("Cache-Control", "private, no-store");
  }
  return response;
};

const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf("="));

interface GuardArgs {
  request: Request;
  /** The page's address without React Router's `.data` suffix and parameters. */
  url: URL;
  context: Readonly<RouterContextProvider>;
}

function refuse(status: 401 | 403, message: string): Response {
  return Response.json({ message }, { status, headers: { "Cache-Control": "no-store" } });
}

/** State-changing requests must come from the shop's own pages (cross-site request forgery). */
export function requireSameOrigin({ request, context }: Omit<GuardArgs, "url">): void {
  if (!isSameOrigin(request, context.get(servicesContext).config)) {
    throw refuse(403, "Solicitud no permitida: no viene de la tienda.");
  }
}

/**
 * Every /admin loader and action starts here. Pages without a session go to /login (and come
 * back after it), actions answer 401, and a state-changing request from another site 403, before
 * anything changes. A session still to set up its second factor is no session here: its pages go
 * to the set-up page. (Only administrators have sessions: see `readSession`.)
 */
export function requireAdmin({ request, url, context }: GuardArgs): AdminSession {
  const mutating = request.method !== "GET" && request.method !== "HEAD";
  if (mutating) requireSameOrigin({ request, context });
  const session = context.get(adminSessionContext);
  if (!session) {
    if (mutating) throw refuse(401, "Tu sesión terminó. Inicia sesión de nuevo.");
    // Signed in with the password only: nothing but setting up the second factor.
    if (context.get(setUpSessionContext)) throw redirect(SET_UP_PATH);
    const back = safeAdminPath(`${url.pathname}${url.search}`);
    throw redirect(
      back && back !== "/admin" ? `${PATHS.login}?redirectTo=${encodeURIComponent(back)}` : PATHS.login,
    );
  }
  return session;
}

/**
 * `requireAdmin` for a download (a spreadsheet): a link followed without a session gets a 401
 * with the Spanish message, not the sign-in page saved as a .csv; anything else is the admin
 * guard's own answer.
 */
export function requireAdminForDownload(args: GuardArgs): AdminSession {
  try {
    return requireAdmin(args);
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) {
      throw Response.json(
        { message: "Tu sesión terminó. Inicia sesión de nuevo." },
        { status: 401, headers: { "Cache-Control": "no-store" } },
      );
    }
    throw error;
  }
}
