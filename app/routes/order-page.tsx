import { Link } from "react-router";
import { OrderLinkError } from "~/components/order-link-error";
import { invoicePagePath } from "~/invoices/invoice-page-link";
import { invoiceNote, invoiceStandingOf } from "~/invoices/requests.server";
import { orderPageOf } from "~/orders/order-page.server";
import { orderReturnPath } from "~/orders/order-page-link.server";
import { getOrder } from "~/orders/queries.server";
import { listReturns, type ReturnView } from "~/returns/queries.server";
import { returnChanceOf } from "~/returns/request.server";
import { piecesNotArrived } from "~/returns/return-status";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import { orderNotFound, requireCurrentLink, signedOrderRef } from "~/web/signed-order.server";
import type { Route } from "./+types/order-page";

export const meta = () => [{ title: "Mi pedido" }, { name: "robots", content: "noindex" }];

// One buyer's order: never kept by a shared cache, nor by the browser's history cache.
export const headers = () => ({ "Cache-Control": "private, no-store" });

export const action = pageTakesNoForm;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { database, orderPageLinks, settings } = context.get(servicesContext);
  // Only from its signed link: a changed number or signature shows nothing of any order, and a
  // link renewed since (its e-mail corrected, 'Renovar enlace') says it is no longer valid.
  const ref = signedOrderRef(request, params);
  // Read once, for its link's generation, the page, its returns and its factura alike.
  const order = requireCurrentLink(orderPageLinks, ref, await getOrder(database.db, ref.orderId));
  const orderId = order.id;
  const page = await orderPageOf(database.db, order, settings.current());
  if (!page) throw orderNotFound();
  const asked = new URL(request.url).searchParams.get("devolucion");
  const [returns, chance, standing] = await Promise.all([
    listReturns(database.db, { orderId }),
    returnChanceOf(database.db, order, settings.current().deliveryDays),
    // 'Requiero factura' (decision 45): while the month of the payment lasts, or what she asked for.
    invoiceStandingOf(database.db, order),
  ]);
  const note = standing && invoiceNote(standing.standing);
  const invoice = note && {
    text: note.text,
    href: note.link && invoicePagePath(orderPageLinks, order),
    link: note.link,
  };
  return {
    // The return window's sentence invites a return only while one can be asked: not while one is
    // under way, nor once every piece was returned (its closing is still said).
    page: chance?.open || chance?.reason === "fuera_de_plazo" ? page : { ...page, returns: null },
    invoice,
    returns,
    // The notice of a request just sent, only while it still waits to be answered (a bookmarked page
    // later shows its answer below, not "no envíes las piezas todavía").
    askedReturn: returns.some((r) => r.id === asked && r.status === "solicitada") ? asked : null,
    returnFormPath: chance?.open ? orderReturnPath(orderPageLinks, order) : null,
  };
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { page, invoice, returns, askedReturn, returnFormPath } = loaderData;
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <p className="text-sm text-ink/75">Mi pedido</p>
      <h1 className="font-serif text-4xl">
        Pedido <span data-testid="order-number">{page.id}</span>
      </h1>
      <p className="mt-2 text-ink/80">
        Hecho el {page.placedAt} · <strong data-testid="order-status">{page.status}</strong>
      </p>

      <section aria-labelledby="pasos" className="mt-8">
        <h2 id="pasos" className="font-serif text-2xl">
          Dónde está
        </h2>
        <ol className="mt-3 space-y-3">
          {page.steps.map((step) => (
            <li key={step.label} className="flex gap-3">
              <span
                aria-hidden="true"
                className={`mt-1.5 size-3 shrink-0 rounded-full ${step.at ? "bg-gold-700" : "border border-ink/40"}`}
              />
              <div>
                <p className="font-medium">
                  {step.label}
                  {step.at ? <span className="font-normal text-ink/75"> · {step.at}</span> : " · pendiente"}
                </p>
                {step.detail && <p className="text-sm text-ink/80">{step.detail}</p>}
                {step.link && (
                  <a href={step.link.href} className="text-sm underline" rel="noreferrer">
                    {step.link.text}
                  </a>
                )}
              </div>
            </li>
          ))}
        </ol>
        {page.missing && (
          <p className="mt-4 rounded-lg border border-gold-700/40 p-4 text-sm" data-testid="missing-pieces">
            {page.missing}
          </p>
        )}
        <p className="mt-4 rounded-lg bg-sand/50 p-4 text-sm" data-testid="next-step">
          {page.next}
        </p>
        {page.returns && (
          <p className="mt-3 text-sm" data-testid="return-window">
            {page.returns}
          </p>
        )}
        {returnFormPath && (
          <Link
            to={returnFormPath}
            className="mt-3 inline-block rounded-full border border-ink px-5 py-2 text-sm"
          >
            Pedir una devolución
          </Link>
        )}
      </section>

      {returns.length > 0 && <ReturnsSection returns={returns} askedReturn={askedReturn} />}

      {page.voucher && (
        <section aria-labelledby="ficha" className="mt-8">
          <h2 id="ficha" className="font-serif text-2xl">
            Cómo pagar: {page.voucher.method}
          </h2>
          <p className="mt-2 font-mono text-2xl tracking-wider">{page.voucher.reference}</p>
          <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm">
            {page.voucher.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          {page.voucher.url && (
            <a href={page.voucher.url} className="mt-3 inline-block text-sm underline" rel="noreferrer">
              Ver tu ficha para imprimir o mostrar en el celular
            </a>
          )}
        </section>
      )}

      <section aria-labelledby="piezas" className="mt-8">
        <h2 id="piezas" className="font-serif text-2xl">
          Tus piezas
        </h2>
        <ul className="mt-3 divide-y divide-sand">
          {page.lines.map((line) => (
            <li key={line.name} className="flex justify-between gap-4 py-2">
              <span>
                {line.name} × {line.quantity}
                {line.edition && <span className="block text-sm text-ink/75">{line.edition}</span>}
              </span>
              <span>{line.lineTotal}</span>
            </li>
          ))}
          {page.shippingLine && (
            <li className="flex justify-between gap-4 py-2">
              <span>{page.shippingLine.label}</span>
              <span>{page.shippingLine.amount}</span>
            </li>
          )}
        </ul>
        <p className="mt-2 flex justify-between border-t border-ink/20 pt-2 font-medium">
          <span>Total (MXN, IVA incluido)</span>
          <span data-testid="order-total">{page.total}</span>
        </p>
        {page.plan && <p className="text-sm text-ink/75">{page.plan}</p>}
      </section>

      {invoice && (
        <section aria-labelledby="factura" className="mt-8">
          <h2 id="factura" className="font-serif text-2xl">
            Factura
          </h2>
          <p className="mt-2 text-sm" data-testid="invoice-note">
            {invoice.text}
          </p>
          {invoice.href && (
            <Link to={invoice.href} className="mt-2 inline-block underline">
              {invoice.link}
            </Link>
          )}
        </section>
      )}

      {page.address.length > 0 && (
        <section aria-labelledby="envio" className="mt-8">
          <h2 id="envio" className="font-serif text-2xl">
            Lo enviamos a
          </h2>
          <p className="mt-2">
            {page.address.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </p>
        </section>
      )}

      <Link to="/colecciones" className="mt-10 inline-block underline">
        Seguir viendo colecciones
      </Link>
    </main>
  );
}

