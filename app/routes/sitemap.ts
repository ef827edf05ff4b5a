import { listDrops } from "~/catalogue/catalogue.server";
import { dropHref, productHref } from "~/catalogue/views.server";
import { LEGAL_LINKS } from "~/content/legal";
import { escapeMarkup } from "~/lib/escape";
import { onlyGet } from "~/web/methods";
import { shopOrigin } from "~/web/origin.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  const { database } = context.get(servicesContext);
  const origin = shopOrigin(context);
  // Drafts and drops before their 'Visible desde' are not listed (decision 38).
  const drops = await listDrops(database.db, { visibleAt: new Date() });
  const paths = [
    "/",
    "/colecciones",
    "/nosotros",
    ...LEGAL_LINKS.map((l) => l.path),
    ...drops.flatMap((d) => [dropHref(d.id), ...d.products.map((p) => productHref(d.id, p.id))]),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `  <url><loc>${escapeMarkup(origin + p)}</loc></url>`).join("\n")}
</urlset>
`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=600" },
  });
}

export const action = onlyGet;
