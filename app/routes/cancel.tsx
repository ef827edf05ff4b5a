import { Link } from "react-router";
import { isOrderId } from "~/orders/ids";
import { cancelCheckout } from "~/orders/sweeper.server";
import { servicesContext } from "~/services.server";
import type { Route } from "./+types/cancel";

export const meta = () => [{ title: "Algo salió mal" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const orderId = new URL(request.url).searchParams.get("pedido");
  if (orderId && isOrderId(orderId)) {
    const { database, payments } = context.get(servicesContext);
    await cancelCheckout(database.db, payments, orderId);
  }
  return null;
}

export default function Cancel() {
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-4xl">Algo salió mal</h1>
      <p className="mt-4 text-ink/80">
        No pudimos procesar tu compra... No se hizo ningún cargo y tus piezas siguen en tu carrito.
      </p>
      <Link
        to="/colecciones"
        className="mt-8 inline-block rounded-full bg-ink px-6 py-3 font-medium text-cream"
      >
        Volver a las colecciones
      </Link>
    </main>
  );
}
