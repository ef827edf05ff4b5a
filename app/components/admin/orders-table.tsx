import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { formatShopDateTime } from "~/lib/dates";
import { formatMXN } from "~/lib/money";
import { cancellationCents, type Order } from "~/orders/order";
import { OrderActions } from "./order-actions";
import { CancellationNote, StatusBadge, VoucherCancelledNote } from "./order-view";

/**
 * The orders desk's list: a compact table on a desktop (number, date, buyer, pieces, total,
 * status, actions), a dense list on a phone (the same rows, each a small grid), with a checkbox per
 * row and 'Seleccionar todos' for the page. `toolbar` gets the selected orders, in the list's order.
 */
export function OrdersTable({
  orders,
  label,
  carriers,
  selectable,
  toolbar,
}: {
  orders: readonly Order[];
  label: string;
  carriers: readonly string[];
  selectable: boolean;
  toolbar: (selected: string[], clear: () => void) => React.ReactNode;
}) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  // Orders that left the page (shipped, deleted) are no longer selected.
  const selected = orders.filter((o) => chosen.has(o.id)).map((o) => o.id);
  const all = selected.length > 0 && selected.length === orders.length;
  const some = selected.length > 0 && !all;
  const allRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = some;
  }, [some]);
  const clear = useCallback(() => setChosen(new Set()), []);
  const toggle = (orderId: string, on: boolean) =>
    setChosen((before) => {
      const next = new Set(before);
      if (on) next.add(orderId);
      else next.delete(orderId);
      return next;
    });
  const cell = "block md:table-cell md:px-2 md:py-2 md:align-top";
  return (
    <>
      {selectable && (
        <div className="flex flex-wrap items-end justify-between gap-x-4">
          <label className="mt-4 flex min-h-11 items-center gap-2 text-sm">
            <input
              ref={allRef}
              type="checkbox"
              checked={all}
              onChange={(e) => setChosen(new Set(e.target.checked ? orders.map((o) => o.id) : []))}
              className="size-5"
            />
            Seleccionar todos
          </label>
          {toolbar(selected, clear)}
        </div>
      )}
      <table className="mt-4 block w-full border-collapse text-left text-sm md:table" aria-label={label}>
        <thead className="sr-only md:not-sr-only md:table-header-group">
          <tr className="border-b border-ink/20 text-xs uppercase tracking-wider text-ink/70">
            {selectable && (
              <th scope="col" className="md:px-2 md:py-2">
                <span className="sr-only">Seleccionar</span>
              </th>
            )}
            <th scope="col" className="md:px-2 md:py-2">
              Pedido
            </th>
            <th scope="col" className="md:px-2 md:py-2">
              Fecha
            </th>
            <th scope="col" className="md:px-2 md:py-2">
              Cliente
            </th>
            <th scope="col" className="md:px-2 md:py-2">
              Piezas
            </th>
            <th scope="col" className="md:px-2 md:py-2 md:text-right">
              Total
            </th>
            <th scope="col" className="md:px-2 md:py-2">
              Estatus
            </th>
            <th scope="col" className="md:px-2 md:py-2">
              Acciones
            </th>
          </tr>
        </thead>
        <tbody className="block md:table-row-group">
          {orders.map((order) => {
            const pieces = order.lines.reduce((n, l) => n + l.quantity, 0);
            const checked = chosen.has(order.id);
            return (
              <tr
                key={order.id}
                data-order={order.id}
                className={`grid grid-cols-[auto_minmax(0,1fr)_auto] gap-x-3 gap-y-1 border-b border-sand py-3 md:table-row md:py-0 ${
                  checked ? "bg-gold-300/20" : "bg-white"
                }`}
              >
                {selectable && (
                  <td className={`${cell} row-span-3`}>
                    <input
                      type="checkbox"
                      aria-label={`Seleccionar ${order.id}`}
                      checked={checked}
                      disabled={Boolean(order.removedAt)}
                      onChange={(e) => toggle(order.id, e.target.checked)}
                      className="mt-1 size-5"
                    />
                  </td>
                )}
                <td className={`${cell} col-start-2 row-start-1`}>
                  <Link
                    to={`/admin/orders/${order.id}`}
                    className="whitespace-nowrap font-mono font-semibold underline decoration-gold-500 underline-offset-4"
                  >
                    {order.id}
                  </Link>
                </td>
                <td className={`${cell} col-start-3 row-start-2 text-right text-xs text-ink/75 md:text-left`}>
                  <time dateTime={order.createdAt.toISOString()}>{formatShopDateTime(order.createdAt)}</time>
                </td>
                <td className={`${cell} col-start-2 row-start-2 min-w-0`}>
                  <span className="block font-medium">{order.customerName || "Sin nombre"}</span>
                  <span className="block break-all text-xs text-ink/75">{order.customerEmail}</span>
                </td>
                <td className={`${cell} col-start-2 row-start-3 text-xs`}>
                  <span className="sr-only md:not-sr-only md:block md:font-medium">
                    {pieces === 1 ? "1 pieza" : `${pieces} piezas`}
                  </span>
                  <span className="block text-ink/75">
                    {order.lines.map((l) => `${l.name} × ${l.quantity}`).join(", ")}
                  </span>
                </td>
                <td className={`${cell} col-start-3 row-start-3 text-right font-medium whitespace-nowrap`}>
                  {order.total}
                </td>
                <td className={`${cell} col-start-3 row-start-1 text-right md:text-left`}>
                  <StatusBadge status={order.status} />
                  {order.carrier && (
                    <span className="mt-1 block text-xs">
                      {order.carrier} · <span className="font-mono">{order.trackingNumber}</span>
                      {order.trackingUrl && (
                        <>
                          {" · "}
                          <a href={order.trackingUrl} target="_blank" rel="noreferrer" className="underline">
                            Rastrear envío
                          </a>
                        </>
                      )}
                    </span>
                  )}
                </td>
                <td className={`${cell} col-span-3 row-start-4 pt-1 md:pt-2`}>
                  {/* A cancelled order: why, and how its refund stands. */}
                  {order.cancellation && <CancellationNote cancellation={order.cancellation} />}
                  {order.voucherCancelled && <VoucherCancelledNote cancelled={order.voucherCancelled} />}
                  {!order.removedAt && (
                    <OrderActions
                      orderId={order.id}
                      status={order.status}
                      total={formatMXN(cancellationCents(order))}
                      carriers={carriers}
                      delivered={order.deliveredAt !== null}
                      compact
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
