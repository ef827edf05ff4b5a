import { Link } from "react-router";
import { metalFactsLine } from "~/catalogue/metal";
import { RouteError } from "~/components/route-error";
import { CARE_INSTRUCTIONS } from "~/content/care";
import { formatShopDateTime } from "~/lib/dates";
import { getDeskOrder } from "~/orders/desk.server";
import { editionCertificates, editionText } from "~/orders/editions.server";
import { isOrderId } from "~/orders/ids";
import { lineMetalFacts } from "~/orders/line-metal.server";
import { addressLines } from "~/orders/shipping";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/print";

export const meta: Route.MetaFunction = ({ params }) => [{ title: `Hoja de empaque ${params.orderId}` }];

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database, settings } = args.context.get(servicesContext);
  const { shop } = settings.current();
  const order = isOrderId(args.params.orderId) ? await getDeskOrder(database.db, args.params.orderId) : null;
  if (!order) throw new Response("Pedido no encontrado", { status: 404 });
  const metal = await lineMetalFacts(database.db, order.id);
  const certificates = await editionCertificates(database.db, order.id);
  return {
    order,
    /** A certificate of authenticity per numbered piece, printed after the slip. */
    certificates: certificates.map((c) => ({
      name: c.name,
      edition: editionText([c.number], c.size),
      metal: metalFactsLine(c.metal),
    })),
    /** Each line's metal facts in one line ("Oro de 14 k (585) · 2.35 g"), in the lines' order. */
    metal: metal.map(metalFactsLine),
    shop: { name: shop.name, email: shop.email, whatsapp: shop.whatsapp },
  };
}

/**
 * The packing slip: what goes in the parcel and where it goes, on one A4 or Letter page; then, for
 * each numbered piece of a limited edition, its certificate of authenticity on a page of its own.
 */
export const action = pageTakesNoForm;

export default function PackingSlip({ loaderData }: Route.ComponentProps) {
  const { order, shop, metal, certificates } = loaderData;
  return (
    <>
      <Slip order={order} shop={shop} metal={metal} />
      {certificates.map((certificate) => (
        <Certificate
          key={certificate.edition + certificate.name}
          shopName={shop.name}
          orderId={order.id}
          paidAt={order.paidAt}
          {...certificate}
        />
      ))}
    </>
  );
}

/** One numbered piece's certificate of authenticity: its own printed page. */
function Certificate(props: {
  shopName: string;
  orderId: string;
  paidAt: Date | string | null;
  name: string;
  edition: string;
  metal: string;
}) {
  const titleId = `certificado-${props.edition.replace(/\D+/g, "-")}`;
  return (
    <article
      aria-labelledby={titleId}
      className="mx-auto mt-10 max-w-2xl border-4 border-double border-gold-700 bg-white p-8 text-center print:mt-0 print:max-w-none print:break-before-page"
    >
      <p className="font-serif text-2xl">{props.shopName}</p>
      <h2 id={titleId} className="mt-6 font-serif text-3xl">
        Certificado de autenticidad
      </h2>
      <p className="mt-6 text-xl">{props.name}</p>
      <p className="mt-2 text-2xl font-semibold">{props.edition}</p>
      {props.metal && <p className="mt-2">{props.metal}</p>}
      <p className="mt-4 text-sm">
        Pieza hecha a mano. Pedido {props.orderId}
        {props.paidAt ? `, pagado el ${formatShopDateTime(new Date(props.paidAt))}` : ""}.
      </p>
      <section className="mt-8 text-left text-sm" aria-label="Cuidados">
        <h3 className="font-semibold">Cuidados</h3>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {CARE_INSTRUCTIONS.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
    </article>
  );
}

function Slip({ order, shop, metal }: Pick<Route.ComponentProps["loaderData"], "order" | "shop" | "metal">) {
  return (
    <article
      aria-labelledby="slip-title"
      className="mx-auto max-w-2xl bg-white p-6 print:max-w-none print:p-0"
    >
      <div className="flex flex-wrap gap-3 print:hidden">
        <Link to={`/admin/orders/${order.id}`} className="min-h-11 content-center underline">
          ← Volver al pedido
        </Link>
        <button
          type="button"
          onClick={() => window.print()}
          className="min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream"
        >
          Imprimir
        </button>
      </div>
      <header className="mt-6 flex items-start justify-between gap-4 border-b border-ink pb-4 print:mt-0">
        <div>
          <p className="font-serif text-2xl">{shop.name}</p>
          <p className="text-sm">{shop.email}</p>
        </div>
        <div className="text-right">
          <h1 id="slip-title" className="font-mono text-xl font-semibold">
            {order.id}
          </h1>
          <p className="text-sm">{formatShopDateTime(order.createdAt)}</p>
        </div>
      </header>
      <section className="mt-6" aria-label="Enviar a">
        <h2 className="text-xs uppercase tracking-wider">Enviar a</h2>
        {order.shipping ? (
          <address className="mt-1 text-lg not-italic leading-snug">
            {addressLines(order.shipping).map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        ) : (
          <p className="mt-1">{order.customerName}</p>
        )}
      </section>
      <table className="mt-6 w-full border-collapse text-left">
        <caption className="sr-only">Piezas del pedido</caption>
        <thead>
          <tr className="border-b border-ink">
            <th scope="col" className="py-2">
              Pieza
            </th>
            <th scope="col" className="py-2 text-right">
              Cantidad
            </th>
            <th scope="col" className="w-16 py-2 text-center">
              Listo
            </th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line, i) => (
            <tr
              key={`${line.name}-${line.unitPriceCents}`}
              className="border-b border-ink/30 break-inside-avoid"
            >
              <td className="py-2">
                {line.name}
                {metal[i] && (
                  <span className="block text-sm" data-testid="slip-metal">
                    {metal[i]}
                  </span>
                )}
                {line.edition && <span className="block text-sm">{line.edition}</span>}
              </td>
              <td className="py-2 text-right">{line.quantity}</td>
              <td className="py-2 text-center">☐</td>
            </tr>
          ))}
        </tbody>
      </table>
      {order.carrier && (
        <p className="mt-6 text-sm">
          Paquetería: <strong>{order.carrier}</strong> · Guía: <strong>{order.trackingNumber}</strong>
        </p>
      )}
      <p className="mt-10 text-sm">
        Gracias por tu compra. ¿Dudas? {shop.email} · WhatsApp {shop.whatsapp}
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Pedido no encontrado" />;
}
