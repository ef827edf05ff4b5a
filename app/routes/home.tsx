import { Link } from "react-router";
import { listDrops } from "~/catalogue/catalogue.server";
import {
  changeInstants,
  currentRunningDrop,
  DROP_TIME_LABELS,
  datesOf,
  dropTimeState,
} from "~/catalogue/drop-time";
import { dropsForHome } from "~/catalogue/storefront";
import { storefrontPage } from "~/catalogue/storefront-page.server";
import { DropBar, OpeningNotice } from "~/components/drop-countdown";
import { Picture } from "~/components/picture";
import { ProductCarousel } from "~/components/product-carousel";
import { ResponsiveImage } from "~/components/responsive-image";
import { RouteError } from "~/components/route-error";
import { useShopClock } from "~/components/shop-clock";
import { WaitlistForm } from "~/components/waitlist-form-lazy";
import { WhatsAppButton } from "~/components/whatsapp-button";
import { BRAND, HERO_IMAGE, HERO_SHARE_IMAGE, PROCESS_IMAGE } from "~/content/brand";
import { pageMeta } from "~/lib/seo";
import { storyImage } from "~/settings/storefront.server";
import { takesSignUps } from "~/waitlist/sign-up-input";
import { pageTakesNoForm } from "~/web/methods";
import { shopOrigin } from "~/web/origin.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/home";

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [{ title: "Ocurrió un error al cargar las colecciones." }];
  return pageMeta({ ...data.seo, title: data.seo.shopName, type: "website" });
}

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const now = new Date();
  const shown = dropsForHome(await listDrops(services.database.db, { visibleAt: now }), now).map((drop) => ({
    drop,
    products: drop.products,
  }));
  const page = await storefrontPage(services, shopOrigin(context), shown, { now, takesSignUps });
  // The story as Configuración tells it ('Tienda en línea'); the brand's copy until the owner edits it.
  const story = services.settings.current().storefront;
  const heroPhoto = await storyImage(
    services.database.db,
    services.media,
    story.heroImage,
    story.heroImageAlt,
  );
  return {
    seo: page.seo({
      description: story.heroText,
      path: "/",
      image: page.drops[0]?.image?.shareSrc ?? heroPhoto?.shareSrc ?? HERO_SHARE_IMAGE,
    }),
    now: now.toISOString(),
    whatsapp: page.shop.whatsapp,
    drops: page.drops,
    // The brand's copy travels with the page's data, not in its JavaScript (home's budget).
    brand: {
      origin: BRAND.origin,
      title: story.heroTitle ?? page.shop.name,
      text: story.heroText,
      story: story.brandStory,
      process: story.processSteps,
      // The owner's photo (WebP widths) or, until there is one, the brand's illustration.
      hero: heroPhoto ? { photo: heroPhoto } : { illustration: HERO_IMAGE },
      processImage: PROCESS_IMAGE,
    },
  };
}

export const action = pageTakesNoForm;

