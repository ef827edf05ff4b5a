import { useState } from "react";
import { Link, useLocation } from "react-router";
import { type CartOption, checkAdd } from "~/cart/cart";
import { getDrop } from "~/catalogue/catalogue.server";
import { changeInstants, DROP_TIME_LABELS, datesOf, dropTimeState } from "~/catalogue/drop-time";
import { metalStructuredData } from "~/catalogue/metal";
import { heldPerValue } from "~/catalogue/options.server";
import { runningDropLink } from "~/catalogue/running-drop.server";
import { pieceLabel, productTileLabel, stockText } from "~/catalogue/storefront";
import { storefrontPage } from "~/catalogue/storefront-page.server";
import { productHref } from "~/catalogue/views.server";
import { useCart } from "~/components/cart/cart-context";
import { usePrefetchCartDrawer } from "~/components/cart/lazy-cart-drawer";
import { DropBar, OpeningNotice } from "~/components/drop-countdown";
import { checkedValue, useChoicesBeforeHydration, useHydrated } from "~/components/hydration";
import { MetalFacts } from "~/components/metal-facts";
import { PreviewBanner } from "~/components/preview-banner-lazy";
import { ProductGallery } from "~/components/product-gallery";
import { ProductTile } from "~/components/product-tile";
import { RouteError } from "~/components/route-error";
import { useShopClock } from "~/components/shop-clock";
import { type PickerValue, SizePicker } from "~/components/size-picker";
import { RestockForm, WaitlistForm } from "~/components/waitlist-form-lazy";
import type { OptionName } from "~/db/taxonomy";
import { isId } from "~/lib/ids";
import { formatMXN } from "~/lib/money";
import { pageMeta } from "~/lib/seo";
import { imageView, variantUrl } from "~/media/media.server";
import { installmentsFor } from "~/settings/installments";
import { takesSignUps } from "~/waitlist/sign-up-input";
import { shopOrigin } from "~/web/origin.server";
import { isPreview, previewHref, previewNotice } from "~/web/preview.server";
import { servicesContext } from "~/web/services";
import { waitlistHeaders, waitlistSignUp } from "~/web/waitlist-sign-up.server";
import type { Route } from "./+types/product";

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [{ title: "Producto no encontrado." }];
  const { product, seo } = data;
  return [
    ...pageMeta({ ...seo, type: "product" }),
    { property: "product:price:amount", content: (product.priceCents / 100).toFixed(2) },
    { property: "product:price:currency", content: "MXN" },
    // Built by the loader: its code (and the metal's words) stays off the page's JavaScript.
    { "script:ld+json": data.structuredData },
  ];
}

/** Other pieces of the drop a product page shows ('Más piezas de …'). */
const MORE_PIECES = 4;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const now = new Date();
  // The public sees a drop once published and visible; an administrator's preview sees drafts too.
  const preview = isPreview(url, context);
  // An address that cannot name a product is not looked up.
  const drop =
    isId(params.dropId) && isId(params.productId)
      ? await getDrop(services.database.db, params.dropId, {
          extraImages: true,
          ...(preview ? {} : { visibleAt: now }),
        })
      : null;
  const product = drop?.products.find((p) => p.id === params.productId);
  if (!drop || !product) throw new Response("Producto no encontrado.", { status: 404 });
  // More of the drop: the pieces after this one in the drop's order (then from its start), so
  // neighbouring pages show different ones. Read with the page, so their stock is as fresh as its own.
  const at = drop.products.indexOf(product);
  const others = [...drop.products.slice(at + 1), ...drop.products.slice(0, at)].slice(0, MORE_PIECES);
  const page = await storefrontPage(
    services,
    shopOrigin(context),
    [{ drop, products: [product, ...others] }],
    {
      now,
      takesSignUps,
    },
  );
  const running = await runningDropLink(services.database.db, now);
  const [view] = page.drops;
  if (!view) throw new Error("The page shows its drop");
  const held = page.held.get(product.id) ?? 0;
  // A size at 0 held by someone's unpaid checkout is 'Apartada', not gone for good.
  const heldValues = await heldPerValue(
    services.database.db,
    product.option?.values.filter((v) => v.stock <= 0).map((v) => v.id) ?? [],
  );
  const images = [product.image, ...product.extraImages]
    .filter((m) => m !== null)
    .map((m) => imageView(services.media, m));
  const shown = {
    seo: {
      title: product.name,
      ...page.seo({
        description:
          product.description || `${product.categoria} de ${product.material.toLowerCase()}, hecho a mano.`,
        path: productHref(drop.id, product.id),
        image: images[0]?.shareSrc ?? null,
      }),
      images: images.map((i) => page.absolute(i.src)),
    },
    now: now.toISOString(),
    // 'Hasta N meses sin intereses' when the owner offers them and one piece's price qualifies.
    installments: installmentsFor(services.settings.current().installments, product.priceCents),
    drop: {
      id: view.id,
      name: view.name,
      href: preview ? previewHref(view.href) : view.href,
      maxPerOrder: drop.maxPerOrder,
      startsAt: view.startsAt,
      endsAt: view.endsAt,
      archived: view.archived,
      opensText: view.opensText,
    },
    product: {
      id: product.id,
      name: product.name,
      description: product.description,
      categoria: product.categoria,
      material: product.material,
      priceCents: product.priceCents,
      price: formatMXN(product.priceCents),
      stock: product.stock,
      held,
      stockText: stockText(product.stock, held),
      thumbnail: product.image ? variantUrl(services.media, product.image, 0) : null,
      metal: product.metal,
      editionSize: product.editionSize,
      option: product.option && {
        name: product.option.name,
        values: product.option.values.map((v): PickerValue => ({ ...v, held: heldValues.get(v.id) ?? 0 })),
      },
    },
    images,
    more: view.products.slice(1).map((tile) => (preview ? { ...tile, href: previewHref(tile.href) } : tile)),
    /** The drop on sale now, when it is another one: a way on from an ended or sold-out piece. */
    runningDrop: running && running.id !== drop.id ? running : null,
    waitlist: view.waitlist,
    preview: preview ? previewNotice(drop.visibleFrom, now) : null,
    /** Null exactly when the piece could be bought at render time (the page follows the clock). */
    label: productTileLabel(drop, product.stock, now, held),
  };
  return { ...shown, structuredData: structuredData(shown) };
}

