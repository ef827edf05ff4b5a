import type { Order } from "~/orders/order";
import { orderAction, useDeskFetcher } from "./desk-fetcher";

/** The intent the order's action takes it by (routes/admin/orders/detail.tsx). */
export const ORDER_LINK_RENEWAL_INTENT = "enlace";

/**
 * 'Renovar enlace de «Mi pedido»': every link of the buyer's page signed so far stops working (she
 * forwarded hers by mistake, someone else read her confirmation). Offered on any paid order: its
 * page shows her name, address and phone whatever its status. The answer is the desk's notice.
 */
export function OrderLinkRenewal({ order }: { order: Pick<Order, "id" | "paidAt"> }) {
  const fetcher = useDeskFetcher();
  if (!order.paidAt) return null;
  return (
    <details className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
      <summary className="cursor-pointer font-medium">Renovar enlace de «Mi pedido»</summary>
      <fetcher.Form method="post" action={orderAction(order.id)} className="mt-4 max-w-md text-sm">
        <input type="hidden" name="intent" value={ORDER_LINK_RENEWAL_INTENT} />
        <p>
          Si la clienta reenvió por error el enlace de su pedido, o alguien más recibió sus correos,
          renuévalo: el enlace anterior deja de funcionar y ya no muestra su nombre, dirección ni teléfono.
        </p>
        <p className="mt-2">
          Ella consigue el nuevo buscando su pedido con su número y su correo en{" "}
          <a href="/mi-pedido" className="underline">
            /mi-pedido
          </a>
          , o cuando le reenvías cualquiera de sus correos desde el Historial ('Reenviar').
        </p>
        <button
          type="submit"
          disabled={fetcher.state !== "idle"}
          className="mt-4 min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream disabled:opacity-60"
        >
          Renovar enlace
        </button>
      </fetcher.Form>
    </details>
  );
}
