import { listDrops } from "~/catalogue/catalogue.server";
import { DROP_TIME_LABELS, dropTimeState } from "~/catalogue/drop-time";
import { dropsForHome } from "~/catalogue/storefront";
import { formatMXN } from "~/lib/money";
import { imageView } from "~/media/media.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/home";

export function meta({ data }: Route.MetaArgs) {
  const name = data?.shopName ?? "Tienda";
  return [
    { title: `${name} · Joyería artesanal en oro` },
    {
      name: "description",
      content: "Joyería de oro hecha a mano, en colecciones de temporada por tiempo limitado.",
    },
  ];
}

export async function loader({ context }: Route.LoaderArgs) {
  const { database, media, config } = context.get(servicesContext);
  const now = new Date();
  const drops = dropsForHome(await listDrops(database.db), now);
  return {
    shopName: config.shop.name,
    drops: drops.map((d) => ({
      id: d.id,
      name: d.name,
      smallDescription: d.smallDescription,
      state: DROP_TIME_LABELS[dropTimeState(d, now)],
      image: d.image ? imageView(media, d.image) : null,
      products: d.products.map((p) => ({
        id: p.id,
        name: p.name,
        price: formatMXN(p.priceCents),
        soldOut: p.stock <= 0,
        image: p.image ? imageView(media, p.image) : null,
      })),
    })),
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-6xl px-4">
      <section className="py-12 text-center">
        <h1 className="font-serif text-4xl text-gold-700 sm:text-5xl">{loaderData.shopName}</h1>
        <p className="mt-3 text-ink/70">Joyería de oro hecha a mano, en colecciones por tiempo limitado.</p>
      </section>
      {loaderData.drops.map((drop, i) => (
        <section key={drop.id} aria-labelledby={`drop-${drop.id}`} className="border-t border-sand py-10">
          <div className="grid gap-6 md:grid-cols-2 md:items-center">
            {drop.image && (
              <img
                src={drop.image.src}
                srcSet={drop.image.srcSet}
                sizes="(min-width: 768px) 50vw, 100vw"
                width={drop.image.width}
                height={drop.image.height}
                alt={`Colección ${drop.name}`}
                loading={i === 0 ? "eager" : "lazy"}
                className="h-auto w-full rounded-lg"
              />
            )}
            <div>
              <p className="text-sm uppercase tracking-widest text-gold-500">{drop.state}</p>
              <h2 id={`drop-${drop.id}`} className="mt-1 font-serif text-3xl">
                {drop.name}
              </h2>
              <p className="mt-3 text-ink/80">{drop.smallDescription}</p>
            </div>
          </div>
          <ul className="mt-8 grid grid-cols-2 gap-4 sm:grid-cols-4">
            {drop.products.map((p) => (
              <li key={p.id}>
                {p.image && (
                  <img
                    src={p.image.src}
                    srcSet={p.image.srcSet}
                    sizes="(min-width: 640px) 25vw, 50vw"
                    width={p.image.width}
                    height={p.image.height}
                    alt={p.name}
                    loading="lazy"
                    className="aspect-square h-auto w-full rounded-md object-cover"
                  />
                )}
                <p className="mt-2 text-sm font-medium">{p.name}</p>
                <p className="text-sm text-ink/70">{p.soldOut ? "Producto agotado" : p.price}</p>
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
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <p>Ocurrió un error al cargar las colecciones.</p>
    </main>
  );
}
