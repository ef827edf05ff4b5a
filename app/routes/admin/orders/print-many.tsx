import { Link } from "react-router";
import { PackingSlip } from "~/components/admin/packing-slip";
import { RouteError } from "~/components/route-error";
import { BULK_SHIP_LIMIT } from "~/orders/bulk-ship";
import { isOrderId } from "~/orders/ids";
import type { PackingSlipData } from "~/orders/packing-slip";
import { packingSlip } from "~/orders/packing-slip.server";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/print-many";

export const meta: Route.MetaFunction = () => [{ title: "Hojas de empaque · Administración" }];

/** The orders' numbers in the address, comma-separated: the desk's selection. */
const SLIPS_PARAM = "pedidos";

/** /admin/orders/imprimir?pedidos=OL-…,OL-…: each order's packing slip and certificates in turn. */
export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database, settings } = args.context.get(servicesContext);
  const asked = [
    ...new Set(
      (args.url.searchParams.get(SLIPS_PARAM) ?? "")
        .split(",")
        .map((id) => id.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
  if (asked.length === 0 || asked.length > BULK_SHIP_LIMIT || !asked.every(isOrderId)) {
    throw new Response("Pedidos no encontrados", { status: 404 });
  }
  const { shop } = settings.current();
  const slips: PackingSlipData[] = [];
  const missing: string[] = [];
  for (const id of asked) {
    const slip = await packingSlip(database.db, id, shop);
    if (slip) slips.push(slip);
    else missing.push(id);
  }
  if (slips.length === 0) throw new Response("Pedidos no encontrados", { status: 404 });
  return { slips, missing };
}

export const action = pageTakesNoForm;

export default function PackingSlips({ loaderData }: Route.ComponentProps) {
  const { slips, missing } = loaderData;
  return (
    <>
      <div className="mx-auto max-w-2xl px-6 print:hidden">
        <h1 className="font-serif text-3xl">
          Hojas de empaque ({slips.length === 1 ? "1 pedido" : `${slips.length} pedidos`})
        </h1>
        {missing.length > 0 && (
          <p role="alert" className="mt-2 rounded bg-red-50 px-3 py-2 text-sm text-red-800">
            No se encontraron: {missing.join(", ")}.
          </p>
        )}
        <div className="mt-3 flex flex-wrap gap-3">
          <Link to="/admin/orders" className="min-h-11 content-center underline">
            ← Volver a los pedidos
          </Link>
          <button
            type="button"
            onClick={() => window.print()}
            className="min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream"
          >
            Imprimir
          </button>
        </div>
      </div>
      {slips.map((slip, i) => (
        <PackingSlip key={slip.order.id} slip={slip} heading={2} breakBefore={i > 0} />
      ))}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Pedidos no encontrados" />;
}
