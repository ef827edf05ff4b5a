import type { Config } from "~/config/env.server";

/** The shop's public origin: PUBLIC_URL when set, otherwise the address the request came to. */
export function publicOrigin(request: Request, config: Config): string {
  return config.publicUrl ?? new URL(request.url).origin;
}

/** Makes a path (e.g. a /media URL) absolute, for canonical links, previews and the sitemap. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin}/`).toString();
}
