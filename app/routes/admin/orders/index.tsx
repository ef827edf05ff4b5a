import { data, Form, Link } from "react-router";
import { DeskNotice, OrderActions } from "~/components/admin/order-actions";
import { OrderView } from "~/components/admin/order-view";
import { RouteError } from "~/components/route-error";
import { listOrders } from "~/orders/desk.server";
import { DESK_PARAMS, deskSearch, parseDeskQuery } from "~/orders/desk-query";
import { DESK_VIEWS, VIEW_LABELS } from "~/orders/status";
import { withTrackingLink } from "~/settings/carriers";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = () => [{ title: "Pedidos · Administración" }];

/** /admin/orders?estado=pendiente&q=…&desde=…&hasta=…&pagina=2 */
export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database, settings } = args.context.get(servicesContext);
  const { carriers } = settings.current();
  const parsed = parseDeskQuery(args.url.searchParams);
  const shown = {
    values: parsed.values,
    errors: parsed.errors,
    notice: parsed.notice,
    carriers: carriers.map((c) => c.name),
  };
  // A search the database must not see: the desk says why, lists nothing and answers 400.
  if (parsed.refused) return data({ orders: [], total: 0, page: 1, pages: 1, ...shown }, { status: 400 });
  const listed = await listOrders(database.db, parsed.query);
  return { ...listed, orders: listed.orders.map((o) => withTrackingLink(o, carriers)), ...shown };
}

export const action = pageTakesNoForm;

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { orders, values, page, pages, total, errors, notice, carriers } = loaderData;
  const filtered = Boolean(values.search || values.from || values.until);
  return (
    <section aria-labelledby="orders-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 id="orders-title" className="font-serif text-3xl">
          Pedidos
        </h1>
        <a
          href={`/admin/orders/exportar.csv${deskSearch(values)}`}
          download
          className="min-h-11 content-center rounded-full border border-ink px-4 text-sm"
        >
          Exportar CSV
        </a>
      </div>

      <nav aria-label="Estado de los pedidos" className="mt-6 flex gap-2 overflow-x-auto">
        {DESK_VIEWS.map((tab) => (
          <Link
            key={tab}
            to={`/admin/orders${deskSearch({ ...values, tab })}`}
            aria-current={tab === values.tab ? "page" : undefined}
            className={`min-h-11 content-center whitespace-nowrap rounded-full px-4 text-sm ${
              tab === values.tab ? "bg-ink text-cream" : "bg-sand/60 hover:bg-sand"
            }`}
          >
            {VIEW_LABELS[tab]}
          </Link>
        ))}
      </nav>

      <Form
        method="get"
        role="search"
        className="mt-4 grid grid-cols-2 items-end gap-3 sm:grid-cols-[1fr_auto_auto_auto]"
      >
        <input type="hidden" name={DESK_PARAMS.tab} value={values.tab} />
        <FilterField
          id="orders-search"
          label="Buscar por número de pedido, nombre o correo"
          type="search"
          name={DESK_PARAMS.search}
          value={values.search}
          wide
        />
        <FilterField id="orders-from" label="Desde" type="date" name={DESK_PARAMS.from} value={values.from} />
        <FilterField
          id="orders-until"
          label="Hasta"
          type="date"
          name={DESK_PARAMS.until}
          value={values.until}
        />
        <button
          type="submit"
          className="col-span-2 min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream sm:col-span-1"
        >
          Buscar
        </button>
      </Form>
      {errors.map((error) => (
        <p key={error} role="alert" className="mt-2 text-sm text-red-800">
          {error}
        </p>
      ))}
      {filtered && (
        <p className="mt-2 text-sm text-ink/75">
          {total === 1 ? "1 pedido" : `${total} pedidos`} ·{" "}
          <Link to={`/admin/orders${deskSearch({ tab: values.tab })}`} className="underline">
            Quitar filtros
          </Link>
        </p>
      )}

      <DeskNotice initial={notice} />

      {orders.length === 0 ? (
        <p className="mt-8 text-ink/75">No hay pedidos en esta sección.</p>
      ) : (
        <ol className="mt-6 space-y-4" aria-label={`Pedidos: ${VIEW_LABELS[values.tab]}`}>
          {orders.map((order) => (
            <li key={order.id}>
              <article aria-label={`Pedido ${order.id}`} className="rounded-xl bg-white p-4 shadow-sm sm:p-6">
                <OrderView order={order} link />
                <div className="mt-4 border-t border-sand pt-4">
                  {!order.removedAt && (
                    <OrderActions
                      orderId={order.id}
                      status={order.status}
                      total={order.total}
                      carriers={carriers}
                    />
                  )}
                </div>
              </article>
            </li>
          ))}
        </ol>
      )}

      {pages > 1 && (
        <nav aria-label="Páginas" className="mt-6 flex items-center justify-between gap-3 text-sm">
          {page > 1 ? (
            <Link to={`/admin/orders${deskSearch({ ...values, page: page - 1 })}`} className="underline">
              Anterior
            </Link>
          ) : (
            <span />
          )}
          <span>
            Página {page} de {pages}
          </span>
          {page < pages ? (
            <Link to={`/admin/orders${deskSearch({ ...values, page: page + 1 })}`} className="underline">
              Siguiente
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}

function FilterField(props: {
  id: string;
  label: string;
  type: "search" | "date";
  name: string;
  value: string;
  wide?: boolean;
}) {
  return (
    <div className={props.wide ? "col-span-2 sm:col-span-1" : undefined}>
      <label htmlFor={props.id} className="block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={props.id}
        type={props.type}
        name={props.name}
        defaultValue={props.value}
        maxLength={props.type === "search" ? 100 : undefined}
        className="mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3"
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError notFoundTitle="Pedidos" message="No se pudieron cargar los pedidos." />;
}
