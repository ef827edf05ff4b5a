import { useCallback, useEffect, useRef, useState } from "react";
import { data, Form, Link, useFetcher } from "react-router";
import { BULK_SHIP_INTENT, BulkShipDialog } from "~/components/admin/bulk-ship";
import type { DeskActionData } from "~/components/admin/desk-fetcher";
import { DeskNotice } from "~/components/admin/order-actions";
import { OrdersTable } from "~/components/admin/orders-table";
import { keepFormWhenSessionEnds } from "~/components/admin/session-ended";
import { RouteError } from "~/components/route-error";
import {
  type BulkShipLines,
  bulkCarrier,
  checkBulkLines,
  parseBulkCsv,
  problemText,
} from "~/orders/bulk-ship";
import { bulkShipProblems, shipOrders } from "~/orders/bulk-ship.server";
import { markDelivered } from "~/orders/delivery.server";
import { listOrders } from "~/orders/desk.server";
import { DESK_PARAMS, deskSearch, parseDeskQuery } from "~/orders/desk-query";
import { isOrderId } from "~/orders/ids";
import { DESK_VIEWS, VIEW_LABELS } from "~/orders/status";
import { withTrackingLink } from "~/settings/carriers";
import { requireAdmin } from "~/web/guards.server";
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

/** The most a pasted CSV may hold (200 lines of order number and tracking fit in far less). */
const CSV_MAX_CHARS = 100_000;

function answer(status: number, body: Omit<DeskActionData, "intent" | "orderId">) {
  return data(
    { intent: BULK_SHIP_INTENT, orderId: "", ...body },
    { status, headers: { "Cache-Control": "no-store" } },
  );
}

/** A save after the session ended keeps the page and what was typed (components/admin/session-ended). */
export const clientAction = (args: Route.ClientActionArgs) => keepFormWhenSessionEnds(args);

/**
 * 'Atender seleccionados' (intent `atenderlote`): one carrier, and a tracking number per selected
 * order (`pedido`/`guia` pairs) or a CSV of "pedido,guía" lines (`csv`). All are shipped or none:
 * 400 with every problem by its line (or order), 409 naming the orders another tab moved meanwhile.
 */

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database, mail, settings } = args.context.get(servicesContext);
  const form = await args.request.formData().catch(() => null);
  if (!form) return answer(400, { ok: false, message: "Envía el formulario." });
  if (form.get("intent") === BULK_DELIVERED_INTENT) {
    // 'Marcar entregados': the selected shipped orders not marked yet; the others are left as they are.
    const ids = [
      ...new Set(
        form
          .getAll("pedido")
          .map((id) => (typeof id === "string" ? id.trim().toUpperCase() : ""))
          .filter(isOrderId),
      ),
    ];
    if (ids.length === 0) return answer(400, { ok: false, message: "Selecciona pedidos enviados." });
    if (ids.length > 500) return answer(400, { ok: false, message: "Marca hasta 500 pedidos a la vez." });
    const marked = await markDelivered(database.db, ids, settings.current().deliveryDays);
    const left = ids.length - marked;
    return answer(200, {
      ok: true,
      message: `${marked === 1 ? "1 pedido marcado" : `${marked} pedidos marcados`} como entregado${marked === 1 ? "" : "s"}${left > 0 ? ` (${left} ya lo estaba${left === 1 ? "" : "n"} o no se ha enviado)` : ""}`,
    });
  }
  if (form.get("intent") !== BULK_SHIP_INTENT)
    return answer(400, { ok: false, message: "Acción desconocida." });
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const refused = (problems: string[]) =>
    answer(400, {
      ok: false,
      message: "No se atendió ningún pedido. Corrige esto y vuelve a intentarlo:",
      problems,
    });

  const pairs = form.getAll("pedido");
  const source = pairs.length > 0 ? "seleccion" : "csv";
  let lines: BulkShipLines;
  if (source === "seleccion") {
    const tracking = form.getAll("guia");
    lines = checkBulkLines(
      pairs.map((orderId, i) => ({
        line: i + 1,
        orderId: typeof orderId === "string" ? orderId.trim().toUpperCase() : "",
        trackingNumber: String(tracking[i] ?? "").trim(),
      })),
    );
  } else {
    const csv = text("csv");
    if (csv.length > CSV_MAX_CHARS) return refused(["El CSV es demasiado largo (máximo 100 KB)."]);
    lines = parseBulkCsv(csv);
  }
  const carrier = bulkCarrier(settings.current().carriers, text("carrier"), text("otherCarrier"));
  if (!carrier.ok) {
    // Every problem at once: the carrier's, the lines', and what the database says of them.
    const all = [...lines.problems, ...(await bulkShipProblems(database.db, lines.lines))];
    return refused([
      carrier.message,
      ...all.sort((a, b) => a.line - b.line).map((p) => problemText(p, source)),
    ]);
  }

  const result = await shipOrders(
    database.db,
    carrier.carrier,
    lines,
    new Date(),
    settings.current().deliveryDays,
  );
  if (!result.ok) {
    const listed = result.problems.map((p) => problemText(p, source));
    if (result.reason === "lineas") return refused(listed);
    return answer(409, {
      ok: false,
      message: "No se atendió ningún pedido: otra pestaña cambió alguno mientras tanto.",
      problems: listed,
    });
  }
  mail.sendSoon();
  const n = result.shipped.length;
  return answer(200, {
    ok: true,
    message: n === 1 ? "1 pedido marcado como enviado" : `${n} pedidos marcados como enviados`,
  });
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { orders, values, page, pages, total, errors, notice, carriers } = loaderData;
  const filtered = Boolean(values.search || values.from || values.until);
  // The fields show the search applied: after 'Quitar filtros' (or Back), not what was typed before.
  const searchForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const fields = searchForm.current?.elements;
    if (!fields) return;
    for (const [name, value] of [
      [DESK_PARAMS.search, values.search],
      [DESK_PARAMS.from, values.from],
      [DESK_PARAMS.until, values.until],
    ] as const) {
      const field = fields.namedItem(name);
      if (field instanceof HTMLInputElement) field.value = value;
    }
  }, [values.search, values.from, values.until]);
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
        ref={searchForm}
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
        <OrdersTable
          key={`${values.tab}-${page}`}
          orders={orders}
          label={`Pedidos: ${VIEW_LABELS[values.tab]}`}
          carriers={carriers}
          selectable={values.tab !== "cancelado" && values.tab !== "borrado"}
          toolbar={(selected, clear) => (
            <BulkTools tab={values.tab} selected={selected} clear={clear} carriers={carriers} />
          )}
        />
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

