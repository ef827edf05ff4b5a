import { useEffect } from "react";
import { Form, NavLink, Outlet, useLocation } from "react-router";
import { UNDELIVERED_NOTICE_DAYS } from "~/campaigns/mail-log";
import { countUndeliveredOrderMail } from "~/campaigns/mail-log.server";
import { SessionEndedNotice, sessionIsBack } from "~/components/admin/session-ended";
import { SetUpChecklist } from "~/components/admin/set-up-checklist";
import { UndeliveredMailNotice } from "~/components/admin/undelivered-mail";
import { useHydrated } from "~/components/hydration";
import { RouteError } from "~/components/route-error";
import { countPending } from "~/orders/desk.server";
import { readSetUpChecklist } from "~/settings/checklist.server";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/layout";

const SECTIONS = [
  { to: "/admin/orders", label: "Pedidos" },
  { to: "/admin/devoluciones", label: "Devoluciones" },
  { to: "/admin/drops", label: "Colecciones" },
  { to: "/admin/campains", label: "Campañas" },
  { to: "/admin/reports", label: "Reportes" },
  { to: "/admin/facturas", label: "Facturas" },
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

/** Where the owner lands after signing in: the set-up checklist opens there. */
const LANDING = "/admin/orders";

export async function loader(args: Route.LoaderArgs) {
  const admin = requireAdmin(args);
  const { database, config, payments, settings } = args.context.get(servicesContext);
  const [pending, checklist, undeliveredMail] = await Promise.all([
    countPending(database.db),
    readSetUpChecklist(database.db, {
      settings: settings.current(),
      mailToOutbox: config.mail.smtpUrl === null,
      demoPayments: payments.name === "demo",
    }),
    countUndeliveredOrderMail(database.db),
  ]);
  return { email: admin.email, pending, checklist, undeliveredMail };
}

/**
 * The admin shell: the side menu (rows of tabs on phones, every section in sight), the set-up checklist until the shop
 * is set up (open on the landing page, folded elsewhere: decision 35), the section's page and,
 * below the menu (below the page on phones), who is signed in.
 */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const landing = useLocation().pathname.replace(/\/$/, "") === LANDING;
  const hydrated = useHydrated();
  // New data from the server needed the session: a notice that it had ended is over.
  useEffect(() => {
    if (loaderData) sessionIsBack();
  }, [loaderData]);
  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-6 md:grid-cols-[14rem_minmax(0,1fr)] md:grid-rows-[auto_1fr] md:py-10 print:block print:p-0">
      <nav aria-label="Administración" className="print:hidden">
        <p className="hidden pb-3 text-xs uppercase tracking-wider text-ink/75 md:block">Administración</p>
        {/* On a phone the sections wrap onto a second row: every one is in sight, none scrolled away. */}
        <ul className="flex flex-wrap gap-2 md:flex-col md:flex-nowrap md:gap-1">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                aria-describedby={
                  section.to === "/admin/orders" && loaderData.pending > 0 ? "pending-orders" : undefined
                }
                className={({ isActive }) =>
                  `block whitespace-nowrap rounded-full px-4 py-2 text-sm md:rounded-lg ${
                    isActive ? "bg-ink text-cream" : "bg-sand/60 hover:bg-sand md:bg-transparent"
                  }`
                }
              >
                {section.label}
                {section.to === "/admin/orders" && loaderData.pending > 0 && (
                  // The count is the link's description, not part of its name ("Pedidos").
                  <span
                    aria-hidden="true"
                    data-testid="pending-count"
                    className="ml-2 rounded-full bg-gold-300 px-2 py-0.5 text-xs font-semibold text-ink"
                  >
                    {loaderData.pending}
                  </span>
                )}
              </NavLink>
            </li>
          ))}
        </ul>
        {loaderData.pending > 0 && (
          <span id="pending-orders" className="sr-only">
            {loaderData.pending === 1 ? "1 pedido por enviar" : `${loaderData.pending} pedidos por enviar`}
          </span>
        )}
      </nav>
      <div className="min-w-0 md:col-start-2 md:row-span-2 md:row-start-1">
        <SessionEndedNotice />
        <UndeliveredMailNotice count={loaderData.undeliveredMail} days={UNDELIVERED_NOTICE_DAYS} />
        <SetUpChecklist items={loaderData.checklist} open={landing} />
        {/* The desk's forms keep what is typed and ticked in the page's code (a drop's fields, the
            orders chosen, a dialog that confirms): until it runs, what the owner did would show and
            then be lost, so they wait for it; links and reading do not (decision 50). */}
        <fieldset disabled={!hydrated} className="contents">
          <Outlet />
        </fieldset>
      </div>
      <div className="self-start border-t border-ink/10 pt-4 text-xs text-ink/70 md:col-start-1 md:row-start-2 print:hidden">
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
  return (
    <RouteError
      notFoundTitle="Página no encontrada"
      notFoundMessage="Esta sección de la administración no existe."
      message="Ocurrió un error inesperado. Intenta de nuevo en unos momentos."
      home={{ to: "/admin/orders", label: "Volver a la administración" }}
    />
  );
}
