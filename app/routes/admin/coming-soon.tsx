import { pageTakesNoForm } from "~/http/methods";
import { requireAdmin } from "~/lib/admin-guards.server";
import type { Route } from "./+types/coming-soon";

const TITLES: Record<string, string> = {
  "/admin/campains": "Campañas",
  "/admin/reports": "Reportes",
  "/admin/settings": "Configuración",
};

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.title ?? "Administración"} · Administración` },
];

/** Campañas, Reportes and Configuración: sections still to come. */
export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  return { title: TITLES[args.url.pathname.replace(/\/+$/, "")] ?? "Administración" };
}

export const action = pageTakesNoForm;

export default function ComingSoon({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="section-title">
      <h1 id="section-title" className="font-serif text-3xl">
        {loaderData.title}
      </h1>
      <p className="mt-4 text-ink/70">Próximamente...</p>
    </section>
  );
}
