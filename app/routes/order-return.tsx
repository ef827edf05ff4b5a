import { data, Form, Link, redirect, useNavigation } from "react-router";
import { OrderLinkError } from "~/components/order-link-error";
import { formatShopDateTime } from "~/lib/dates";
import { refundWayOf } from "~/orders/order";
import { orderPagePath } from "~/orders/order-page-link.server";
import { getOrder } from "~/orders/queries.server";
import { type ReturnClosed, requestReturn, returnChanceOf } from "~/returns/request.server";
import { readReturnForm } from "~/returns/return-input";
import { RETURN_REASONS } from "~/returns/return-status";
import { servicesContext } from "~/web/services";
import { orderNotFound, requireCurrentLink, signedOrder, signedOrderRef } from "~/web/signed-order.server";
import type { Route } from "./+types/order-return";

export const meta = () => [{ title: "Pedir una devolución" }, { name: "robots", content: "noindex" }];

export const headers = () => ({ "Cache-Control": "private, no-store" });

/** Why the form is not offered (or a request was refused), in the buyer's words. */
const CLOSED: Record<ReturnClosed | "piezas", string> = {
  no_entregado: "Podrás pedir una devolución cuando tu pedido se haya entregado.",
  fuera_de_plazo:
    "El plazo para pedir una devolución de este pedido ya terminó (5 días hábiles desde la entrega).",
  en_curso: "Ya tienes una devolución en curso de este pedido: la ves en Mi pedido.",
  sin_piezas: "Ya pediste devolver todas las piezas de este pedido.",
  no_aplica: "Este pedido no admite devoluciones.",
  piezas: "Elige solo piezas de tu pedido que aún no hayas devuelto.",
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { database, orderPageLinks, settings } = context.get(servicesContext);
  const ref = signedOrderRef(request, params);
  const order = requireCurrentLink(orderPageLinks, ref, await getOrder(database.db, ref.orderId));
  const chance = await returnChanceOf(database.db, order, settings.current().deliveryDays);
  if (!chance) throw orderNotFound();
  return {
    orderId: order.id,
    // Cash paid at OXXO cannot be refunded to where it came from: the shop asks her where.
    refundWay:
      refundWayOf(order.voucher?.method ?? null).trim() || "por transferencia a la cuenta que nos indiques",
    back: orderPagePath(orderPageLinks, order),
    chance: chance.open
      ? { open: true as const, until: formatShopDateTime(chance.until), pieces: chance.pieces }
      : { open: false as const, message: CLOSED[chance.reason] },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { database, orderPageLinks, settings } = context.get(servicesContext);
  const order = await signedOrder(database.db, orderPageLinks, request, params);
  const orderId = order.id;
  const form = await request.formData().catch(() => null);
  const read = readReturnForm(form);
  if (!read.ok) return data({ errors: read.errors, message: "" }, { status: 400 });
  const result = await requestReturn(database.db, orderId, read.value, settings.current().deliveryDays);
  if (!result.ok) {
    if (result.reason === "piezas")
      return data({ errors: { piezas: CLOSED.piezas }, message: "" }, { status: 400 });
    return data({ errors: {}, message: CLOSED[result.reason] }, { status: 409 });
  }
  const { mail } = context.get(servicesContext);
  mail.sendSoon();
  throw redirect(
    `${orderPagePath(orderPageLinks, order)}&devolucion=${encodeURIComponent(result.returnId)}#devoluciones`,
  );
}

export default function OrderReturn({ loaderData, actionData }: Route.ComponentProps) {
  const { chance, back, orderId, refundWay } = loaderData;
  const busy = useNavigation().state !== "idle";
  const errors: Record<string, string> = actionData?.errors ?? {};
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <p className="text-sm text-ink/75">Mi pedido {orderId}</p>
      <h1 className="font-serif text-4xl">Pedir una devolución</h1>
      {!chance.open ? (
        <p className="mt-6 rounded-lg bg-sand/50 p-4" role="status">
          {chance.message}
        </p>
      ) : (
        <>
          <p className="mt-3 text-ink/80">
            Tienes hasta el {chance.until} (5 días hábiles desde la entrega). Te devolvemos el precio de las
            piezas {refundWay} cuando lleguen al taller; el envío de regreso corre por tu cuenta, salvo si la
            pieza llegó dañada o no es la que pediste. No envíes nada todavía: te escribimos a dónde
            mandarlas.
          </p>
          <Form method="post" className="mt-8 space-y-6" noValidate>
            <fieldset aria-describedby={errors.piezas ? "piezas-error" : undefined}>
              <legend className="font-medium">¿Qué piezas devuelves?</legend>
              <ul className="mt-2 divide-y divide-sand">
                {chance.pieces
                  .filter((p) => p.returnable > 0)
                  .map((piece) => (
                    <li key={piece.position} className="flex items-center justify-between gap-4 py-2">
                      <label htmlFor={`pieza-${piece.position}`}>
                        {piece.name}
                        <span className="block text-sm text-ink/75">{piece.price} c/u</span>
                      </label>
                      <select
                        id={`pieza-${piece.position}`}
                        name={`pieza-${piece.position}`}
                        defaultValue="0"
                        aria-invalid={errors.piezas ? true : undefined}
                        aria-describedby={errors.piezas ? "piezas-error" : undefined}
                        className="rounded border border-ink/30 bg-white px-2 py-1"
                      >
                        {Array.from({ length: piece.returnable + 1 }, (_, i) => `${i}`).map((n) => (
                          <option key={n} value={n}>
                            {n === "0" ? "No la devuelvo" : `Devolver ${n}`}
                          </option>
                        ))}
                      </select>
                    </li>
                  ))}
              </ul>
              {errors.piezas && (
                <p id="piezas-error" className="mt-1 text-sm text-red-800">
                  {errors.piezas}
                </p>
              )}
            </fieldset>
            <fieldset aria-describedby={errors.motivo ? "motivo-error" : undefined}>
              <legend className="font-medium">¿Por qué? (opcional: la ley no te pide un motivo)</legend>
              <div className="mt-2 space-y-1">
                {Object.entries(RETURN_REASONS).map(([value, label]) => (
                  <label key={value} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="motivo"
                      value={value}
                      aria-invalid={errors.motivo ? true : undefined}
                      aria-describedby={errors.motivo ? "motivo-error" : undefined}
                    />
                    {label}
                  </label>
                ))}
              </div>
              {errors.motivo && (
                <p id="motivo-error" className="mt-1 text-sm text-red-800">
                  {errors.motivo}
                </p>
              )}
            </fieldset>
            <div>
              <label htmlFor="comentario" className="block font-medium">
                Cuéntanos más (opcional)
              </label>
              <textarea
                id="comentario"
                name="comentario"
                rows={3}
                maxLength={1000}
                aria-invalid={errors.comentario ? true : undefined}
                aria-describedby={errors.comentario ? "comentario-error" : undefined}
                className="mt-1 w-full rounded border border-ink/30 bg-white px-3 py-2"
              />
              {errors.comentario && (
                <p id="comentario-error" className="mt-1 text-sm text-red-800">
                  {errors.comentario}
                </p>
              )}
            </div>
            {actionData?.message && (
              <p role="alert" className="text-sm text-red-900">
                {actionData.message}
              </p>
            )}
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-full bg-ink py-3 font-medium text-cream disabled:opacity-60"
            >
              Pedir devolución
            </button>
          </Form>
        </>
      )}
      <Link to={back} className="mt-10 inline-block underline">
        Volver a mi pedido
      </Link>
    </main>
  );
}

export const ErrorBoundary = OrderLinkError;
