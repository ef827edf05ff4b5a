import { useEffect } from "react";
import { Link } from "react-router";
import { useCart } from "~/components/cart/cart-context";
import { OrderLines } from "~/components/order-lines";
import { RouteError } from "~/components/route-error";
import { isOrderId } from "~/orders/ids";
import { orderPagePath } from "~/orders/order-page-link.server";
import { catchUpWithProvider } from "~/orders/payment-return.server";
import { receiptOf } from "~/orders/receipt.server";
import { browserIdContext } from "~/web/client-address";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/success";

export const meta = () => [{ title: "¡Gracias por tu compra!" }, { name: "robots", content: "noindex" }];

// The details belong to one browser: never kept by a shared cache or the browser's history cache.
export const headers = () => ({ "Cache-Control": "private, no-store" });

export const action = pageTakesNoForm;

/** The order whose thanks page last emptied the cart. */
const CLEARED_FOR = "carrito-vaciado-por";

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const orderId = params.get("pedido");
  if (!orderId || !isOrderId(orderId)) return { receipt: null, orderPage: null, orderKey: null };
  const { database, successLinks, payments, orderPageLinks, mail } = context.get(servicesContext);
  // Only from the link signed for this browser: the order id alone, or the link opened in
  // another browser — or in any browser without the cookie — shows the thanks without the details.
  const browser = context.get(browserIdContext);
  if (!browser || !successLinks.verify(orderId, browser, params.get("firma"))) {
    // Not even its number, to a browser that did not pay it (the cart is emptied as before).
    return { receipt: null, orderPage: null, orderKey: null };
  }
  // Back from the payment page before the provider's event came: the provider is asked now, so the
  // buyer sees the total she paid (its shipping too) or the reference she pays with.
  const caught = await catchUpWithProvider(database.db, payments, orderId).catch(() => null);
  if (caught === "pagado") mail.sendSoon();
  const receipt = await receiptOf(database.db, orderId);
  // 'Mi pedido': the same page every e-mail links, for later; only once the order has a buyer
  // (while the payment is still being confirmed, it would be 'Pedido no encontrado').
  return {
    receipt,
    orderPage: receipt?.email ? orderPagePath(orderPageLinks, receipt) : null,
    orderKey: orderId,
  };
}

