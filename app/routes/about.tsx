import { useRef } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/components/hydration";
import { Picture } from "~/components/picture";
import { BRAND, HERO_SHARE_IMAGE, PROCESS_VIDEO_POSTER, type ProcessStep, TIMELINE } from "~/content/brand";
import { pageMeta } from "~/lib/seo";
import { absoluteUrl, embedVideoUrl } from "~/lib/urls";
import { type StoryPicture, storyImage, storyPictures } from "~/settings/storefront.server";
import { pageTakesNoForm } from "~/web/methods";
import { shopOrigin } from "~/web/origin.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/about";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { shop, storefront } = services.settings.current();
  const origin = shopOrigin(context);
  // Every picture (an uploaded photo or a brand illustration) in one read.
  const pictures = await storyPictures(services.database.db, services.media, [
    ...storefront.storyCards.map((c) => ({ ref: c.image, alt: c.imageAlt })),
    ...storefront.workshopPairs.flatMap((p) => [
      { ref: p.before, alt: p.beforeAlt },
      { ref: p.after, alt: p.afterAlt },
    ]),
  ]);
  const heroPhoto = await storyImage(
    services.database.db,
    services.media,
    storefront.heroImage,
    storefront.heroImageAlt,
  );
  const cardCount = storefront.storyCards.length;
  return {
    cards: storefront.storyCards.map((c, i) => ({
      year: c.year,
      title: c.title,
      text: c.text,
      image: pictures[i] ?? null,
    })),
    timeline: storefront.timeline,
    // The words beside the timeline tell the brand's own ten years: only while it is the brand's.
    timelineIsBrands: JSON.stringify(storefront.timeline) === JSON.stringify(TIMELINE),
    pairs: storefront.workshopPairs
      .map((p, i) => ({
        title: p.title,
        caption: p.caption,
        before: pictures[cardCount + 2 * i] ?? null,
        after: pictures[cardCount + 2 * i + 1] ?? null,
      }))
      // A pair whose photo is gone is left out rather than shown half.
      .filter((p) => p.before && p.after),
    origin,
    shopName: shop.name,
    // Configuración's 'Tienda en línea': the home's hero text, the brand's story and its steps.
    tagline: storefront.heroText,
    story: storefront.brandStory,
    process: storefront.processSteps,
    // The hero as the home shows it: the owner's photo (its JPEG copy) or the brand's drawing.
    ogImage: absoluteUrl(origin, heroPhoto?.shareSrc ?? HERO_SHARE_IMAGE),
    // Only http(s): Configuración and the environment check it. A YouTube or Vimeo page's address
    // as its player's (those pages cannot be framed).
    processVideoUrl: shop.processVideoUrl ? embedVideoUrl(shop.processVideoUrl) : null,
  };
}

export function meta({ data }: Route.MetaArgs) {
  if (!data) return [{ title: "Nosotros" }];
  return pageMeta({
    title: "Nosotros",
    description: `${data.shopName}: joyería de oro hecha a mano en Oaxaca desde 2016. Nuestra historia, el taller y cómo hacemos cada pieza.`,
    url: `${data.origin}/nosotros`,
    image: data.ogImage,
    shopName: data.shopName,
  });
}

export const action = pageTakesNoForm;

export default function About({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-6xl px-4">
      <header className="mx-auto max-w-3xl py-12 text-center sm:py-16">
        <p className="text-xs uppercase tracking-[0.2em] text-gold-600 sm:text-sm">{BRAND.origin}</p>
        <h1 className="mt-3 font-serif text-4xl text-gold-700 sm:text-5xl">Nosotros</h1>
        <p className="mt-4 font-serif text-xl text-ink sm:text-2xl">{loaderData.tagline}</p>
        <p className="mt-6 text-left leading-relaxed text-ink/80 sm:text-center">{loaderData.story}</p>
      </header>

      {loaderData.cards.length > 0 && <StoryCards cards={loaderData.cards} />}
      {loaderData.timeline.length > 0 && (
        <Timeline entries={loaderData.timeline} brands={loaderData.timelineIsBrands} />
      )}
      {loaderData.pairs.length > 0 && <BeforeAfter pairs={loaderData.pairs} />}
      <ProcessVideo url={loaderData.processVideoUrl} process={loaderData.process} />

      <section aria-labelledby="colecciones-cta" className="border-t border-sand py-12 text-center">
        <h2 id="colecciones-cta" className="font-serif text-2xl">
          Cada colección sale una vez y en pocas piezas.
        </h2>
        <Link
          to="/colecciones"
          className="mt-6 inline-block rounded-full bg-gold-700 px-6 py-3 text-sm font-medium tracking-wide text-cream transition-colors hover:bg-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-500"
        >
          Ver las colecciones
        </Link>
      </section>
    </main>
  );
}

