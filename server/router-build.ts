import type { ServerBuild } from "react-router";
import { type RouterFetch, routerFetch } from "./request-handler";

/**
 * React Router refuses a post whose Origin is not the Host header's address, with a bare English
 * "Bad Request". Behind a proxy that sends its own Host (nginx's default) or terminates HTTPS, the
 * shop's pages post from PUBLIC_URL, which the edge has already accepted (edgeGuards): React
 * Router is told that address too, or no form (sign-in included) could ever be sent.
 */
export function withPublicOrigin(build: ServerBuild, publicUrl: string | undefined): ServerBuild {
  if (!publicUrl) return build;
  return { ...build, allowedActionOrigins: [...(build.allowedActionOrigins || []), new URL(publicUrl).host] };
}

/** The shop's pages as React Router renders them: a Request in, a Response out. */
export function shopPages(publicUrl: string | undefined, mode: "production" | "development"): RouterFetch {
  return routerFetch(
    async () =>
      withPublicOrigin((await import("virtual:react-router/server-build")) as ServerBuild, publicUrl),
    mode,
  );
}
