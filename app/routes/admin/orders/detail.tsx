import { data, Link, redirect } from "react-router";
import { BuyerCorrection } from "~/components/admin/buyer-correction";
import type { DeskActionData } from "~/components/admin/desk-fetcher";
import { orderAction, useDeskFetcher } from "~/components/admin/desk-fetcher";
import { DeskNotice, OrderActions } from "~/components/admin/order-actions";
import { ORDER_LINK_RENEWAL_INTENT, OrderLinkRenewal } from "~/components/admin/order-link-renewal";
import { OrderView } from "~/components/admin/order-view";
import { keepFormWhenSessionEnds } from "~/components/admin/session-ended";
import { ShipmentFields } from "~/components/admin/shipment-form";
import { RouteError } from "~/components/route-error";
import { formatShopDateTime, shopDateTimeStamp } from "~/lib/dates";
import { isId } from "~/lib/ids";
import { formatMXN } from "~/lib/money";
import { cancelPaidOrder } from "~/orders/cancel-order.server";
import { markDelivered, markDeliveredOn } from "~/orders/delivery.server";
import {
  archiveOrder,
  correctTracking,
  type DeskRefusal,
  getDeskOrder,
  removeFromHistory,
  resendOrderEmail,
  shipOrder,
  unarchiveOrder,
} from "~/orders/desk.server";
import { DESK_NOTICE_PARAM, DESK_NOTICES } from "~/orders/desk-query";
import { isOrderId } from "~/orders/ids";
import { recordMissingRefunded } from "~/orders/missing-refund.server";
import { cancellationCents, missingCents } from "~/orders/order";
import { HAND_REFUND_REFUSED } from "~/orders/refund-timing";
import { refundedByHand } from "~/orders/refunds.server";
import { shipmentInputFor } from "~/orders/shipment-input";
import { STATUS_LABELS } from "~/orders/status";
import { orderTimeline } from "~/orders/timeline.server";
import { withTrackingLink } from "~/settings/carriers";
import { buyerCorrectionAnswer } from "~/web/buyer-correction-request.server";
import { requireAdmin } from "~/web/guards.server";
import { orderLinkRenewalAnswer } from "~/web/order-link-renewal-request.server";
import { safeAdminPath } from "~/web/paths";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/detail";

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `Pedido ${params.orderId} · Administración` },
];

export async function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  const { database, settings } = args.context.get(servicesContext);
  const stored = isOrderId(args.params.orderId) ? await getDeskOrder(database.db, args.params.orderId) : null;
  if (!stored) throw new Response("Pedido no encontrado", { status: 404 });
  const { carriers } = settings.current();
  const order = withTrackingLink(stored, carriers);
  return {
    order,
    timeline: await orderTimeline(database.db, order),
    carriers: carriers.map((c) => c.name),
  };
}

function answer(status: number, body: DeskActionData) {
  return data(body, { status, headers: { "Cache-Control": "no-store" } });
}

/** A desk refusal in Spanish: the spec's message first, then what happened. */
function refused(base: Omit<DeskActionData, "ok" | "message">, refusal: DeskRefusal, message: string) {
  if (refusal.reason === "no_encontrado") {
    return answer(404, { ...base, ok: false, message: `${message}: el pedido no existe.` });
  }
  if (refusal.reason === "correo_pendiente") {
    return answer(409, {
      ...base,
      ok: false,
      message: `${message}: su aviso de envío todavía no le llega al cliente. Intenta de nuevo en unos minutos.`,
    });
  }
  if (refusal.reason === "faltantes_por_devolver") {
    return answer(409, {
      ...base,
      ok: false,
      message: `${message}: todavía le debes el dinero de las piezas faltantes. Devuélveselo y registra 'Ya le devolví las piezas faltantes' antes.`,
    });
  }
  const now = refusal.status ? STATUS_LABELS[refusal.status].toLowerCase() : "otro";
  return answer(409, {
    ...base,
    ok: false,
    message: `${message}: el pedido ahora está «${now}». Recarga la página para ver su estado.`,
  });
}