function ReturnsSection({ returns, askedReturn }: { returns: ReturnView[]; askedReturn: string | null }) {
  return (
    <section aria-labelledby="devoluciones-titulo" className="mt-8" id="devoluciones">
      <h2 id="devoluciones-titulo" className="font-serif text-2xl">
        Devoluciones
      </h2>
      {askedReturn && (
        <p role="status" className="mt-3 rounded-lg bg-sand/50 p-4 text-sm">
          Recibimos tu solicitud de devolución {askedReturn}. Te escribimos en cuanto la revisemos; no envíes
          las piezas todavía.
        </p>
      )}
      <ul className="mt-3 space-y-4">
        {returns.map((r) => (
          <li key={r.id} className="rounded-lg border border-sand p-4" data-testid="return">
            <p className="font-medium">
              Devolución {r.id} · <span data-testid="return-status">{r.statusLabel}</span>
            </p>
            <p className="text-sm text-ink/75">
              Pedida el {r.requestedAt} · {r.reason}
            </p>
            <ul className="mt-2 text-sm">
              {r.lines.map((l) => (
                <li key={l.position}>
                  {l.name} × {l.asked}
                  {l.received !== null && l.received < l.asked && ` · nos llegaron ${l.received}`}: {l.amount}
                </li>
              ))}
            </ul>
            {piecesNotArrived(r.lines, "pagina") && (
              <p className="mt-2 text-sm">{piecesNotArrived(r.lines, "pagina")}</p>
            )}
            {r.ownerMessage && <p className="mt-2 whitespace-pre-line text-sm">{r.ownerMessage}</p>}
            <p className="mt-2 text-sm">
              {r.status === "reembolsada"
                ? `Te reembolsamos ${r.refund} el ${r.refundedAt}.`
                : r.status === "rechazada" || r.status === "cerrada"
                  ? "Sin reembolso."
                  : r.status === "recibida"
                    ? `Recibimos tus piezas; tu reembolso de ${r.refund} está en curso.`
                    : `Reembolso al recibir las piezas: ${r.refund}.`}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export const ErrorBoundary = OrderLinkError;
