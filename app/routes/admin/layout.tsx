import { Form, isRouteErrorResponse, Link, NavLink, Outlet, useRouteError } from "react-router";
import { requireAdmin } from "~/lib/admin-guards.server";
import type { Route } from "./+types/layout";

const SECTIONS = [
  { to: "/admin/orders", label: "Pedidos" },
  { to: "/admin/drops", label: "Colecciones" },
  { to: "/admin/campains", label: "Campañas" },
  { to: "/admin/reports", label: "Reportes" },
  { to: "/admin/settings", label: "Configuración" },
];

export const meta: Route.MetaFunction = () => [
  { title: "Administración" },
  { name: "robots", content: "noindex, nofollow" },
];

/**
 * Runs before every loader and action under /admin, so a page or action added later is guarded
 * even if it forgets its own `requireAdmin` call (which it still makes, for the session's data).
 */
export const middleware: Route.MiddlewareFunction[] = [
  (args) => {
    requireAdmin(args);
  },
];

export function loader(args: Route.LoaderArgs) {
  const admin = requireAdmin(args);
  return { email: admin.email };
}

/**
 * The admin shell: the side menu (a row of tabs on phones), the section's page and, below the
 * menu (below the page on phones), who is signed in.
 */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-6 md:grid-cols-[14rem_minmax(0,1fr)] md:grid-rows-[auto_1fr] md:py-10">
      <nav aria-label="Administración" className="-mx-4 overflow-x-auto px-4 md:mx-0 md:px-0">
        <p className="hidden pb-3 text-xs uppercase tracking-wider text-ink/75 md:block">Administración</p>
        <ul className="flex gap-2 md:flex-col md:gap-1">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                className={({ isActive }) =>
                  `block whitespace-nowrap rounded-full px-4 py-2 text-sm md:rounded-lg ${
                    isActive ? "bg-ink text-cream" : "bg-sand/60 hover:bg-sand md:bg-transparent"
                  }`
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 md:col-start-2 md:row-span-2 md:row-start-1">
        <Outlet />
      </div>
      <div className="self-start border-t border-ink/10 pt-4 text-xs text-ink/70 md:col-start-1 md:row-start-2">
        <p className="break-all">Sesión iniciada como {loaderData.email}</p>
        <Form method="post" action="/admin/sessions" className="mt-2">
          <button type="submit" className="py-1 text-left underline hover:text-gold-700">
            Cerrar sesión en todos los dispositivos
          </button>
        </Form>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status >= 500) console.error(error);
  const [title, text] =
    status === 401
      ? ["Tu sesión terminó", "Inicia sesión de nuevo para continuar."]
      : status === 403
        ? ["Acción no permitida", "Esta solicitud no se aceptó. Vuelve a intentarlo desde la tienda."]
        : status === 404
          ? ["Página no encontrada", "Esta sección de la administración no existe."]
          : ["Algo salió mal", "Ocurrió un error inesperado. Intenta de nuevo en unos momentos."];
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="font-serif text-3xl">{title}</h1>
      <p className="mt-4 text-ink/70">{text}</p>
      <Link to={status === 401 ? "/login" : "/admin/orders"} className="mt-8 inline-block underline">
        {status === 401 ? "Iniciar sesión" : "Volver a la administración"}
      </Link>
    </main>
  );
}
