import { Link } from "react-router";
import { formatShopDateTime } from "~/lib/dates";
import { formatMXN } from "~/lib/money";
import { type Order, type OrderCancellation, REFUNDED_BY_HAND, shippingLineOf } from "~/orders/order";
import { noAnswerDetail } from "~/orders/refund-timing";
import { addressLines } from "~/orders/shipping";
import { STATUS_LABELS } from "~/orders/status";

const STATUS_STYLE: Record<string, string> = {
  pendiente: "bg-gold-300/60 text-ink",
  enviado: "bg-emerald-100 text-emerald-900",
  archivado: "bg-sand text-ink",
  cancelado: "bg-red-100 text-red-900",
};

export function StatusBadge({ status }: { status: Order["status"] }) {
  return (
    <span className={`rounded-full px-3 py-1 text-xs font-medium ${STATUS_STYLE[status] ?? "bg-sand"}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}

/**
 * What the owner needs to prepare and send an order: who, where, what, how much, and how it
 * travels. `link`: the order number links to its page (in lists).
 */
export function OrderView({ order, link }: { order: Order; link?: boolean }) {
  const shippingLine = shippingLineOf(order);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-mono text-lg font-semibold">
          {link ? (
            <Link
              to={`/admin/orders/${order.id}`}
              className="underline decoration-gold-500 underline-offset-4"
            >
              {order.id}
            </Link>
          ) : (
            order.id
          )}
        </h2>
        <StatusBadge status={order.status} />
      </div>
      <p className="text-sm text-ink/75">
        <time dateTime={order.createdAt.toISOString()}>{formatShopDateTime(order.createdAt)}</time>
        {order.installmentMonths !== null && (
          <span data-testid="installment-plan">
            {" "}
            · Pagado a {order.installmentMonths} meses sin intereses
          </span>
        )}
      </p>
      {order.cancellation && <CancellationNote cancellation={order.cancellation} />}
      {order.voucherCancelled && <VoucherCancelledNote cancelled={order.voucherCancelled} />}
      {order.stockIssue && <MissingPiecesNote order={order} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <h3 className="text-xs uppercase tracking-wider text-ink/70">Cliente</h3>
          <p className="mt-1 font-medium">{order.customerName || "Sin nombre"}</p>
          <p className="break-all text-sm">
            <a href={`mailto:${order.customerEmail}`} className="underline">
              {order.customerEmail}
            </a>
          </p>
          {order.shipping?.phone && (
            <p className="text-sm">
              <a href={`tel:${order.shipping.phone.replace(/[^\d+]/g, "")}`} className="underline">
                {order.shipping.phone}
              </a>
            </p>
          )}
        </div>
        <div>
          <h3 className="text-xs uppercase tracking-wider text-ink/70">Enviar a</h3>
          {order.shipping ? (
            <address className="mt-1 text-sm not-italic">
              {addressLines({ ...order.shipping, phone: "" }).map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </address>
          ) : (
            <p className="mt-1 text-sm text-ink/70">Sin dirección de envío.</p>
          )}
        </div>
      </div>
      <div>
        <h3 className="text-xs uppercase tracking-wider text-ink/70">Piezas</h3>
        <ul className="mt-1 divide-y divide-sand text-sm">
          {order.lines.map((line) => (
            <li key={`${line.name}-${line.unitPriceCents}`} className="flex justify-between gap-3 py-1">
              <span>
                {line.name} × {line.quantity}
                {line.edition && <span className="block text-ink/75">{line.edition}</span>}
              </span>
              <span className="whitespace-nowrap text-ink/75">{formatMXN(line.unitPriceCents)} c/u</span>
            </li>
          ))}
        </ul>
        {shippingLine && (
          <p
            className="flex justify-between gap-3 border-t border-sand py-1 text-sm"
            data-testid="order-shipping"
          >
            <span>{shippingLine.label}</span>
            <span className="whitespace-nowrap text-ink/75">{shippingLine.amount}</span>
          </p>
        )}
        <p className="mt-1 flex justify-between border-t border-ink/20 pt-1 font-medium">
          <span>Total</span>
          <span>{order.total} MXN</span>
        </p>
      </div>
      {order.carrier && (
        <p className="text-sm">
          <span className="text-ink/75">Enviado con</span> <strong>{order.carrier}</strong>
          <span className="text-ink/75">, guía</span>{" "}
          <strong className="font-mono">{order.trackingNumber}</strong>
          {order.trackingUrl && (
            <>
              {" · "}
              <a href={order.trackingUrl} target="_blank" rel="noreferrer" className="underline">
                Rastrear envío
              </a>
            </>
          )}
        </p>
      )}
    </div>
  );
}

/** Why a paid order was cancelled (over the per-person limit) and how its refund stands. */
/** Where a cancelled order's pieces stand: none were taken when it was paid with all of them sold. */
function piecesNote(cancellation: OrderCancellation): string {
  if (cancellation.soldOut) return "No tomó piezas: ya se habían vendido cuando llegó el pago.";
  return cancellation.byShop
    ? "Las piezas vuelven al stock cuando el reembolso se haga."
    : "Las piezas ya volvieron al stock.";
}

export function CancellationNote({ cancellation }: { cancellation: OrderCancellation }) {
  const amount = `${formatMXN(cancellation.amountCents)} MXN`;
  return (
    <div
      data-testid="cancellation"
      className="space-y-1 rounded-lg border border-red-800/40 bg-red-50 px-3 py-2 text-sm text-red-900"
    >
      <p>
        {cancellation.byShop || cancellation.soldOut || cancellation.mismatch ? (
          <strong>{cancellation.reason}</strong>
        ) : (
          <>
            <strong>Cancelado por el máximo por persona:</strong> {cancellation.reason}
          </>
        )}
      </p>
      {cancellation.refund === "hecho" ? (
        <p>
          Reembolso de {amount} hecho
          {cancellation.refundedAt && (
            <>
              {" el "}
              <time dateTime={cancellation.refundedAt.toISOString()}>
                {formatShopDateTime(cancellation.refundedAt)}
              </time>
            </>
          )}
          {cancellation.refundId === REFUNDED_BY_HAND ? (
            <> por la tienda, a mano</>
          ) : (
            cancellation.refundId && <> (referencia {cancellation.refundId})</>
          )}
          .{cancellation.soldOut ? "" : " Las piezas volvieron al stock."}
        </p>
      ) : cancellation.inProgress ? (
        <p>
          <strong>Reembolso de {amount} en curso:</strong> el proveedor de pagos lo aceptó y lo está haciendo
          (algunos bancos tardan días); la tienda pregunta cómo va sola. No lo reembolses a mano.{" "}
          {piecesNote(cancellation)}
        </p>
      ) : cancellation.byHand ? (
        <p>
          <strong>Reembolso de {amount} por hacer a mano:</strong> {cancellation.lastError}. La tienda no se
          lo pide a nadie: cuando se lo devuelvas, márcalo con 'Ya lo reembolsé a mano'.{" "}
          {piecesNote(cancellation)}
        </p>
      ) : (
        <p>
          <strong>Reembolso de {amount} pendiente:</strong>{" "}
          {cancellation.attempts > 0
            ? cancellation.noAnswer
              ? `el proveedor de pagos no respondió (${cancellation.attempts} ${cancellation.attempts === 1 ? "intento" : "intentos"}: ${noAnswerDetail(cancellation.lastError)}) y puede que sí lo haya hecho; la tienda le vuelve a preguntar sola. No lo reembolses a mano mientras no conteste.`
              : `el proveedor de pagos no lo hizo (${cancellation.attempts} ${cancellation.attempts === 1 ? "intento" : "intentos"}${cancellation.lastError ? `: ${cancellation.lastError}` : ""}); se reintenta solo. Si sigue así, reembolsa a mano desde el panel del proveedor.`
            : "se está pidiendo al proveedor de pagos."}{" "}
          {piecesNote(cancellation)}
        </p>
      )}
    </div>
  );
}

/** A voucher over the per-person limit, cancelled at the provider before it was paid: nothing to refund. */
export function VoucherCancelledNote({ cancelled }: { cancelled: NonNullable<Order["voucherCancelled"]> }) {
  return (
    <div
      data-testid="voucher-cancelled"
      className="space-y-1 rounded-lg border border-red-800/40 bg-red-50 px-3 py-2 text-sm text-red-900"
    >
      <p>
        <strong>Ficha cancelada por el máximo por persona:</strong> {cancelled.reason}
      </p>
      <p>
        Se canceló en el proveedor de pagos el{" "}
        <time dateTime={cancelled.at.toISOString()}>{formatShopDateTime(cancelled.at)}</time>, antes de que se
        pagara: no se cobró nada y no hay nada que reembolsar. Las piezas volvieron al stock.
      </p>
    </div>
  );
}

/** A late payment's missing pieces: their refund through the provider, or by the owner's hand. */
function MissingPiecesNote({ order }: { order: Order }) {
  const refund = order.missingRefund;
  if (order.missingRefundedAt) {
    const how = refund && !refund.byHand ? "por el proveedor de pagos" : "a mano";
    return (
      <p
        className="rounded-lg border border-sand bg-sand/30 px-3 py-2 text-sm"
        data-testid="missing-refunded"
      >
        <strong>
          Reembolsado {how} el {formatShopDateTime(order.missingRefundedAt)}:
        </strong>{" "}
        {order.stockIssue}
      </p>
    );
  }
  if (refund?.status === "pendiente")
    return (
      <p
        className="rounded-lg border border-sand bg-sand/30 px-3 py-2 text-sm"
        data-testid="missing-refund-pending"
      >
        <strong>Reembolso en curso en el proveedor de pagos:</strong> {order.stockIssue}
        {refund.error && !refund.inProgress && (
          <> (aún no se hizo: {refund.error}; la tienda lo vuelve a pedir)</>
        )}
      </p>
    );
  return (
    <p className="rounded-lg border border-red-800/40 bg-red-50 px-3 py-2 text-sm text-red-900">
      <strong>Reembolsar a mano:</strong> {order.stockIssue}
      {refund?.status === "a_mano" && refund.error && <> ({refund.error})</>}
    </p>
  );
}