/** schema.org's Product for the page (search engines read it from the page's head). */
function structuredData({
  seo,
  product,
  label,
}: {
  seo: { images: string[]; shopName: string; url: string };
  product: {
    name: string;
    description: string;
    categoria: string;
    material: string;
    priceCents: number;
    metal: Parameters<typeof metalStructuredData>[0];
  };
  label: unknown;
}) {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    image: seo.images,
    category: product.categoria,
    material: product.material,
    // "Oro amarillo de 14 k" in place of the colour alone, and the weight in grams, when known.
    ...metalStructuredData(product.metal, product.material),
    brand: { "@type": "Brand", name: seo.shopName },
    offers: {
      "@type": "Offer",
      url: seo.url,
      priceCurrency: "MXN",
      price: (product.priceCents / 100).toFixed(2),
      availability: `https://schema.org/${label === null ? "InStock" : "OutOfStock"}`,
    },
  };
}

// The page's only form: 'Avísame' while the drop is upcoming (decision 16).
export const action = waitlistSignUp;
export const headers = waitlistHeaders;

/**
 * Keyed by the piece: going from one piece to another ('Más piezas de …') is a new page, not the
 * last one's quantity, size and message on another piece.
 */
export default function ProductRoute(props: Route.ComponentProps) {
  return <ProductPage key={props.loaderData.product.id} {...props} />;
}

