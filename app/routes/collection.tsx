import { getDrop } from "~/catalogue/catalogue.server";
import { isDropPurchasable } from "~/catalogue/drop-time";
import { filterProducts, parseFilters } from "~/catalogue/filters";
import { dropSummary, productTile } from "~/catalogue/views.server";
import { FilterBar } from "~/components/filter-bar";
import { ProductTile } from "~/components/product-tile";
import { RouteError } from "~/components/route-error";
import { pageTakesNoForm } from "~/http/methods";
import { isId } from "~/lib/ids";
import { absoluteUrl, shopOrigin } from "~/lib/origin.server";
import { pageMeta } from "~/lib/seo";
import { heldPieces, soldOutIds } from "~/orders/held.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/collection";

export function meta({ data }: Route.MetaArgs) {
  return data ? pageMeta(data.seo) : [{ title: "Drop no encontrado" }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { database, media, config } = context.get(servicesContext);
  // An address that cannot name a drop is not looked up.
  const drop = isId(params.dropId) ? await getDrop(database.db, params.dropId) : null;
  if (!drop) throw new Response("Drop no encontrado", { status: 404 });
  const now = new Date();
  const filters = parseFilters(new URL(request.url).searchParams);
  const shown = filterProducts(drop.products, filters);
  const held = await heldPieces(database.db, isDropPurchasable(drop, now) ? soldOutIds(shown) : []);
  const products = shown.map((p) => productTile(media, drop, p, now, held));
  const origin = shopOrigin(context);
  const summary = dropSummary(media, drop, now);
  return {
    seo: {
      title: drop.name,
      description: drop.smallDescription || drop.description || `Colección ${drop.name}`,
      // Filtered views are the same page for search engines.
      url: `${origin}${summary.href}`,
      image: summary.image ? absoluteUrl(origin, summary.image.src) : null,
      shopName: config.shop.name,
    },
    drop: summary,
    filters,
    products,
  };
}

export const action = pageTakesNoForm;

export default function Collection({ loaderData }: Route.ComponentProps) {
  const { drop, products, filters } = loaderData;
  return (
    <main className="mx-auto max-w-6xl px-4 py-12">
      <p className="text-sm uppercase tracking-widest text-gold-700">
        {drop.state} · {drop.fechas}
      </p>
      <h1 className="mt-1 font-serif text-4xl">{drop.name}</h1>
      <p className="mt-3 max-w-2xl text-ink/80">{drop.description || drop.fullDescription}</p>
      <div className="mt-8">
        <FilterBar filters={filters} resultCount={products.length} />
      </div>
      {products.length === 0 ? (
        <p className="mt-10 text-center text-ink/70">
          No hay productos disponibles con los filtros seleccionados.
        </p>
      ) : (
        <ul className="mt-8 grid grid-cols-2 gap-x-4 gap-y-8 md:grid-cols-3 lg:grid-cols-4">
          {products.map((p) => (
            <li key={p.id}>
              <ProductTile product={p} sizes="(min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw" />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Drop no encontrado" />;
}
