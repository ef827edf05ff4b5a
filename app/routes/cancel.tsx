import { useEffect } from "react";
import { Link } from "react-router";
import { useCart } from "~/components/cart/cart-context";
import { useHydrated } from "~/components/hydration";
import { RouteError } from "~/components/route-error";
import { isOrderId } from "~/orders/ids";
import { cancelFromPaymentPage } from "~/orders/sweeper.server";
import { browserIdContext } from "~/web/client-address";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/cancel";

export const action = pageTakesNoForm;

export const meta = () => [{ title: "Algo salió mal" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const orderId = params.get("pedido");
  if (orderId && isOrderId(orderId)) {
    const { database, payments, cancelLinks } = context.get(servicesContext);
    // Only the browser that started the checkout, from the link its payment page gave back: an
    // order id alone, or another browser, changes nothing (the hold ends on its own).
    if (!cancelLinks.verify(orderId, context.get(browserIdContext), params.get("firma"))) {
      return { outcome: "ajeno" as const };
    }
    const outcome = await cancelFromPaymentPage(database.db, payments, orderId);
    // The provider did not answer: the hold stays until it does, and the page says so. A payment
    // that went through after all (or waits for a cash payment) must not read "no charge".
    return { outcome };
  }
  return { outcome: "sin_apartado" as const };
}

const EXPLANATION = {
  sin_respuesta:
    "No pudimos procesar tu compra... El pago no se completó. Tus piezas siguen en tu carrito; el apartado se liberará en unos minutos, así que si alguna no está disponible, intenta de nuevo un poco más tarde.",
  pagado:
    "No pudimos procesar tu compra... Si completaste el pago, no te preocupes: te enviaremos la confirmación por correo en cuanto se acredite.",
  liberado: "No pudimos procesar tu compra... No se hizo ningún cargo y tus piezas siguen en tu carrito.",
  sin_apartado: "No pudimos procesar tu compra... No se hizo ningún cargo y tus piezas siguen en tu carrito.",
  // Another tab (or the provider's confirmation) got there first: the order is paid.
  ya_pagado:
    "No pudimos procesar tu compra... Este pedido ya estaba pagado, así que no cambiamos nada. Revisa tu correo: ahí está la confirmación y cómo sigue tu pedido.",
  ya_cancelado:
    "No pudimos procesar tu compra... Este pedido ya se había pagado y después se canceló, así que no cambiamos nada. Te devolvemos tu dinero y te escribimos en cuanto el reembolso esté hecho.",
  ajeno:
    "No pudimos procesar tu compra... Este enlace no corresponde a un pago iniciado en este navegador, así que no cambiamos nada. Si el pago era tuyo, las piezas apartadas se liberan solas en unos minutos.",
} as const;

export default function Cancel({ loaderData }: Route.ComponentProps) {
  const { setShowCart, clear } = useCart();
  const hydrated = useHydrated();
  // Paid after all (or waiting for her cash payment, or paid and cancelled): those pieces are
  // bought, not to be paid for again.
  const bought = ["pagado", "ya_pagado", "ya_cancelado"].includes(loaderData.outcome);
  useEffect(() => {
    if (bought) clear();
  }, [bought, clear]);
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-4xl">Algo salió mal</h1>
      <p className="mt-4 text-ink/80">{EXPLANATION[loaderData.outcome]}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {/* The pieces are still in the cart: one tap back to it, to try again or change it. Bought
            after all: her order's page (its e-mails link it too), not a cart to pay again. */}
        {bought ? (
          <Link to="/mi-pedido" className="rounded-full bg-ink px-6 py-3 font-medium text-cream">
            Ver mi pedido
          </Link>
        ) : (
          <button
            type="button"
            disabled={!hydrated}
            onClick={() => setShowCart(true)}
            className="rounded-full bg-ink px-6 py-3 font-medium text-cream"
          >
            Volver a tu carrito
          </button>
        )}
        <Link to="/colecciones" className="rounded-full border border-ink px-6 py-3 font-medium">
          Volver a las colecciones
        </Link>
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Pedido no encontrado" message="No pudimos mostrar esta página." />;
}
