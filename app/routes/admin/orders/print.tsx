import { Link } from "react-router";
import { PackingSlip } from "~/components/admin/packing-slip";
import { RouteError } from "~/components/route-error";
import { isOrderId } from "~/orders/ids";
import { packingSlip } from "~/orders/packing-slip.server";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/print";

export const meta: Route.MetaFunction = ({ params }) => [{ title: `Hoja de empaque ${params.orderId}` }];

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database, settings } = args.context.get(servicesContext);
  const slip = isOrderId(args.params.orderId)
    ? await packingSlip(database.db, args.params.orderId, settings.current().shop)
    : null;
  if (!slip) throw new Response("Pedido no encontrado", { status: 404 });
  return slip;
}

export const action = pageTakesNoForm;

/** One order's packing slip and its certificates, ready to print. */
export default function PackingSlipPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <div className="mx-auto flex max-w-2xl flex-wrap gap-3 px-6 print:hidden">
        <Link to={`/admin/orders/${loaderData.order.id}`} className="min-h-11 content-center underline">
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
      <PackingSlip slip={loaderData} />
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Pedido no encontrado" />;
}
