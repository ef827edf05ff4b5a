import { requireAdmin } from "~/lib/admin-guards.server";
import type { Route } from "./+types/orders";

export const meta: Route.MetaFunction = () => [{ title: "Pedidos · Administración" }];

export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  return null;
}

export default function AdminOrders() {
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title" className="font-serif text-3xl">
        Pedidos
      </h1>
      <p className="mt-4 text-ink/70">Aquí aparecerán los pedidos pagados para prepararlos y enviarlos.</p>
    </section>
  );
}