export default function Success({ loaderData }: Route.ComponentProps) {
  const { clear } = useCart();
  const { receipt, orderPage, orderKey } = loaderData;
  // Reaching this page means the payment went through: the cart is done. Once per order: back on
  // this page later (Back, a reloaded tab) with a new cart, that cart stays.
  useEffect(() => {
    try {
      if (orderKey && localStorage.getItem(CLEARED_FOR) === orderKey) return;
      if (orderKey) localStorage.setItem(CLEARED_FOR, orderKey);
    } catch {
      // No storage (private mode): cleared as before.
    }
    clear();
  }, [clear, orderKey]);
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-4xl">¡Gracias por tu compra!</h1>
      {/* Not for an order cancelled at payment, nor one still to pay: their own notice says what comes. */}
      {!(
        receipt?.cancelled ||
        receipt?.cancelledByShop ||
        receipt?.cancelledSoldOut ||
        receipt?.cancelledMismatch ||
        receipt?.voucher ||
        receipt?.voucherCancelled
      ) && (
        <p className="mt-4 text-ink/80">
          Te enviaremos un correo de confirmación con el detalle de tu pedido. Cuando lo enviemos, te llegará
          otro con el número de guía.
        </p>
      )}
      {receipt && (
        <section aria-labelledby="pedido" className="mt-10 rounded-lg border border-sand p-5 text-left">
          <h2 id="pedido" className="font-serif text-2xl">
            Pedido <span data-testid="order-number">{receipt.id}</span>
          </h2>
          <OrderLines
            lines={receipt.lines}
            total={receipt.total}
            totalTestId="order-total"
            shipping={receipt.shipping}
          />
          {receipt.cancelledByShop ? (
            <p role="alert" className="mt-4 text-sm text-red-900" data-testid="order-email">
              Cancelamos este pedido y te devolvemos el total; te escribiremos a {receipt.email} en cuanto el
              reembolso esté hecho.
            </p>
          ) : receipt.cancelledSoldOut ? (
            <p role="alert" className="mt-4 text-sm text-red-900" data-testid="order-email">
              Tu pago llegó después de que venció tu apartado, y para entonces estas piezas ya se habían
              vendido: cancelamos el pedido y te devolvemos el total. Te escribimos a {receipt.email} en
              cuanto el reembolso esté hecho.
            </p>
          ) : receipt.cancelledMismatch ? (
            <p role="alert" className="mt-4 text-sm text-red-900" data-testid="order-email">
              El cobro no coincidió con el total de este pedido, así que no pudimos darlo por pagado: lo
              cancelamos y te devolvemos lo que se te cobró. Te escribimos a {receipt.email} en cuanto el
              reembolso esté hecho.
            </p>
          ) : receipt.cancelled ? (
            <p role="alert" className="mt-4 text-sm text-red-900" data-testid="order-email">
              Cancelamos este pedido porque pasa del máximo de piezas por persona: {receipt.cancelled} Te
              devolvemos el total y te escribimos a {receipt.email} en cuanto el reembolso esté hecho.
            </p>
          ) : receipt.voucherCancelled ? (
            <p role="alert" className="mt-4 text-sm text-red-900" data-testid="order-email">
              Cancelamos tu ficha de pago porque pasa del máximo de piezas por persona:{" "}
              {receipt.voucherCancelled} Esa ficha ya no se puede pagar: no la pagues. No se te cobró nada; te
              escribimos a {receipt.email}.
            </p>
          ) : receipt.voucher ? (
            <VoucherToPay voucher={receipt.voucher} email={receipt.email} />
          ) : (
            <p className="mt-4 text-sm text-ink/80" data-testid="order-email">
              {receipt.confirming || !receipt.email
                ? "Estamos confirmando tu pago; el correo de confirmación te llegará en cuanto se acredite."
                : `Enviamos la confirmación a ${receipt.email}.`}
            </p>
          )}
          {orderPage && (
            <Link to={orderPage} className="mt-4 inline-block text-sm underline">
              Ver mi pedido (dónde está, qué sigue)
            </Link>
          )}
        </section>
      )}
      <Link
        to="/colecciones"
        className="mt-8 inline-block rounded-full bg-ink px-6 py-3 font-medium text-cream"
      >
        Seguir viendo colecciones
      </Link>
    </main>
  );
}

/** The voucher still to pay: its reference, how, and until when the pieces are held. */
function VoucherToPay({
  voucher,
  email,
}: {
  voucher: NonNullable<NonNullable<Route.ComponentProps["loaderData"]["receipt"]>["voucher"]>;
  email: string;
}) {
  return (
    <div className="mt-6 rounded-lg bg-sand/50 p-4" data-testid="voucher">
      <h3 className="font-serif text-xl">Paga tu pedido: {voucher.method}</h3>
      <p className="mt-2 text-sm">
        Apartamos tus piezas hasta el {voucher.until}. Si el pago no llega para entonces, vuelven a la tienda.
      </p>
      <p className="mt-3 text-sm">Referencia</p>
      <p className="font-mono text-2xl tracking-wider" data-testid="voucher-reference">
        {voucher.reference}
      </p>
      <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm">
        {voucher.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {voucher.url && (
        <a href={voucher.url} className="mt-3 inline-block text-sm underline" rel="noreferrer">
          Ver tu ficha para imprimir o mostrar en el celular
        </a>
      )}
      {email && (
        <p className="mt-3 text-sm text-ink/80" data-testid="order-email">
          También te la enviamos a {email}. Cuando se acredite tu pago te llegará la confirmación.
        </p>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Pedido no encontrado" message="No pudimos mostrar esta página." />;
}