export default function Home({ loaderData }: Route.ComponentProps) {
  const { drops, brand } = loaderData;
  // Each drop's state, and which one the countdown follows, are read on the server's clock and
  // change on their own the second a drop opens or closes.
  const now = new Date(useShopClock(loaderData.now, changeInstants(drops)));
  const states = drops.map((d) => dropTimeState(datesOf(d), now));
  const running = currentRunningDrop(
    drops.map((d) => ({
      ...d,
      ...datesOf(d),
      status: d.archived ? ("archivada" as const) : ("activa" as const),
    })),
    now,
  );
  return (
    <>
      {/* Room at the bottom so the WhatsApp button never hides the last content. */}
      <main className={running ? undefined : "pb-24"}>
        {/* The title and the artwork sit side by side (below each other on phones), never on top
            of each other: the title stays readable whatever the screen's shape. */}
        <section>
          <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:py-16 md:grid-cols-[5fr_6fr] md:items-center">
            <div>
              <h1 className="font-serif text-4xl leading-tight text-balance sm:text-5xl lg:text-6xl">
                {brand.title}
              </h1>
              <p className="mt-4 max-w-lg text-lg text-ink/80">{brand.text}</p>
              <Link
                to={running?.href ?? "/colecciones"}
                className="mt-8 inline-block rounded-full bg-ink px-6 py-3 font-medium text-cream hover:bg-gold-700"
              >
                {running ? `Ver ${running.name}` : "Ver colecciones"}
              </Link>
            </div>
            {brand.hero.photo ? (
              <ResponsiveImage
                image={brand.hero.photo}
                alt={brand.hero.photo.alt}
                sizes="(min-width: 768px) 55vw, 100vw"
                priority
                className="h-auto w-full rounded-lg"
              />
            ) : (
              brand.hero.illustration && (
                <img
                  src={brand.hero.illustration.src}
                  alt={brand.hero.illustration.alt}
                  width={brand.hero.illustration.width}
                  height={brand.hero.illustration.height}
                  fetchPriority="high"
                  className="h-auto w-full rounded-lg"
                />
              )
            )}
          </div>
        </section>

        {drops.map((drop, i) => (
          <section key={drop.id} aria-labelledby={`drop-${drop.id}`} className="border-t border-sand py-14">
            <div className="mx-auto max-w-6xl px-4">
              <div className="grid gap-8 md:grid-cols-2 md:items-center">
                {drop.video ? (
                  <video
                    src={drop.video}
                    poster={drop.image?.src}
                    muted
                    playsInline
                    controls
                    preload="none"
                    className="aspect-video w-full rounded-lg bg-sand"
                    aria-label={`Video de la colección ${drop.name}`}
                  />
                ) : (
                  drop.image && (
                    // The image leads to the collection too; 'Ver colección' beside it is the link
                    // announced and reached by keyboard, so this one is not a second stop.
                    <Link to={drop.href} aria-hidden="true" tabIndex={-1} className="block">
                      <ResponsiveImage
                        image={drop.image}
                        alt=""
                        sizes="(min-width: 768px) 50vw, 100vw"
                        priority={i === 0}
                        className="h-auto w-full rounded-lg"
                      />
                    </Link>
                  )
                )}
                <div>
                  <p className="text-sm uppercase tracking-widest text-gold-700">
                    {DROP_TIME_LABELS[states[i] ?? drop.state]}
                  </p>
                  <h2 id={`drop-${drop.id}`} className="mt-1 font-serif text-3xl sm:text-4xl">
                    {drop.name}
                  </h2>
                  <p className="mt-3 text-lg text-ink/90">{drop.smallDescription}</p>
                  <p className="mt-3 text-ink/70">{drop.fullDescription}</p>
                  {states[i] === "pending" && (
                    <OpeningNotice drop={drop} renderedAt={loaderData.now} className="mt-4" />
                  )}
                  <Link
                    to={drop.href}
                    className="mt-6 inline-block rounded-full border border-ink px-5 py-2.5 font-medium hover:bg-ink hover:text-cream"
                    aria-label={`Ver colección ${drop.name}`}
                  >
                    Ver colección
                  </Link>
                  {/* Without JavaScript it posts to the drop's page, which shows the answer. */}
                  {drop.waitlist && states[i] === "pending" && (
                    <WaitlistForm dropName={drop.name} action={drop.href} compact />
                  )}
                </div>
              </div>
              <div className="mt-10">
                <ProductCarousel
                  products={drop.products}
                  label={`Piezas de ${drop.name}`}
                  moment={{ state: states[i] ?? drop.state, archived: drop.archived }}
                />
              </div>
            </div>
          </section>
        ))}

        <section aria-labelledby="proceso" className="border-t border-sand bg-sand/40 py-16">
          <div className="mx-auto grid max-w-6xl gap-10 px-4 md:grid-cols-2 md:items-center">
            <div>
              <h2 id="proceso" className="font-serif text-3xl">
                Hecho a mano, paso a paso
              </h2>
              <ol className="mt-6 space-y-5">
                {brand.process.map((step, i) => (
                  <li key={`${step.title}|${step.description}`} className="flex gap-4">
                    <span className="grid size-9 shrink-0 place-items-center rounded-full bg-gold-700 font-serif text-cream">
                      {i + 1}
                    </span>
                    <div>
                      <h3 className="font-medium">{step.title}</h3>
                      <p className="text-ink/70">{step.description}</p>
                    </div>
                  </li>
                ))}
              </ol>
            </div>
            <Picture image={brand.processImage} className="rounded-lg" />
          </div>
        </section>

        <section aria-labelledby="marca" className="py-16">
          <div className="mx-auto max-w-3xl px-4 text-center">
            <h2 id="marca" className="font-serif text-3xl">
              {loaderData.seo.shopName}
            </h2>
            <p className="mt-2 text-sm uppercase tracking-widest text-gold-700">{brand.origin}</p>
            <p className="mt-6 text-lg text-ink/80">{brand.story}</p>
            <Link to="/nosotros" className="mt-6 inline-block underline underline-offset-4">
              Conoce nuestra historia
            </Link>
          </div>
        </section>

        {!running && <WhatsAppButton number={loaderData.whatsapp} />}
      </main>
      {running && <DropBar key={running.id} drop={running} renderedAt={loaderData.now} />}
    </>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError notFoundTitle="Página no encontrada" message="Ocurrió un error al cargar las colecciones." />
  );
}