function SectionHeading({ id, eyebrow, title }: { id: string; eyebrow: string; title: string }) {
  return (
    <div>
      <p className="text-xs uppercase tracking-[0.2em] text-gold-600 sm:text-sm">{eyebrow}</p>
      <h2 id={id} className="mt-2 font-serif text-3xl sm:text-4xl">
        {title}
      </h2>
    </div>
  );
}

type Cards = Route.ComponentProps["loaderData"]["cards"];
type Entries = Route.ComponentProps["loaderData"]["timeline"];
type Pairs = Route.ComponentProps["loaderData"]["pairs"];

/** A year as a <time> when it is one (a card may say 'Hoy'). */
function Year({ year }: { year: string }) {
  return /^\d{4}$/.test(year) ? <time dateTime={year}>{year}</time> : year;
}

/** An uploaded photo (WebP widths) or a brand illustration, at full width without layout shift. */
function StoryImage({
  image,
  eager,
  className = "",
}: {
  image: StoryPicture;
  eager?: boolean;
  className?: string;
}) {
  if (!image.srcSet) return <Picture image={image} eager={eager} className={className} />;
  return (
    <img
      src={image.src}
      srcSet={image.srcSet}
      sizes="(min-width: 1024px) 33vw, 80vw"
      alt={image.alt}
      width={image.width}
      height={image.height}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className={`h-auto w-full bg-sand ${className}`}
    />
  );
}

