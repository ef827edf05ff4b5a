import { getDrop } from "~/catalogue/catalogue.server";
import { changeInstants, DROP_TIME_LABELS, datesOf, dropTimeState } from "~/catalogue/drop-time";
import {
  activeFilterCount,
  filterProducts,
  optionChoices,
  parseFilters,
  parseSort,
  sortProducts,
  withinChoices,
} from "~/catalogue/filters";
import { storefrontPage } from "~/catalogue/storefront-page.server";
import { DropBar, OpeningNotice } from "~/components/drop-countdown";
import { FilterBar } from "~/components/filter-bar";
import { PreviewBanner } from "~/components/preview-banner-lazy";
import { ProductTile } from "~/components/product-tile";
import { RouteError } from "~/components/route-error";
import { useShopClock } from "~/components/shop-clock";
import { WaitlistForm } from "~/components/waitlist-form-lazy";
import { isId } from "~/lib/ids";
import { pageMeta } from "~/lib/seo";
import { takesSignUps } from "~/waitlist/sign-up-input";
import { shopOrigin } from "~/web/origin.server";
import { isPreview, PREVIEW_PARAM, previewHref, previewNotice } from "~/web/preview.server";
import { servicesContext } from "~/web/services";
import { waitlistHeaders, waitlistSignUp } from "~/web/waitlist-sign-up.server";
import type { Route } from "./+types/collection";

export function meta({ data }: Route.MetaArgs) {
  return data ? pageMeta(data.seo) : [{ title: "Drop no encontrado" }];
}

export async function loader({ context, request, params, url }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const now = new Date();
  // The public sees a drop once published and visible; an administrator's preview sees drafts too.
  const preview = isPreview(url, context);
  // An address that cannot name a drop is not looked up.
  const drop = isId(params.dropId)
    ? await getDrop(services.database.db, params.dropId, preview ? {} : { visibleAt: now })
    : null;
  if (!drop) throw new Response("Drop no encontrado", { status: 404 });
  const query = new URL(request.url).searchParams;
  // The 'Talla' and 'Largo' groups list what the collection's pieces come in; other values are ignored.
  const choices = optionChoices(drop.products);
  const filters = withinChoices(parseFilters(query), choices);
  const sort = parseSort(query);
  const shown = { drop, products: sortProducts(filterProducts(drop.products, filters), sort) };
  const page = await storefrontPage(services, shopOrigin(context), [shown], { now, takesSignUps });
  const [view] = page.drops;
  if (!view) throw new Error("The page shows its drop");
  const { waitlist, products, ...summary } = view;
  return {
    seo: {
      title: drop.name,
      ...page.seo({
        description: drop.smallDescription || drop.description || `Colección ${drop.name}`,
        // Filtered views are the same page for search engines.
        path: summary.href,
        image: summary.image?.shareSrc ?? null,
      }),
    },
    now: now.toISOString(),
    drop: summary,
    waitlist,
    filters,
    choices,
    sort,
    products: preview ? products.map((p) => ({ ...p, href: previewHref(p.href) })) : products,
    preview: preview ? previewNotice(drop.visibleFrom, now) : null,
    // The preview's parameter, kept by the filters and the order (they replace the address's query).
    carried: preview ? ([[PREVIEW_PARAM, "1"]] as [string, string][]) : [],
  };
}

// The page's only form: 'Avísame' while the drop is upcoming (decision 16).
export const action = waitlistSignUp;
export const headers = waitlistHeaders;

export default function Collection({ loaderData, actionData }: Route.ComponentProps) {
  const { drop, products, filters, choices, sort } = loaderData;
  // The drop opens and closes on the page itself, on the server's clock.
  const state = dropTimeState(datesOf(drop), new Date(useShopClock(loaderData.now, changeInstants([drop]))));
  const moment = { state, archived: drop.archived };
  return (
    <>
      {loaderData.preview && <PreviewBanner text={loaderData.preview.text} dropId={drop.id} />}
      <main className="mx-auto max-w-6xl px-4 py-12">
        <p className="text-sm uppercase tracking-widest text-gold-700">
          {drop.archived ? DROP_TIME_LABELS.ended : DROP_TIME_LABELS[state]} · {drop.fechas}
        </p>
        <h1 className="mt-1 font-serif text-4xl">{drop.name}</h1>
        <p className="mt-3 max-w-2xl text-ink/80">{drop.description || drop.fullDescription}</p>
        {state === "pending" && !drop.archived && (
          <OpeningNotice drop={drop} renderedAt={loaderData.now} className="mt-6 max-w-2xl" />
        )}
        {loaderData.waitlist && state === "pending" && (
          <div className="max-w-xl">
            <WaitlistForm dropName={drop.name} fallback={actionData} />
          </div>
        )}
        <div className="mt-8">
          <FilterBar
            filters={filters}
            choices={choices}
            sort={sort}
            resultCount={products.length}
            carried={loaderData.carried}
          />
        </div>
        {/* Each tile's name is a third-level heading: the list of pieces has its own, unseen. */}
        <h2 className="sr-only">Piezas de {drop.name}</h2>
        {products.length === 0 ? (
          <p className="mt-10 text-center text-ink/70">
            {activeFilterCount(filters) > 0
              ? "No hay productos disponibles con los filtros seleccionados."
              : "Esta colección todavía no tiene piezas."}
          </p>
        ) : (
          <ul className="mt-8 grid grid-cols-2 gap-x-4 gap-y-8 md:grid-cols-3 lg:grid-cols-4">
            {products.map((p) => (
              <li key={p.id}>
                <ProductTile
                  product={p}
                  sizes="(min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw"
                  moment={moment}
                />
              </li>
            ))}
          </ul>
        )}
      </main>
      {state === "running" && !drop.archived && <DropBar drop={drop} renderedAt={loaderData.now} />}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Drop no encontrado" />;
}