/** A save after the session ended keeps the page and what was typed (components/admin/session-ended). */
export const clientAction = (args: Route.ClientActionArgs) => keepFormWhenSessionEnds(args);

/**
 * Every action on one order: atender (ship), corregir (tracking), comprador (the buyer's data),
 * archivar, desarchivar, eliminar (a paid order: cancelled with its refund), borrar (off the tabs,
 * the record kept), reenviar (an e-mail), enlace (its 'Mi pedido' link renewed). Each answers { ok, message } with its status.
 */

export async function action(args: Route.ActionArgs) {
  requireAdmin(args);
  const { database, mail, settings, payments } = args.context.get(servicesContext);
  const db = database.db;
  const orderId = args.params.orderId;
  const form = await args.request.formData().catch(() => null);
  const intent = String(form?.get("intent") ?? "");
  // Echoed so the page knows which form answered; never what was sent unless it is one of ours
  // (an address or a form field carrying markup must not come back in the answer).
  const base = {
    intent: /^[a-z]{1,20}$/.test(intent) ? intent : "",
    orderId: isOrderId(orderId) ? orderId : "",
  };
  if (!form) return answer(400, { ...base, ok: false, message: "Envía el formulario." });
  if (!isOrderId(orderId)) return answer(404, { ...base, ok: false, message: "Pedido no encontrado." });
  const text = (name: string) => String(form.get(name) ?? "");
  const shipment = () =>
    shipmentInputFor(settings.current().carriers).safeParse({
      carrier: text("carrier"),
      otherCarrier: text("otherCarrier"),
      trackingNumber: text("trackingNumber"),
    });

  // The order left the tabs: from its own page, back to the list, which says what happened.
  const leave = (b: typeof base, notice: keyof typeof DESK_NOTICES, message: string) => {
    const back = safeAdminPath(text("volver"));
    if (back) throw redirect(`${back}${back.includes("?") ? "&" : "?"}${DESK_NOTICE_PARAM}=${notice}`);
    return answer(200, { ...b, ok: true, message });
  };

  switch (intent) {
    case "atender": {
      const parsed = shipment();
      if (!parsed.success) {
        return answer(400, { ...base, ok: false, message: parsed.error.issues[0]?.message ?? "" });
      }
      const result = await shipOrder(db, orderId, {
        ...parsed.data,
        deliveryDays: settings.current().deliveryDays,
      });
      if (!result.ok) return refused(base, result, "Error al marcar como enviado");
      mail.sendSoon();
      return answer(200, { ...base, ok: true, message: "Pedido marcado como enviado" });
    }
    case "corregir": {
      const parsed = shipment();
      if (!parsed.success) {
        return answer(400, { ...base, ok: false, message: parsed.error.issues[0]?.message ?? "" });
      }
      const notify = form.get("notify") === "on";
      const result = await correctTracking(db, orderId, parsed.data, { notify });
      if (!result.ok) return refused(base, result, "Error al corregir la guía");
      if (result.queued) mail.sendSoon();
      const message = !notify
        ? "Guía corregida"
        : result.queued
          ? "Guía corregida; el aviso de envío se mandó de nuevo"
          : "Guía corregida; el aviso de envío que aún no sale llevará la guía nueva";
      return answer(200, { ...base, ok: true, message });
    }
    case "comprador": {
      const { status, body } = await buyerCorrectionAnswer(db, orderId, form);
      return answer(status, { ...base, ...body });
    }
    case ORDER_LINK_RENEWAL_INTENT: {
      const { status, body } = await orderLinkRenewalAnswer(db, orderId);
      return answer(status, { ...base, ...body });
    }
    case "entregado": {
      const marked = await markDelivered(db, [orderId], settings.current().deliveryDays);
      if (marked === 0)
        return answer(409, {
          ...base,
          ok: false,
          message: "Solo un pedido enviado y aún sin entregar se marca entregado.",
        });
      return answer(200, { ...base, ok: true, message: "Pedido marcado como entregado" });
    }
    case "llegada": {
      const result = await markDeliveredOn(db, orderId, text("fecha"), settings.current().deliveryDays);
      if (!result.ok)
        return answer(result.reason === "fecha_invalida" ? 400 : 409, {
          ...base,
          ok: false,
          message:
            result.reason === "fecha_invalida"
              ? "Elige una fecha entre el día en que se envió y hoy."
              : result.reason === "antes_de_la_entrega"
                ? `Ya cuenta como entregado desde el ${formatShopDateTime(result.since)}: solo se guarda un día posterior, para no acortar el plazo que ya se le dio.`
                : "Solo un pedido enviado tiene fecha de entrega.",
        });
      return answer(200, {
        ...base,
        ok: true,
        message: "Fecha de entrega guardada: su plazo para pedir una devolución cuenta desde ese día",
      });
    }
    case "archivar": {
      const result = await archiveOrder(db, orderId);
      if (!result.ok) return refused(base, result, "Error al archivar el pedido");
      return answer(200, { ...base, ok: true, message: "Pedido archivado" });
    }
    case "desarchivar": {
      const result = await unarchiveOrder(db, orderId);
      if (!result.ok) return refused(base, result, "Error al desarchivar el pedido");
      return answer(200, { ...base, ok: true, message: "Pedido de vuelta en Enviado" });
    }
    case "eliminar": {
      const result = await cancelPaidOrder(db, payments, orderId);
      if (!result.ok) {
        // The spec's words for a failed delete ('Eliminar pedido'), then why.
        if (result.reason === "reembolso_rechazado") {
          return answer(409, {
            ...base,
            ok: false,
            message: `Error al eliminar el pedido: ${result.message}`,
          });
        }
        return refused(base, result, "Error al eliminar el pedido");
      }
      if (result.refund === "hecho") mail.sendSoon();
      const amount = formatMXN(result.amountCents);
      const message = {
        hecho: `Pedido cancelado: se reembolsaron ${amount} y sus piezas volvieron al inventario`,
        en_curso: `Pedido cancelado: el reembolso de ${amount} está en curso en el proveedor de pagos; sus piezas vuelven al inventario cuando se complete`,
        pendiente: `Pedido cancelado: el proveedor de pagos no respondió; el reembolso de ${amount} se pedirá de nuevo en unos minutos`,
        a_mano: `Pedido cancelado: el proveedor de pagos no puede reembolsar este pago (en efectivo en OXXO, o de otro proveedor). Devuélvele ${amount} tú y márcalo con 'Ya lo reembolsé a mano'; sus piezas vuelven al inventario entonces`,
      }[result.refund];
      return leave(base, "cancelado", message);
    }
    case "reembolsado": {
      const result = await refundedByHand(db, orderId);
      if (!result.ok) {
        const why =
          result.reason === "sin_reembolso"
            ? "Este pedido no tiene un reembolso pendiente."
            : HAND_REFUND_REFUSED[result.reason];
        return answer(409, { ...base, ok: false, message: why });
      }
      mail.sendSoon();
      return answer(200, { ...base, ok: true, message: "Reembolso registrado: le escribimos al cliente" });
    }
    case "faltantes": {
      const result = await recordMissingRefunded(db, orderId);
      if (!result.ok) {
        const why =
          result.reason === "cancelado"
            ? `Este pedido se canceló${result.refundCents === null ? "" : ` con un reembolso de ${formatMXN(result.refundCents)}`}, que ya incluye las piezas faltantes: no devuelvas nada más por ellas.`
            : {
                no_encontrado: "Pedido no encontrado.",
                sin_faltantes: "Este pedido no tiene piezas faltantes que reembolsar.",
                ya_registrado: "Ya estaba registrado: recarga la página.",
                ...HAND_REFUND_REFUSED,
              }[result.reason];
        return answer(result.reason === "no_encontrado" ? 404 : 409, { ...base, ok: false, message: why });
      }
      return answer(200, {
        ...base,
        ok: true,
        message: `Registrado: le devolviste ${formatMXN(result.amountCents)} por las piezas faltantes`,
      });
    }
    case "borrar": {
      const result = await removeFromHistory(db, orderId);
      if (!result.ok) return refused(base, result, "Error al borrar el pedido del historial");
      return leave(base, "borrado", DESK_NOTICES.borrado);
    }
    case "reenviar": {
      const emailId = text("email");
      const result = isId(emailId)
        ? await resendOrderEmail(db, orderId, emailId)
        : ({ ok: false, reason: "no_encontrado", status: null } as const);
      if (!result.ok) return answer(404, { ...base, ok: false, message: "Ese correo no existe." });
      if (!result.queued) return answer(200, { ...base, ok: true, message: "Ese correo ya va en camino." });
      mail.sendSoon();
      return answer(200, { ...base, ok: true, message: "Correo en camino de nuevo" });
    }
    default:
      return answer(400, { ...base, ok: false, message: "Acción desconocida." });
  }
}

