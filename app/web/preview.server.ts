import type { RouterContextProvider } from "react-router";
import { type Publication, publicationOf } from "~/catalogue/publishing";
import { formatShopDateTime } from "~/lib/dates";
import { adminSessionContext } from "./guards.server";

/*
 * A drop's preview (decision 38): its public pages as they will look, with `?vista-previa=1`,
 * for a signed-in administrator only. The page cache never answers a request carrying an
 * administrator's cookie and the session middleware marks such answers `private, no-store`; for
 * anyone else the parameter changes nothing (a draft stays a 404).
 */

export const PREVIEW_PARAM = "vista-previa";

/** Whether this request is an administrator's preview. */
export function isPreview(url: URL, context: Readonly<RouterContextProvider>): boolean {
  return url.searchParams.has(PREVIEW_PARAM) && context.get(adminSessionContext) !== null;
}

/** A public address of the shop as the preview links it (keeps the preview on the next page). */
export function previewHref(href: string): string {
  return `${href}${href.includes("?") ? "&" : "?"}${PREVIEW_PARAM}=1`;
}

/** What the preview's banner says of the drop's publication. */
export interface PreviewNotice {
  publication: Publication;
  text: string;
}

export function previewNotice(visibleFrom: Date | null, now: Date): PreviewNotice {
  const publication = publicationOf(visibleFrom, now);
  const text =
    publication === "borrador"
      ? "Es un borrador: el público todavía no ve esta colección."
      : publication === "programada" && visibleFrom
        ? `El público la verá desde el ${formatShopDateTime(visibleFrom)} (hora de la Ciudad de México).`
        : "Esta colección ya es pública.";
  return { publication, text };
}
