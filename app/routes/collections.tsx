import { Link } from "react-router";
import { listDrops } from "~/catalogue/catalogue.server";
import { DROP_TIME_LABELS } from "~/catalogue/drop-time";
import { groupByYear } from "~/catalogue/storefront";
import { pageSeo } from "~/catalogue/storefront-page.server";
import { dropSummary } from "~/catalogue/views.server";
import { ResponsiveImage } from "~/components/responsive-image";
import { RouteError } from "~/components/route-error";
import { yearOf } from "~/lib/dates";
import { pageMeta } from "~/lib/seo";
import { shopShareImage } from "~/settings/storefront.server";
import { pageTakesNoForm } from "~/web/methods";
import { shopOrigin } from "~/web/origin.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/collections";

export function meta({ data }: Route.MetaArgs) {
  return data ? pageMeta(data.seo) : [{ title: "Colecciones" }];
}

export async function loader({ context }: Route.LoaderArgs) {
  const { database, media, settings } = context.get(servicesContext);
  const now = new Date();
  const drops = await listDrops(database.db, { products: false, visibleAt: now });
  const groups = groupByYear(drops, yearOf).map((g) => ({
    year: g.year,
    drops: g.drops.map((d) => dropSummary(media, d, now)),
  }));
  return {
    seo: {
      title: "Colecciones",
      ...pageSeo(shopOrigin(context), settings.current().shop.name, {
        description: "Todas nuestras colecciones de temporada de joyería de oro hecha a mano, año por año.",
        path: "/colecciones",
        // The newest drop with a photo (the brand's share image when none has one).
        image:
          groups.flatMap((g) => g.drops).find((d) => d.image)?.image?.shareSrc ??
          (await shopShareImage(database.db, media, settings.current().storefront.heroImage)),
      }),
    },
    groups,
  };
}

export const action = pageTakesNoForm;

export default function Collections({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="font-serif text-4xl">Colecciones</h1>
      <p className="mt-2 text-ink/70">Colecciones de temporada, en piezas contadas.</p>
      {loaderData.groups.length === 0 && <p className="mt-10">No hay colecciones en esta sección.</p>}
      {loaderData.groups.map((group, g) => (
        <section key={group.year} aria-labelledby={`anio-${group.year}`} className="mt-12">
          <h2
            id={`anio-${group.year}`}
            className="border-b border-sand pb-2 font-serif text-2xl text-gold-700"
          >
            {group.year}
          </h2>
          <ul className="mt-6 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
            {group.drops.map((drop, i) => (
              <li key={drop.id}>
                <article aria-labelledby={`coleccion-${drop.id}`} className="flex h-full flex-col">
                  {drop.image && (
                    // A second way in for a tap on the picture; the 'Ver colección' link below is
                    // the one announced and reached by keyboard.
                    <Link to={drop.href} aria-hidden="true" tabIndex={-1} className="block">
                      <ResponsiveImage
                        image={drop.image}
                        alt=""
                        sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw"
                        priority={g === 0 && i < 2}
                        className="aspect-[16/9] h-auto w-full rounded-lg object-cover"
                      />
                    </Link>
                  )}
                  <h3 id={`coleccion-${drop.id}`} className="mt-4 font-serif text-2xl">
                    {drop.name}
                  </h3>
                  <p className="text-sm text-ink/70">
                    {drop.fechas} · {DROP_TIME_LABELS[drop.archived ? "ended" : drop.state]}
                  </p>
                  <p className="mt-2 flex-1 text-ink/80">{drop.smallDescription || drop.description}</p>
                  <Link
                    to={drop.href}
                    className="mt-4 self-start underline underline-offset-4"
                    aria-label={`Ver colección ${drop.name}`}
                  >
                    Ver colección
                  </Link>
                </article>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError notFoundTitle="Página no encontrada" message="Ocurrió un error al cargar las colecciones." />
  );
}
