import { requireAdmin } from "~/lib/admin-guards.server";
import type { Route } from "./+types/drops";

export const meta: Route.MetaFunction = () => [{ title: "Colecciones · Administración" }];

export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  return null;
}

export default function AdminDrops() {
  return (
    <section aria-labelledby="drops-title">
      <h1 id="drops-title" className="font-serif text-3xl">
        Colecciones
      </h1>
      <p className="mt-4 text-ink/70">Aquí podrás crear colecciones y editar sus piezas, fechas y estado.</p>
    </section>
  );
}