function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, drop, images } = loaderData;
  const { cart, add, setShowCart } = useCart();
  // Buyable from the second the drop opens until the second it ends, on the server's clock.
  const state = dropTimeState(datesOf(drop), new Date(useShopClock(loaderData.now, changeInstants([drop]))));
  const label = pieceLabel(state, drop.archived, product.stock, product.held);
  // 'Agregar al carrito' opens the drawer: its code is fetched once this page is idle.
  usePrefetchCartDrawer(label === null);
  const [quantity, setQuantity] = useState(1);
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sizes = useSizeChoice(product.option);
  const hydrated = useHydrated();
  const stock = sizes.chosen ? sizes.chosen.stock : product.stock;
  // At most what is in stock (of the size chosen), and the drop's 'Máximo N por persona'.
  const most = Math.max(1, Math.min(stock, drop.maxPerOrder ?? Number.POSITIVE_INFINITY));
  const clamp = (n: number) => Math.min(Math.max(1, Math.floor(n) || 1), most);
  const amount = Math.min(quantity, most);
  // A size tapped before the page's code ran counts as if tapped after.
  const addForm = useChoicesBeforeHydration<HTMLFormElement>((form) => {
    const size = checkedValue(form, "talla");
    if (size && size !== sizes.chosen?.id) sizes.choose(size);
  });
  // 'Avísame si vuelve' (decision 46): while the drop is on sale, for the piece sold out, or for
  // its sizes sold out.
  const soldOutSizes = product.option?.values.filter((v) => v.stock <= 0) ?? [];
  const restock = state === "running" && !drop.archived && (product.stock <= 0 || soldOutSizes.length > 0);
  const restockForm = (
    <RestockForm
      dropName={drop.name}
      option={product.option?.name ?? null}
      soldOutSizes={soldOutSizes}
      someLeft={product.stock > 0}
      fallback={actionData}
    />
  );

  function addToCart(event: React.FormEvent) {
    event.preventDefault();
    const option = product.option;
    if (option && !sizes.chosen) {
      sizes.setError(`Elige tu ${option.name === "Talla" ? "talla" : "largo"}.`);
      return;
    }
    const chosen: CartOption | undefined =
      option && sizes.chosen
        ? { id: sizes.chosen.id, name: option.name, value: sizes.chosen.value, stock: sizes.chosen.stock }
        : undefined;
    const item = {
      id: product.id,
      name: product.name,
      priceCents: product.priceCents,
      stock: product.stock,
      image: product.thumbnail,
    };
    // The stock, and the drop's 'Máximo N por persona' over all its pieces in the cart: refused
    // here, in the shopper's words, rather than first at 'Pagar'.
    const refusal = checkAdd(cart, item, amount, drop, chosen);
    if (refusal) {
      setError(refusal);
      return;
    }
    setError(null);
    add(item, drop.id, amount, drop.maxPerOrder, chosen);
    setShowCart(true);
  }

  return (
    <>
      {loaderData.preview && <PreviewBanner text={loaderData.preview.text} dropId={drop.id} />}
      {/* A phone's first screen (360 × 740) holds the first photo, the name, the price and 'Agregar
          al carrito' above the drop's bar (tests/e2e/first-screen.spec.ts): the page's top is
          tight on phones, the photo is shorter there, and the long description comes after. */}
      <main className="mx-auto max-w-6xl px-4 pt-3 pb-8 sm:py-8">
        <div className="flex flex-wrap items-baseline justify-between gap-x-2">
          <Link to={drop.href} className="text-sm underline underline-offset-4">
            ← Volver a {drop.name}
          </Link>
          <p className="text-sm uppercase tracking-widest text-gold-700" data-testid="drop-state">
            {drop.archived ? DROP_TIME_LABELS.ended : DROP_TIME_LABELS[state]}
          </p>
        </div>
        <div className="mt-3 grid gap-4 sm:mt-6 md:grid-cols-2 md:gap-10">
          <ProductGallery images={images} name={product.name} />

          <div>
            <p className="text-xs uppercase tracking-widest text-gold-700 sm:text-sm">
              {product.categoria} · {product.material}
            </p>
            <h1 className="mt-1 font-serif text-3xl leading-tight sm:text-4xl">{product.name}</h1>
            <div className="mt-1 flex flex-wrap items-baseline justify-between gap-x-4 sm:mt-3 sm:block">
              <p className="text-2xl" data-testid="price">
                {product.price}
              </p>
              <p className="text-sm text-ink/70 sm:mt-2" data-testid="stock">
                {sizes.chosen ? stockText(sizes.chosen.stock, sizes.chosen.held) : product.stockText}
              </p>
            </div>
            {loaderData.installments !== null && (
              <p className="text-sm text-gold-700 sm:mt-1" data-testid="installments">
                Hasta {loaderData.installments} meses sin intereses
              </p>
            )}
            {drop.maxPerOrder !== null && (
              <p className="text-sm text-ink/70 sm:mt-1">Máximo {drop.maxPerOrder} por persona</p>
            )}

            {/* Product information, the sizes and the add button come before the long text. */}
            {label === null ? (
              <form ref={addForm} onSubmit={addToCart} className="mt-3 space-y-3 sm:mt-8 sm:space-y-4">
                {product.option && (
                  <SizePicker
                    option={product.option.name}
                    values={product.option.values}
                    chosen={sizes.chosen?.id ?? null}
                    onChoose={(id) => {
                      sizes.choose(id);
                      setError(null);
                    }}
                    error={sizes.error}
                  />
                )}
                <div className="flex flex-wrap items-end gap-3 sm:block">
                  <div>
                    {/* On a phone the stepper speaks for itself: its label is for screen readers. */}
                    <label htmlFor="cantidad" className="sr-only text-sm font-medium sm:not-sr-only sm:block">
                      Cantidad
                    </label>
                    <div className="flex items-center gap-1.5 sm:mt-2 sm:gap-2">
                      <button
                        type="button"
                        onClick={() => setQuantity(clamp(amount - 1))}
                        disabled={!hydrated || amount <= 1}
                        className="size-11 rounded border border-ink/20 disabled:opacity-40"
                        aria-label="Uno menos"
                      >
                        −
                      </button>
                      <input
                        id="cantidad"
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={most}
                        // What she types stays as typed (an empty field while she writes "2"), and
                        // counts once it is a number; leaving the field shows the amount taken.
                        value={typed ?? amount}
                        onChange={(e) => {
                          setTyped(e.target.value);
                          if (e.target.value !== "") setQuantity(clamp(Number(e.target.value)));
                        }}
                        onBlur={() => setTyped(null)}
                        className="h-11 w-12 rounded border border-ink/20 bg-white text-center sm:w-16"
                      />
                      <button
                        type="button"
                        onClick={() => setQuantity(clamp(amount + 1))}
                        disabled={!hydrated || amount >= most}
                        className="size-11 rounded border border-ink/20 disabled:opacity-40"
                        aria-label="Uno más"
                      >
                        +
                      </button>
                    </div>
                  </div>
                  {/* Until the page's code runs, a press would only reload the page: it waits. */}
                  <button
                    type="submit"
                    disabled={!hydrated}
                    className="min-h-11 min-w-40 flex-1 rounded-full bg-ink px-4 py-2.5 font-medium text-cream hover:bg-gold-700 sm:mt-4 sm:w-full sm:py-3"
                  >
                    Agregar al carrito
                  </button>
                </div>
                {error && (
                  <p role="alert" className="rounded bg-red-50 px-3 py-2 text-sm text-red-800">
                    {error}
                  </p>
                )}
              </form>
            ) : restock ? null : (
              <p className="mt-4 rounded-lg bg-sand px-4 py-3 font-medium sm:mt-8">{label}</p>
            )}
            {restock && label !== null && restockForm}
            {state === "pending" && !drop.archived && (
              <OpeningNotice drop={drop} renderedAt={loaderData.now} className="mt-4" />
            )}
            {loaderData.waitlist && state === "pending" && (
              <WaitlistForm dropName={drop.name} fallback={actionData} compact />
            )}
            {product.description && <p className="mt-6 text-ink/80">{product.description}</p>}
            <MetalFacts facts={product.metal} editionSize={product.editionSize} />
          </div>
        </div>
      </main>
      {state === "running" && !drop.archived && <DropBar drop={drop} renderedAt={loaderData.now} />}
      {/* After the drop's bar, which sticks to the bottom of a phone's screen until here: nothing
          below can slip under it. */}
      <div className="mx-auto max-w-6xl px-4 pb-8">
        {/* Other sizes are on sale: the form for the sold-out ones. */}
        {restock && label === null && <div className="max-w-xl">{restockForm}</div>}
        {loaderData.more.length > 0 && (
          <section aria-labelledby="mas-piezas" className="mt-12">
            <div className="flex flex-wrap items-baseline justify-between gap-x-4">
              <h2 id="mas-piezas" className="font-serif text-2xl">
                Más piezas de {drop.name}
              </h2>
              <Link
                to={drop.href}
                className="inline-flex min-h-11 items-center text-sm underline underline-offset-4"
              >
                Ver toda la colección
              </Link>
            </div>
            <div className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
              {loaderData.more.map((piece) => (
                <ProductTile
                  key={piece.id}
                  product={piece}
                  sizes="(min-width: 640px) 25vw, 50vw"
                  moment={{ state, archived: drop.archived }}
                />
              ))}
            </div>
          </section>
        )}
        {loaderData.runningDrop && (
          <aside
            aria-label="Ahora a la venta"
            className="mt-10 rounded-lg bg-sand/60 px-4 py-3"
            data-testid="running-drop"
          >
            Ahora a la venta:{" "}
            <Link to={loaderData.runningDrop.href} className="font-medium underline underline-offset-4">
              {loaderData.runningDrop.name}
            </Link>
          </aside>
        )}
      </div>
    </>
  );
}

/**
 * The size chosen on the page. A shared link's `?talla=7` (or `?largo=45 cm`) opens with it
 * chosen when it is in stock; choosing another writes it to the address without a navigation.
 */
function useSizeChoice(option: { name: OptionName; values: PickerValue[] } | null) {
  const param = option?.name === "Largo" ? "largo" : "talla";
  const { search } = useLocation();
  const [chosenId, setChosenId] = useState<string | null>(() => {
    const asked = new URLSearchParams(search).get(param);
    return option?.values.find((v) => v.value === asked && v.stock > 0)?.id ?? null;
  });
  const [error, setError] = useState<string | null>(null);
  const chosen = option?.values.find((v) => v.id === chosenId && v.stock > 0) ?? null;
  function choose(id: string) {
    const value = option?.values.find((v) => v.id === id);
    if (!value) return;
    setChosenId(id);
    setError(null);
    const url = new URL(window.location.href);
    url.searchParams.set(param, value.value);
    // The router's own entry state is kept: only the address changes.
    window.history.replaceState(window.history.state, "", url);
  }
  return { chosen, choose, error, setError };
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Producto no encontrado." />;
}
