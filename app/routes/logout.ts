import { redirect } from "react-router";
import {
  adminSessionContext,
  isSecureRequest,
  requireSameOrigin,
  setUpSessionContext,
} from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/logout";

/** 'Cerrar sesión': ends the session in the database and clears the cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  requireSameOrigin({ request, context });
  const { auth, config } = context.get(servicesContext);
  const session = context.get(adminSessionContext) ?? context.get(setUpSessionContext);
  const cookies = await auth.signOut(session?.sessionId ?? null, isSecureRequest(request, config));
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  throw redirect("/login?sesion=cerrada", { headers });
}

// Signing out changes something, so it takes a POST; a link or a typed address just goes home.
export function loader() {
  throw redirect("/");
}
