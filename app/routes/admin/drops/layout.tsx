import { Link, Outlet, useLocation } from "react-router";
import { RouteError } from "~/components/route-error";
import { requireAdmin } from "~/web/guards.server";
import type { Route } from "./+types/layout";

/** The spec's tabs, each an address of its own. */
export const DROP_TABS = [
  { to: "/admin/drops/show-active-drops", label: "Activas" },
  { to: "/admin/drops/show-upcoming-drops", label: "Próximas" },
  { to: "/admin/drops/show-archive-drops", label: "Archivadas" },
  { to: "/admin/drops/new-drop", label: "Crear Colección" },
] as const;

export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  return null;
}

export default function DropsLayout() {
  const { pathname } = useLocation();
  const here = pathname.replace(/\/+$/, "");
  return (
    <section aria-labelledby="drops-title">
      <h1 id="drops-title" className="font-serif text-3xl">
        Colecciones
      </h1>
      <nav aria-label="Secciones de colecciones" className="mt-6 flex gap-2 overflow-x-auto">
        {DROP_TABS.map((tab, i) => {
          // /admin/drops itself shows the first tab.
          const current = here === tab.to || (i === 0 && here === "/admin/drops");
          return (
            <Link
              key={tab.to}
              to={tab.to}
              aria-current={current ? "page" : undefined}
              className={`min-h-11 content-center whitespace-nowrap rounded-full px-4 text-sm ${
                current ? "bg-ink text-cream" : "bg-sand/60 hover:bg-sand"
              }`}
            >
              {tab.label}
            </Link>
          );
        })}
      </nav>
      <Outlet />
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError
      notFoundTitle="Colecciones"
      home={{ to: "/admin/drops", label: "Volver a las colecciones" }}
    />
  );
}