export default function AdminOrder({ loaderData }: Route.ComponentProps) {
  const { order, timeline, carriers } = loaderData;
  const fetcher = useDeskFetcher();
  const back = `/admin/orders?estado=${order.status}`;
  return (
    <section aria-labelledby="order-title">
      <p className="text-sm">
        <Link to={back} className="underline">
          ← Pedidos
        </Link>
      </p>
      <h1 id="order-title" className="mt-2 font-serif text-3xl">
        Pedido {order.id}
      </h1>
      <DeskNotice />
      <div className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
        <OrderView order={order} />
        <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-sand pt-4">
          {order.removedAt ? (
            <p className="text-sm">
              Borrado del historial el {formatShopDateTime(new Date(order.removedAt))}: solo lectura.
            </p>
          ) : (
            <OrderActions
              orderId={order.id}
              status={order.status}
              total={formatMXN(cancellationCents(order))}
              afterDelete={back}
              carriers={carriers}
              delivered={order.deliveredAt !== null}
            />
          )}
          <Link
            to={`/admin/orders/${order.id}/imprimir`}
            className="min-h-11 content-center rounded-full border border-ink px-5 text-sm"
          >
            Hoja de empaque
          </Link>
        </div>
      </div>

      {order.cancellation?.refund === "pendiente" &&
        !order.cancellation.inProgress &&
        !order.cancellation.noAnswer &&
        order.cancellation.attempts > 0 && (
          <details className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
            <summary className="cursor-pointer font-medium">Ya lo reembolsé a mano</summary>
            <fetcher.Form method="post" action={orderAction(order.id)} className="mt-4 max-w-md text-sm">
              <input type="hidden" name="intent" value="reembolsado" />
              <p>
                Solo si ya le devolviste {formatMXN(order.cancellation.amountCents)} por tu cuenta (desde el
                panel del proveedor de pagos, o por transferencia si pagó en efectivo): la tienda deja de
                pedirlo y le escribe que su reembolso está hecho.
              </p>
              <button
                type="submit"
                className="mt-4 min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream"
              >
                Sí, ya le devolví el dinero
              </button>
            </fetcher.Form>
          </details>
        )}

      {order.stockIssue &&
        !order.missingRefundedAt &&
        !order.removedAt &&
        order.status !== "cancelado" &&
        // The provider's to make while it is asked and has not failed: by hand only as the fallback.
        (order.missingRefund?.status !== "pendiente" ||
          (order.missingRefund.error !== null &&
            !order.missingRefund.inProgress &&
            !order.missingRefund.noAnswer)) && (
          <details className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
            <summary className="cursor-pointer font-medium">Ya le devolví las piezas faltantes</summary>
            <fetcher.Form method="post" action={orderAction(order.id)} className="mt-4 max-w-md text-sm">
              <input type="hidden" name="intent" value="faltantes" />
              <p>
                Solo si ya le devolviste {formatMXN(missingCents(order))} por las piezas que no estaban (por
                transferencia, o desde el panel del proveedor de pagos): queda registrado en el pedido, su
                página dice que se lo devolviste y los reportes dejan de contarlo como pendiente.
              </p>
              <button
                type="submit"
                className="mt-4 min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream"
              >
                Sí, ya se lo devolví
              </button>
            </fetcher.Form>
          </details>
        )}

      {(order.status === "enviado" || order.status === "archivado") &&
        order.shippedAt &&
        !order.removedAt && (
          <details className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
            <summary className="cursor-pointer font-medium">Llegó en otra fecha</summary>
            <fetcher.Form method="post" action={orderAction(order.id)} className="mt-4 max-w-md text-sm">
              <input type="hidden" name="intent" value="llegada" />
              <p>
                Si el paquete llegó después del día en que lo dimos por entregado (te escribió la clienta, o
                lo dice la paquetería), guarda ese día: su plazo de 5 días hábiles para pedir una devolución
                cuenta desde ahí.
              </p>
              <label htmlFor="delivery-day" className="mt-3 block font-medium">
                Fecha de entrega
              </label>
              <input
                id="delivery-day"
                type="date"
                name="fecha"
                required
                min={shopDateTimeStamp(new Date(order.shippedAt)).slice(0, 10)}
                max={shopDateTimeStamp(new Date()).slice(0, 10)}
                className="mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3"
              />
              <button
                type="submit"
                className="mt-4 min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream"
              >
                Guardar la fecha de entrega
              </button>
            </fetcher.Form>
          </details>
        )}

      <BuyerCorrection order={order} />

      <OrderLinkRenewal order={order} />

      {order.status === "enviado" && (
        <details className="mt-6 rounded-xl bg-white p-4 shadow-sm sm:p-6">
          <summary className="cursor-pointer font-medium">Corregir la guía</summary>
          <fetcher.Form method="post" action={orderAction(order.id)} noValidate className="mt-4 max-w-md">
            <input type="hidden" name="intent" value="corregir" />
            <ShipmentFields
              idPrefix="fix"
              carrier={order.carrier}
              trackingNumber={order.trackingNumber}
              carriers={carriers}
            />
            <label className="mt-4 flex min-h-11 items-center gap-2 text-sm">
              <input type="checkbox" name="notify" defaultChecked className="size-5" />
              Mandar de nuevo el aviso de envío al cliente
            </label>
            <button
              type="submit"
              className="mt-4 min-h-11 rounded-full bg-ink px-5 text-sm font-medium text-cream"
            >
              Guardar guía
            </button>
          </fetcher.Form>
        </details>
      )}

      <h2 className="mt-10 font-serif text-2xl">Historial</h2>
      <ol className="mt-4 space-y-3 border-l-2 border-sand pl-4">
        {timeline.map((entry) => (
          <li key={`${entry.title}-${entry.at.toISOString()}-${entry.email?.id ?? ""}`}>
            <p className="text-sm text-ink/70">
              <time dateTime={entry.at.toISOString()}>{formatShopDateTime(entry.at)}</time>
            </p>
            <p className="font-medium">{entry.title}</p>
            {entry.detail && <p className="break-words text-sm text-ink/80">{entry.detail}</p>}
            {/* A message still in the queue goes out on its own: nothing to resend yet. */}
            {entry.email && entry.email.state !== "en_cola" && (
              <fetcher.Form method="post" action={orderAction(order.id)} className="mt-1">
                <input type="hidden" name="intent" value="reenviar" />
                <input type="hidden" name="email" value={entry.email.id} />
                <button
                  type="submit"
                  disabled={fetcher.state !== "idle"}
                  aria-label={`Reenviar: ${entry.title}`}
                  className="min-h-11 text-sm underline disabled:opacity-60"
                >
                  Reenviar
                </button>
              </fetcher.Form>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteError notFoundTitle="Pedido no encontrado" notFoundMessage="Este pedido no existe o ya se borró." />
  );
}