function StoryCards({ cards }: { cards: Cards }) {
  const scroller = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  const scrollByPage = (direction: 1 | -1) => {
    const el = scroller.current;
    if (!el) return;
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    el.scrollBy({ left: direction * el.clientWidth * 0.8, behavior: reduceMotion ? "auto" : "smooth" });
  };
  const arrowClass =
    "grid h-10 w-10 place-items-center rounded-full border border-gold-500/60 text-gold-700 transition-colors hover:bg-sand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-500";

  return (
    <section aria-labelledby="historia" className="border-t border-sand py-12">
      <div className="flex items-end justify-between gap-4">
        <SectionHeading id="historia" eyebrow={`Desde ${cards[0]?.year ?? ""}`} title="Nuestra historia" />
        <div className="hidden gap-2 sm:flex">
          <button
            type="button"
            className={arrowClass}
            aria-controls="historia-tarjetas"
            aria-label="Ver etapas anteriores"
            disabled={!hydrated}
            onClick={() => scrollByPage(-1)}
          >
            <span aria-hidden="true">←</span>
          </button>
          <button
            type="button"
            className={arrowClass}
            aria-controls="historia-tarjetas"
            aria-label="Ver etapas siguientes"
            disabled={!hydrated}
            onClick={() => scrollByPage(1)}
          >
            <span aria-hidden="true">→</span>
          </button>
        </div>
      </div>
      <p className="mt-3 text-sm text-ink/75 sm:hidden">Desliza para recorrer cada etapa.</p>

      {/* biome-ignore lint/a11y/useSemanticElements: the scroll container is a named region inside this section */}
      <div
        id="historia-tarjetas"
        ref={scroller}
        role="region"
        aria-label="Tarjetas de nuestra historia, desplazables horizontalmente"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard (WCAG 2.1.1)
        tabIndex={0}
        className="-mx-4 mt-6 snap-x snap-mandatory scroll-px-4 overflow-x-auto px-4 pb-4 [scrollbar-color:var(--color-gold-500)_transparent] [scrollbar-width:thin] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-500 sm:mx-0 sm:scroll-px-0 sm:px-0"
      >
        <ol className="flex gap-4">
          {cards.map((card, i) => (
            <li
              key={`${card.year}-${card.title}`}
              className="w-[82%] max-w-[20rem] shrink-0 snap-start overflow-hidden rounded-2xl border border-sand bg-white/60 sm:w-72 lg:w-80"
            >
              <article aria-labelledby={`historia-${i}`}>
                {card.image && <StoryImage image={card.image} eager={i === 0} />}
                <div className="p-5">
                  <p className="font-serif text-2xl text-gold-700">
                    <Year year={card.year} />
                  </p>
                  <h3 id={`historia-${i}`} className="mt-1 font-serif text-xl">
                    {card.title}
                  </h3>
                  <p className="mt-2 text-sm leading-relaxed text-ink/80">{card.text}</p>
                </div>
              </article>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function Timeline({ entries, brands }: { entries: Entries; brands: boolean }) {
  const first = entries[0]?.year ?? "";
  const last = entries[entries.length - 1]?.year ?? "";
  return (
    <section aria-labelledby="linea-del-tiempo" className="border-t border-sand py-12">
      <div className="lg:grid lg:grid-cols-[1fr_2fr] lg:gap-10">
        <div>
          <SectionHeading
            id="linea-del-tiempo"
            eyebrow={first === last ? first : `${first} – ${last}`}
            title="Línea del tiempo"
          />
          {brands && (
            <p className="mt-3 max-w-sm leading-relaxed text-ink/75">
              Diez años, de una mesa en un cuarto prestado a un taller en Oaxaca y un estudio en la Ciudad de
              México.
            </p>
          )}
        </div>
        <ol className="mt-8 border-l-2 border-gold-500/30 pl-6 sm:ml-2 sm:pl-8 lg:mt-2">
          {entries.map((item) => (
            <li key={`${item.year}-${item.title}-${item.text}`} className="relative pb-8 last:pb-0">
              <span
                aria-hidden="true"
                className="absolute top-1.5 -left-[calc(1.5rem+7px)] h-3 w-3 rounded-full bg-gold-500 ring-4 ring-cream sm:-left-[calc(2rem+7px)]"
              />
              <div className="sm:grid sm:grid-cols-[5rem_1fr] sm:gap-6">
                <p className="font-serif text-xl text-gold-700">
                  <Year year={item.year} />
                </p>
                <div>
                  <h3 className="font-medium">{item.title}</h3>
                  <p className="mt-1 text-ink/75">{item.text}</p>
                </div>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function BeforeAfter({ pairs }: { pairs: Pairs }) {
  return (
    <section aria-labelledby="antes-despues" className="border-t border-sand py-12">
      <SectionHeading id="antes-despues" eyebrow="En el taller" title="Antes y después" />
      <div className="mt-8 space-y-12">
        {pairs.map((pair, i) => (
          <article
            key={`${pair.title}-${pair.caption}`}
            aria-labelledby={`antes-despues-${i}`}
            className="lg:grid lg:grid-cols-[1fr_2fr] lg:items-center lg:gap-10"
          >
            <div>
              <h3 id={`antes-despues-${i}`} className="font-serif text-2xl">
                {pair.title}
              </h3>
              <p className="mt-2 leading-relaxed text-ink/75">{pair.caption}</p>
            </div>
            <div className="mt-5 grid grid-cols-2 gap-2 sm:gap-4 lg:mt-0">
              {[
                { label: "Antes", image: pair.before },
                { label: "Después", image: pair.after },
              ].map(({ label, image }) => (
                <figure key={label}>
                  {image && <StoryImage image={image} className="rounded-xl" />}
                  <figcaption className="mt-2 text-xs uppercase tracking-[0.2em] text-gold-700 sm:text-sm">
                    {label}
                  </figcaption>
                </figure>
              ))}
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}

function isVideoFile(url: string): boolean {
  return /\.(mp4|webm|m4v|mov)$/i.test(new URL(url).pathname);
}

function ProcessVideo({ url, process }: { url: string | null; process: ProcessStep[] }) {
  return (
    <section aria-labelledby="proceso" className="border-t border-sand py-12">
      <SectionHeading id="proceso" eyebrow="Hecho a mano" title="Así hacemos cada pieza" />
      <div className="mt-8 grid gap-8 lg:grid-cols-[2fr_1fr] lg:items-start">
        {url && isVideoFile(url) ? (
          // A video file (MP4/WebM) plays in the page; anything else (YouTube, Vimeo) is their player.
          <video
            src={url}
            controls
            preload="none"
            poster={PROCESS_VIDEO_POSTER.src}
            className="aspect-video w-full rounded-2xl bg-sand"
          >
            <track kind="captions" />
          </video>
        ) : url ? (
          <div className="aspect-video overflow-hidden rounded-2xl bg-sand">
            <iframe
              src={url}
              title="Video: el proceso de una pieza en nuestro taller de Oaxaca"
              loading="lazy"
              allow="encrypted-media; fullscreen; picture-in-picture"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
              className="h-full w-full border-0"
            />
          </div>
        ) : (
          // No video yet: the workshop's illustration, with no promise of one.
          <Picture image={PROCESS_VIDEO_POSTER} className="rounded-2xl" />
        )}
        <ol className="space-y-5">
          {process.map((step, i) => (
            <li key={`${step.title}|${step.description}`} className="flex gap-4">
              <span
                aria-hidden="true"
                className="grid h-8 w-8 shrink-0 place-items-center rounded-full border border-gold-500/60 font-serif text-gold-700"
              >
                {i + 1}
              </span>
              <div>
                <h3 className="font-medium">{step.title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-ink/75">{step.description}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-3xl">Algo salió mal</h1>
      <p className="mt-4 text-ink/70">
        No pudimos cargar nuestra historia. Intenta de nuevo en unos momentos.
      </p>
      <Link to="/" className="mt-8 inline-block underline">
        Volver al inicio
      </Link>
    </main>
  );
}
