import { Link } from "react-router";
import { RouteError } from "~/components/route-error";
import { HERO_SHARE_IMAGE } from "~/content/brand";
import { LEGAL_LINKS } from "~/content/legal";
import { pageMeta } from "~/lib/seo";
import { absoluteUrl } from "~/lib/urls";
import { legalPageFor } from "~/settings/settings";
import { shopShareImage } from "~/settings/storefront.server";
import { pageTakesNoForm } from "~/web/methods";
import { shopOrigin } from "~/web/origin.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/legal";

/** /aviso-de-privacidad, /envios, /cambios-y-devoluciones, /terminos-y-condiciones. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const settings = services.settings.current();
  // The same module serves the four addresses; a client navigation asks for `<path>.data`.
  const path = new URL(request.url).pathname.replace(/\.data$/, "");
  // The owner's text from Configuración, or the model text; never the model's notes to her. Whether
  // it is the model is the admin's to know (its set-up checklist), not the shopper's.
  const found = legalPageFor(path, settings);
  if (!found) throw new Response("Página no encontrada", { status: 404 });
  const { model: _model, ...page } = found;
  const origin = shopOrigin(context);
  return {
    page,
    url: absoluteUrl(origin, path),
    // The owner's hero photo, as home shares it, or the brand's drawing.
    image: absoluteUrl(
      origin,
      (await shopShareImage(services.database.db, services.media, settings.storefront.heroImage)) ??
        HERO_SHARE_IMAGE,
    ),
    shopName: settings.shop.name,
  };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [{ title: "Página no encontrada" }];
  return pageMeta({
    title: data.page.title,
    description: data.page.description,
    url: data.url,
    image: data.image,
    shopName: data.shopName,
  });
}

export const action = pageTakesNoForm;

export default function Legal({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <main className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="font-serif text-4xl">{page.title}</h1>
      {page.sections.map((section, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the owner's sections may share a heading (or have none)
        <section key={i} className="mt-8">
          {section.heading && <h2 className="font-serif text-2xl">{section.heading}</h2>}
          {section.paragraphs.map((text, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs may repeat
            <p key={j} className="mt-3 text-ink/85">
              {text}
            </p>
          ))}
          {section.items && (
            <ul className="mt-3 list-disc space-y-1 pl-6 text-ink/85">
              {section.items.map((item, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: items may repeat
                <li key={j}>{item}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
      <nav aria-label="Información legal" className="mt-12 border-t border-sand pt-6 text-sm">
        <ul className="flex flex-wrap gap-x-5 gap-y-2">
          {LEGAL_LINKS.filter((l) => l.path !== page.path).map((link) => (
            <li key={link.path}>
              <Link to={link.path} className="underline">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Página no encontrada" />;
}