const tool = "min-h-11 content-center rounded-full px-4 text-sm font-medium";
const BULK_DELIVERED_INTENT = "entregadolote";

/** What can be done with the selected orders: ship them at once (pending tab), print their slips. */
function BulkTools({
  tab,
  selected,
  clear,
  carriers,
}: {
  tab: string;
  selected: readonly string[];
  clear: () => void;
  carriers: readonly string[];
}) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const shipped = useCallback(() => {
    setOpen(false);
    clear();
  }, [clear]);
  const count = selected.length;
  const delivering = useFetcher<DeskActionData>();
  return (
    <div className="mt-4 flex flex-wrap items-center gap-2">
      <p className="mr-2 text-sm text-ink/75" aria-live="polite">
        {count === 0
          ? "Ningún pedido seleccionado"
          : count === 1
            ? "1 seleccionado"
            : `${count} seleccionados`}
      </p>
      {tab === "pendiente" && (
        <>
          <button type="button" onClick={() => setOpen(true)} className={`${tool} bg-ink text-cream`}>
            {count > 0 ? "Atender seleccionados" : "Atender desde CSV"}
          </button>
          <BulkShipDialog
            open={open}
            onClose={close}
            onShipped={shipped}
            selected={selected}
            carriers={carriers}
          />
        </>
      )}
      {tab === "enviado" && count > 0 && (
        <button
          type="button"
          disabled={delivering.state !== "idle"}
          onClick={() => {
            const form = new FormData();
            form.append("intent", BULK_DELIVERED_INTENT);
            for (const id of selected) form.append("pedido", id);
            void delivering.submit(form, { method: "post", action: "/admin/orders" });
            clear();
          }}
          className={`${tool} border border-ink disabled:opacity-60`}
        >
          Marcar entregados
        </button>
      )}
      {delivering.data && delivering.state === "idle" && (
        <p role="status" className="text-sm">
          {delivering.data.message}
        </p>
      )}
      {count > 0 && (
        <a
          href={`/admin/orders/imprimir?pedidos=${selected.join(",")}`}
          className={`${tool} border border-ink`}
        >
          Imprimir hojas de empaque
        </a>
      )}
    </div>
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
