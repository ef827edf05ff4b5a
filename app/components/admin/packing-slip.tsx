import { CARE_INSTRUCTIONS } from "~/content/care";
import { formatShopDateTime } from "~/lib/dates";
import type { PackingSlipData } from "~/orders/packing-slip";
import { addressLines } from "~/orders/shipping";

/**
 * The packing slip: what goes in the parcel and where it goes, on one A4 or Letter page; then, for
 * each numbered piece of a limited edition, its certificate of authenticity on a page of its own.
 * `heading`: the order number's level (1 on an order's own slip; 2 when several are printed).
 * `breakBefore`: starts on a new printed page (every slip after the first).
 */
export function PackingSlip({
  slip,
  heading = 1,
  breakBefore,
}: {
  slip: PackingSlipData;
  heading?: 1 | 2;
  breakBefore?: boolean;
}) {
  const { order, shop, metal, certificates } = slip;
  return (
    <>
      <Slip order={order} shop={shop} metal={metal} heading={heading} breakBefore={breakBefore} />
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
  const titleId = `certificado-${props.orderId}-${props.edition.replace(/\D+/g, "-")}`;
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

function Slip({
  order,
  shop,
  metal,
  heading,
  breakBefore,
}: Pick<PackingSlipData, "order" | "shop" | "metal"> & { heading: 1 | 2; breakBefore?: boolean }) {
  const Heading = heading === 1 ? "h1" : "h2";
  const Section = heading === 1 ? "h2" : "h3";
  const titleId = `slip-title-${order.id}`;
  return (
    <article
      aria-labelledby={titleId}
      className={`mx-auto max-w-2xl bg-white p-6 print:max-w-none print:p-0 ${
        breakBefore ? "mt-10 print:mt-0 print:break-before-page" : ""
      }`}
    >
      <header className="mt-6 flex items-start justify-between gap-4 border-b border-ink pb-4 print:mt-0">
        <div>
          <p className="font-serif text-2xl">{shop.name}</p>
          <p className="text-sm">{shop.email}</p>
        </div>
        <div className="text-right">
          <Heading id={titleId} className="font-mono text-xl font-semibold">
            {order.id}
          </Heading>
          <p className="text-sm">{formatShopDateTime(order.createdAt)}</p>
        </div>
      </header>
      <section className="mt-6" aria-label="Enviar a">
        <Section className="text-xs uppercase tracking-wider">Enviar a</Section>
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
                {line.missing > 0 && (
                  <span className="block text-sm font-medium" data-testid="slip-missing">
                    Sin stock al pagarse: no empacar {line.missing} (se le reembolsa)
                  </span>
                )}
              </td>
              {/* What goes in the box: a late payment's pieces that were gone are not packed. */}
              <td className="py-2 text-right">{line.quantity - line.missing}</td>
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
